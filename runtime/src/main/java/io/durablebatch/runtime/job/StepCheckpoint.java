package io.durablebatch.runtime.job;

import java.nio.ByteBuffer;
import java.util.Optional;

import io.durablebatch.execution.Checkpoint;

/**
 * The checkpoint of a chunk step whose writer is restartable: the reader's and the writer's
 * positions, committed together. A format byte, then each as a length-prefixed byte string. A step
 * with a transactional writer commits the reader's checkpoint unchanged.
 */
record StepCheckpoint(Checkpoint reader, Checkpoint writer) {

    private static final byte FORMAT = (byte) 0xC2;

    Checkpoint encode() {
        byte[] readerBytes = reader.bytes();
        byte[] writerBytes = writer.bytes();
        return Checkpoint.of(ByteBuffer.allocate(1 + 2 * Integer.BYTES + readerBytes.length + writerBytes.length)
                .put(FORMAT).putInt(readerBytes.length).put(readerBytes).putInt(writerBytes.length).put(writerBytes)
                .array());
    }

    static StepCheckpoint decode(Checkpoint checkpoint) {
        byte[] bytes = checkpoint.bytes();
        try {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            if (buffer.get() != FORMAT) {
                throw new IllegalArgumentException("format byte " + bytes[0]);
            }
            Checkpoint reader = Checkpoint.of(slice(buffer));
            Checkpoint writer = Checkpoint.of(slice(buffer));
            if (buffer.hasRemaining()) {
                throw new IllegalArgumentException(buffer.remaining() + " trailing bytes");
            }
            return new StepCheckpoint(reader, writer);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the step checkpoint " + checkpoint + " does not hold a reader and a "
                    + "writer position (was the writer made restartable without a new revision?): " + e.getMessage(), e);
        }
    }

    private static byte[] slice(ByteBuffer buffer) {
        int length = buffer.getInt();
        if (length < 0 || length > buffer.remaining()) {
            throw new IllegalArgumentException("length " + length + " exceeds the checkpoint");
        }
        byte[] part = new byte[length];
        buffer.get(part);
        return part;
    }

    @Override
    public String toString() {
        return "StepCheckpoint[reader=" + reader + ", writer=" + writer + "]";
    }

    /** The reader's part of a resumed step checkpoint. */
    static Optional<Checkpoint> readerPart(Optional<Checkpoint> checkpoint, boolean restartableWriter) {
        return restartableWriter ? checkpoint.map(c -> decode(c).reader()) : checkpoint;
    }

    /** The writer's part of a resumed step checkpoint: none unless the writer is restartable. */
    static Optional<Checkpoint> writerPart(Optional<Checkpoint> checkpoint, boolean restartableWriter) {
        return restartableWriter ? checkpoint.map(c -> decode(c).writer()) : Optional.empty();
    }
}
