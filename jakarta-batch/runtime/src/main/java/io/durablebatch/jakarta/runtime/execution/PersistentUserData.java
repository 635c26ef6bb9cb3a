package io.durablebatch.jakarta.runtime.execution;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Optional;

import io.durablebatch.execution.Checkpoint;

/**
 * A step's persistent user data ({@code StepContext.setPersistentUserData}) as the repository
 * keeps it: Java-serialized behind a short header, so that it is told apart from any other bytes a
 * checkpoint holds. A batchlet step keeps it as its tasklet's whole checkpoint; a step whose
 * checkpoint holds more (a chunk step's reader and writer positions) keeps these bytes as one part
 * of it. Bounded by what a checkpoint may hold ({@link Checkpoint#MAX_LENGTH}).
 */
public final class PersistentUserData {

    /** "JPUD" and the format's version. */
    private static final byte[] HEADER = { 'J', 'P', 'U', 'D', 1 };

    /** The largest serialized form kept: a checkpoint's bound, less the header. */
    public static final int MAX_SERIALIZED_LENGTH = Checkpoint.MAX_LENGTH - HEADER.length;

    private PersistentUserData() {
    }

    /**
     * The bytes that keep {@code data} (null included: set back to nothing) of step {@code step}.
     *
     * @throws IllegalArgumentException if it does not serialize, or serializes to more than
     *         {@link #MAX_SERIALIZED_LENGTH} bytes
     */
    public static byte[] encode(Serializable data, String step) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        bytes.writeBytes(HEADER);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(data);
        } catch (IOException e) {
            throw new IllegalArgumentException("the persistent user data of step '" + step + "' cannot be kept: it "
                    + "does not serialize (" + e + ")", e);
        }
        int length = bytes.size() - HEADER.length;
        if (length > MAX_SERIALIZED_LENGTH) {
            throw new IllegalArgumentException("the persistent user data of step '" + step + "' cannot be kept: it "
                    + "serializes to " + length + " bytes, and at most " + MAX_SERIALIZED_LENGTH + " are kept");
        }
        return bytes.toByteArray();
    }

    /** {@link #encode} as a step's whole checkpoint. */
    public static Checkpoint checkpoint(Serializable data, String step) {
        return Checkpoint.of(encode(data, step));
    }

    /** Whether {@code bytes} are persistent user data, as {@link #encode} writes it. */
    public static boolean holdsUserData(byte[] bytes) {
        return bytes.length >= HEADER.length && Arrays.equals(bytes, 0, HEADER.length, HEADER, 0, HEADER.length);
    }

    /**
     * The data a step's checkpoint keeps, or null when it keeps none: the one read path, for the
     * step's restart and for {@code StepExecution.getPersistentUserData} of every step kind. A step
     * kind whose checkpoint keeps the data as one part of more finds that part here.
     */
    public static Serializable of(Optional<Checkpoint> checkpoint) {
        if (checkpoint.isEmpty()) {
            return null;
        }
        if (holdsUserData(checkpoint.get().bytes())) {
            return decode(checkpoint.get().bytes());
        }
        return ChunkCheckpoint.decode(checkpoint.get()).map(ChunkCheckpoint::persistentUserData).orElse(null);
    }

    /**
     * The data {@code bytes} keep, its classes loaded by the thread's context class loader (the
     * application's).
     *
     * @throws IllegalStateException if they are no persistent user data, or a class of it is gone
     */
    public static Serializable decode(byte[] bytes) {
        if (!holdsUserData(bytes)) {
            throw new IllegalStateException("these " + bytes.length + " bytes are no persistent user data");
        }
        ByteArrayInputStream in = new ByteArrayInputStream(bytes, HEADER.length, bytes.length - HEADER.length);
        try (ObjectInputStream objects = new ApplicationObjectInputStream(in)) {
            return (Serializable) objects.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("the persistent user data cannot be read back: " + e, e);
        }
    }
}
