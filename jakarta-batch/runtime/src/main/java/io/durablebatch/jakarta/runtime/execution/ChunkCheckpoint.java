package io.durablebatch.jakarta.runtime.execution;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Optional;

import io.durablebatch.execution.Checkpoint;

/**
 * What a JSL chunk step commits with each chunk, as the kernel's one opaque checkpoint: the
 * reader's and the writer's {@code checkpointInfo()} and the step's persistent user data, each a
 * {@link Serializable} or null. A format byte, then the three as Java serialization. The whole is
 * bounded by {@link Checkpoint#MAX_LENGTH}, as every kernel checkpoint is, since it travels with
 * every chunk commit.
 */
public record ChunkCheckpoint(Serializable reader, Serializable writer, Serializable persistentUserData) {

    /** 'C': told apart from a batchlet step's checkpoint, which is {@link PersistentUserData}'s "JPUD". */
    private static final byte FORMAT = 'C';

    /**
     * The kernel checkpoint holding these.
     *
     * @param step the step, for the message ("step load of job nightly")
     * @throws IllegalStateException naming the step if one is not serializable or the whole exceeds
     *         the bound
     */
    Checkpoint encode(String step) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(FORMAT);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(reader);
            out.writeObject(writer);
            out.writeObject(persistentUserData);
        } catch (IOException e) {
            throw new IllegalStateException("the checkpoint of " + step + " cannot be serialized (the reader's "
                    + "and writer's checkpointInfo() and the persistent user data must be Serializable): " + e, e);
        }
        if (bytes.size() > Checkpoint.MAX_LENGTH) {
            throw new IllegalStateException("the checkpoint of " + step + " is " + bytes.size() + " bytes "
                    + "serialized (the reader's and writer's checkpointInfo() and the persistent user data), more "
                    + "than the " + Checkpoint.MAX_LENGTH + " bytes a checkpoint may hold: keep positions, not data");
        }
        return Checkpoint.of(bytes.toByteArray());
    }

    /** The chunk checkpoint a kernel checkpoint holds, or empty if it is none (another step kind's). */
    static Optional<ChunkCheckpoint> decode(Checkpoint checkpoint) {
        byte[] bytes = checkpoint.bytes();
        if (bytes.length == 0 || bytes[0] != FORMAT) {
            return Optional.empty();
        }
        try (ObjectInputStream in = new ApplicationObjectInputStream(new ByteArrayInputStream(bytes, 1, bytes.length - 1))) {
            return Optional.of(new ChunkCheckpoint((Serializable) in.readObject(), (Serializable) in.readObject(),
                    (Serializable) in.readObject()));
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw new IllegalStateException("the checkpoint of a chunk step cannot be read back: " + e, e);
        }
    }

}
