package io.durablebatch.item.support;

import java.nio.ByteBuffer;
import java.util.Arrays;

import io.durablebatch.Checks;
import io.durablebatch.execution.Checkpoint;

/**
 * How each built-in reader and writer encodes its position as a {@link Checkpoint}: one tag byte
 * naming the format, then the position. The tag makes a checkpoint handed to the wrong reader (or
 * written by an older format) fail with a clear message instead of seeking to a meaningless place.
 * A format that changes gets a new constant with a new tag; tags are never reused. Public, so a
 * custom reader can tag its own checkpoints the same way and recognise the built-in ones.
 */
public enum CheckpointFormat {

    /** Index of the next item. */
    LIST_READER(1, "list reader"),
    /** Byte offset and number of the next line (the line number of the last line consumed). */
    DELIMITED_FILE_READER(2, "delimited file reader"),
    /** Byte offset of the end of the written data and the number of lines written. */
    DELIMITED_FILE_WRITER(3, "delimited file writer"),
    /** The encoded sort key of the last item read; empty before the first item. */
    JDBC_PAGING_READER(4, "JDBC paging reader"),
    /** The encoded sort key of the last entity read; empty before the first one. */
    JPA_KEYSET_READER(5, "JPA keyset reader");

    private final byte tag;
    private final String owner;

    CheckpointFormat(int tag, String owner) {
        this.tag = (byte) tag;
        this.owner = owner;
    }

    /** A checkpoint holding {@code positions}, each a non-negative long. */
    public Checkpoint encodeLongs(long... positions) {
        ByteBuffer buffer = ByteBuffer.allocate(Long.BYTES * positions.length);
        for (long position : positions) {
            buffer.putLong(Checks.notNegative(position, owner + " position"));
        }
        return encode(buffer.array());
    }

    /** The {@code count} non-negative positions of a checkpoint made by {@link #encodeLongs}. */
    public long[] decodeLongs(Checkpoint checkpoint, int count) {
        byte[] payload = decode(checkpoint);
        if (payload.length != Long.BYTES * count) {
            throw refused(checkpoint, "expected " + count + " position(s) of " + Long.BYTES + " bytes");
        }
        ByteBuffer buffer = ByteBuffer.wrap(payload);
        long[] positions = new long[count];
        for (int i = 0; i < count; i++) {
            positions[i] = buffer.getLong();
            if (positions[i] < 0) {
                throw refused(checkpoint, "position " + i + " is negative");
            }
        }
        return positions;
    }

    /** A checkpoint holding an opaque {@code payload}. */
    public Checkpoint encode(byte[] payload) {
        Checks.notNull(payload, owner + " checkpoint payload");
        byte[] bytes = new byte[payload.length + 1];
        bytes[0] = tag;
        System.arraycopy(payload, 0, bytes, 1, payload.length);
        return Checkpoint.of(bytes);
    }

    /** The payload of a checkpoint made by {@link #encode}, refusing one of another format. */
    public byte[] decode(Checkpoint checkpoint) {
        Checks.notNull(checkpoint, "checkpoint");
        byte[] bytes = checkpoint.bytes();
        if (bytes.length == 0 || bytes[0] != tag) {
            throw refused(checkpoint, "it was not written by a " + owner + " (format tag "
                    + (bytes.length == 0 ? "missing" : Byte.toString(bytes[0])) + ", expected " + tag + ")");
        }
        return Arrays.copyOfRange(bytes, 1, bytes.length);
    }

    /** A refusal of a checkpoint whose payload this format cannot use. */
    public IllegalArgumentException refused(Checkpoint checkpoint, String reason) {
        return new IllegalArgumentException("cannot reopen a " + owner + " from " + checkpoint + ": " + reason);
    }
}
