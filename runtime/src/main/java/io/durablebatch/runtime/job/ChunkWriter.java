package io.durablebatch.runtime.job;

import java.util.List;
import java.util.Optional;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.ItemWriter;
import io.durablebatch.item.RestartableItemWriter;

/**
 * The writer of one step attempt. A transactional writer needs nothing more: its writes roll back
 * with the chunk. A {@link RestartableItemWriter} writes outside the transaction, so after any
 * attempt that did not commit (a retried, probed or failed chunk) it is reopened at the position of
 * the last committed chunk before it writes again, which discards the uncommitted output.
 */
final class ChunkWriter implements AutoCloseable {

    private final ItemWriter<Object> writer;
    private final RestartableItemWriter<Object> restartable;
    private Optional<Checkpoint> committed;
    private boolean uncommittedOutput;

    @SuppressWarnings("unchecked")
    ChunkWriter(ItemWriter<?> writer) {
        this.writer = (ItemWriter<Object>) writer;
        this.restartable = writer instanceof RestartableItemWriter<?> r ? (RestartableItemWriter<Object>) r : null;
    }

    boolean isRestartable() {
        return restartable != null;
    }

    /** Opens a restartable writer at its part of the step checkpoint being resumed. */
    void open(Optional<Checkpoint> writerCheckpoint) throws Exception {
        committed = writerCheckpoint;
        if (restartable != null) {
            restartable.open(writerCheckpoint);
        }
    }

    /** Starts an attempt to write a chunk: discards what an attempt that did not commit wrote. */
    void beginAttempt() throws Exception {
        if (uncommittedOutput && restartable != null) {
            restartable.open(committed);
        }
        uncommittedOutput = false;
    }

    void write(List<Object> items) throws Exception {
        uncommittedOutput = true;
        writer.write(items);
    }

    /** The step checkpoint to commit with the chunk: the reader's, with the writer's next to it. */
    Checkpoint stepCheckpoint(Checkpoint readerCheckpoint) {
        return restartable == null ? readerCheckpoint
                : new StepCheckpoint(readerCheckpoint, restartable.checkpoint()).encode();
    }

    /** The chunk whose step checkpoint is {@code stepCheckpoint} committed. */
    void committed(Checkpoint stepCheckpoint) {
        committed = StepCheckpoint.writerPart(Optional.of(stepCheckpoint), isRestartable());
        uncommittedOutput = false;
    }

    @Override
    public void close() throws Exception {
        if (restartable != null) {
            restartable.close();
        }
    }
}
