package io.durablebatch.jakarta.runtime.execution;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;

import jakarta.batch.api.chunk.CheckpointAlgorithm;
import jakarta.batch.api.chunk.ItemProcessor;
import jakarta.batch.api.chunk.ItemReader;
import jakarta.batch.api.chunk.ItemWriter;

import org.jboss.logging.Logger;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.jakarta.runtime.artifact.BatchArtifacts;
import io.durablebatch.jakarta.runtime.artifact.CurrentArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslChunk;

/**
 * The reader, processor and writer of one chunk step attempt, resolved together when the kernel
 * asks for the attempt's reader, and what the kernel is given in their place: a kernel reader whose
 * {@code open} opens the Jakarta reader and then the writer from the {@link ChunkCheckpoint} being
 * resumed, and whose {@code checkpoint} (which the kernel asks once the chunk was written, in the
 * chunk's transaction) asks the reader's and then the writer's {@code checkpointInfo()}; a kernel
 * processor and writer that call theirs. Each call runs with its artifact current, and an exception
 * of one is kept as the step's exception.
 */
final class ChunkRun {

    private static final Logger LOG = Logger.getLogger(ChunkRun.class);

    /** An artifact and what is current while it is called. */
    private record Part<T>(BatchArtifacts.Resolved<T> handle, CurrentArtifact current) {
        T get() {
            return handle.get();
        }
    }

    private final StepRun step;
    private final Part<ItemReader> reader;
    private final Optional<Part<ItemProcessor>> processor;
    private final Part<ItemWriter> writer;
    private final Optional<Part<CheckpointAlgorithm>> algorithm;

    private ChunkRun(StepRun step, Part<ItemReader> reader, Optional<Part<ItemProcessor>> processor,
            Part<ItemWriter> writer, Optional<Part<CheckpointAlgorithm>> algorithm) {
        this.step = step;
        this.reader = reader;
        this.processor = processor;
        this.writer = writer;
        this.algorithm = algorithm;
    }

    /** Resolves the chunk's artifacts, reader first; those resolved are released if a later one fails. */
    static ChunkRun resolve(StepRun step, JslChunk chunk, BatchArtifacts artifacts) throws Exception {
        Part<ItemReader> reader = part(step, chunk.reader(), ItemReader.class, artifacts);
        Optional<Part<ItemProcessor>> processor = Optional.empty();
        Optional<Part<ItemWriter>> writer = Optional.empty();
        try {
            if (chunk.processor().isPresent()) {
                processor = Optional.of(part(step, chunk.processor().get(), ItemProcessor.class, artifacts));
            }
            writer = Optional.of(part(step, chunk.writer(), ItemWriter.class, artifacts));
            Optional<Part<CheckpointAlgorithm>> algorithm = Optional.empty();
            if (chunk.checkpointAlgorithm().isPresent()) {
                algorithm = Optional.of(part(step, chunk.checkpointAlgorithm().get(), CheckpointAlgorithm.class,
                        artifacts));
            }
            return new ChunkRun(step, reader, processor, writer.get(), algorithm);
        } catch (Exception | Error e) {
            reader.handle().close();
            processor.ifPresent(p -> p.handle().close());
            writer.ifPresent(w -> w.handle().close());
            throw e;
        }
    }

    private static <T> Part<T> part(StepRun step, JslArtifact artifact, Class<T> type, BatchArtifacts artifacts)
            throws Exception {
        CurrentArtifact current = new CurrentArtifact(artifact.location().toString(), step.context().jobContext(),
                step.context(), step.scope().enter(artifact.properties()).properties());
        return new Part<>(artifacts.resolve(step.scope().resolve(artifact.ref()), type, current), current);
    }

    /** The attempt's kernel reader. */
    io.durablebatch.item.ItemReader<Object> reader() {
        return new Reader();
    }

    /** The attempt's kernel processor, if the chunk has one. */
    Optional<io.durablebatch.item.ItemProcessor<Object, Object>> processor() {
        return processor.map(part -> item -> called(part.current(), () -> part.get().processItem(item)));
    }

    /**
     * The attempt's {@code <checkpoint-algorithm>} as the kernel's, each call with the artifact
     * current; the plan asks for it only with {@code checkpoint-policy="custom"}.
     */
    io.durablebatch.job.CheckpointAlgorithm checkpointAlgorithm() {
        Part<CheckpointAlgorithm> part = algorithm.orElseThrow(
                () -> new IllegalStateException(step.where() + " has no <checkpoint-algorithm>"));
        return new io.durablebatch.job.CheckpointAlgorithm() {
            @Override
            public int checkpointTimeout() throws Exception {
                return called(part.current(), () -> part.get().checkpointTimeout());
            }

            @Override
            public void beginCheckpoint() throws Exception {
                called(part.current(), () -> {
                    part.get().beginCheckpoint();
                    return null;
                });
            }

            @Override
            public boolean isReadyToCheckpoint() throws Exception {
                return called(part.current(), () -> part.get().isReadyToCheckpoint());
            }

            @Override
            public void endCheckpoint() throws Exception {
                called(part.current(), () -> {
                    part.get().endCheckpoint();
                    return null;
                });
            }
        };
    }

    /** Releases the artifacts, once the attempt ended. */
    void release() {
        reader.handle().close();
        processor.ifPresent(p -> p.handle().close());
        writer.handle().close();
        algorithm.ifPresent(a -> a.handle().close());
    }

    /** The attempt's kernel writer. */
    io.durablebatch.item.ItemWriter<Object> writer() {
        return items -> called(writer.current(), () -> {
            // Jakarta's writeItems takes a List<Object>; the kernel's list is the chunk's own
            @SuppressWarnings("unchecked")
            List<Object> written = (List<Object>) items;
            writer.get().writeItems(written);
            return null;
        });
    }

    private <T> T called(CurrentArtifact current, CurrentArtifact.Work<T> work) throws Exception {
        try {
            return current.call(work);
        } catch (Exception e) {
            step.context().failedWith(e);
            throw e;
        }
    }

    private final class Reader implements io.durablebatch.item.ItemReader<Object> {
        /** One read, made once: the kernel reads every item through it. */
        private final CurrentArtifact.Work<Object> readItem = () -> reader.get().readItem();
        private boolean opened;

        @Override
        public void open(Optional<Checkpoint> checkpoint) throws Exception {
            Optional<ChunkCheckpoint> resumed = checkpoint.flatMap(ChunkCheckpoint::decode);
            resumed.ifPresent(c -> {
                if (step.context() instanceof ChunkStepContext chunkContext) {
                    chunkContext.resumed(c.persistentUserData());
                }
            });
            opened = true;
            Serializable readerInfo = resumed.map(ChunkCheckpoint::reader).orElse(null);
            Serializable writerInfo = resumed.map(ChunkCheckpoint::writer).orElse(null);
            called(reader.current(), () -> {
                reader.get().open(readerInfo);
                return null;
            });
            called(writer.current(), () -> {
                writer.get().open(writerInfo);
                return null;
            });
        }

        @Override
        public Object read() throws Exception {
            return called(reader.current(), readItem);
        }

        @Override
        public Checkpoint checkpoint() {
            try {
                Serializable readerInfo = called(reader.current(), () -> reader.get().checkpointInfo());
                Serializable writerInfo = called(writer.current(), () -> writer.get().checkpointInfo());
                return new ChunkCheckpoint(readerInfo, writerInfo, step.context().getPersistentUserData())
                        .encode(step.where());
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("checkpointInfo() of " + step.where() + " failed: " + e, e);
            }
        }

        /**
         * A failed attempt keeps the reader's and writer's committed positions and the persistent user
         * data as it is now: the specification stores the user data when the step ends, failed or not.
         */
        @Override
        public Optional<Checkpoint> checkpointAtFailure(Optional<Checkpoint> committed) {
            Optional<ChunkCheckpoint> positions = committed.flatMap(ChunkCheckpoint::decode);
            return Optional.of(new ChunkCheckpoint(positions.map(ChunkCheckpoint::reader).orElse(null),
                    positions.map(ChunkCheckpoint::writer).orElse(null), step.context().getPersistentUserData())
                    .encode(step.where()));
        }

        /**
         * Closes the reader, then the writer. A retry with rollback closes them and opens them again
         * at the last checkpoint, as Jakarta Batch does, so the artifacts are released only once the
         * attempt ended ({@link #release}).
         */
        @Override
        public void close() throws Exception {
            if (opened) {
                opened = false;
                closing(reader.current(), () -> reader.get().close());
                closing(writer.current(), () -> writer.get().close());
            }
        }

        private void closing(CurrentArtifact current, Closing close) {
            try {
                current.call(() -> {
                    close.close();
                    return null;
                });
            } catch (Exception e) {
                LOG.warnf(e, "close() of %s failed", current.where());
            }
        }
    }

    @FunctionalInterface
    private interface Closing {
        void close() throws Exception;
    }
}
