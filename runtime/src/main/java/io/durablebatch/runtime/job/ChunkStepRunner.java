package io.durablebatch.runtime.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;

import org.jboss.logging.Logger;

import io.durablebatch.context.StepContext;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.item.ItemProcessor;
import io.durablebatch.item.ItemReader;
import io.durablebatch.job.CheckpointAlgorithm;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.listener.ChunkEvent;
import io.durablebatch.runtime.metrics.KernelMetrics;
import io.durablebatch.runtime.sql.TransientFailures;

/**
 * Runs a chunk-oriented step attempt. Each chunk: read up to commit-interval items (outside any
 * transaction, skipping skippable read failures), then in ONE new transaction process them, write
 * them and record the reader's checkpoint with the counters (one metadata statement). A transient
 * failure re-runs that transaction with the same items; a skippable write failure is located by
 * probing each item in a rolled-back transaction, after which the chunk commits once without it.
 * <p>
 * The step's retry policy retries exceptions of its own code: in place (the same read, process or
 * write again), or by rolling the chunk back, reopening the reader at the last committed chunk and
 * committing the rolled-back chunk's reads one per chunk. Chunks end after the commit interval, the
 * time limit or where the step's checkpoint algorithm says ({@link ChunkEnds}). None of these
 * policies adds a statement to a chunk that does not fail.
 */
final class ChunkStepRunner {

    private static final Logger LOG = Logger.getLogger(ChunkStepRunner.class);

    /** The items of one chunk, as read, the read failures it skipped, and whether the input ended. */
    private record ReadChunk(List<Object> items, List<Exception> readSkips, boolean endOfInput) {

        /** The reads that returned an item or were skipped. */
        long reads() {
            return items.size() + readSkips.size();
        }
    }

    /** The reader, processor and writer of one step attempt. */
    private record Items(ItemReader<Object> reader, Optional<ItemProcessor<Object, Object>> processor,
            ChunkWriter writer) {
    }

    /**
     * What the chunk's transaction needs of the step's retries: the attempt's user retries, whether the
     * chunk is one of those committed item by item after a rollback, the rollbacks before it that no
     * committed chunk counted yet, and its transaction's timeout (seconds, 0 for the default).
     */
    private record ChunkRun(ChunkRetries retries, boolean oneByOne, long rolledBackBefore, int timeout,
            boolean wholeWrites) {
    }

    /** What a committed chunk transaction recorded. */
    private record Committed(StepExecution recorded, StepCounters total, SkipTally skips) {
    }

    /** A skippable write failure: the chunk must be scanned item by item. */
    private static final class WriteScanRequired extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient List<Object> outputs;

        WriteScanRequired(Exception cause, List<Object> outputs) {
            super(cause);
            this.outputs = outputs;
        }
    }

    private final ProgressLog.Factory progressLogs;
    private final RunningStepInputs inputs;
    /** The failures a test armed; {@code null} unless the test library is on the classpath. */
    private final ChunkFaults faults;
    private final KernelMetrics metrics;

    ChunkStepRunner(ProgressLog.Factory progressLogs, RunningStepInputs inputs, ChunkFaults faults, KernelMetrics metrics) {
        this.progressLogs = progressLogs;
        this.inputs = inputs;
        this.faults = faults;
        this.metrics = metrics;
    }

    @SuppressWarnings("unchecked")
    StepOutcome run(StepAttempt attempt) {
        ChunkStep<Object, Object> step = (ChunkStep<Object, Object>) attempt.step();
        String name = step.name().value();
        long[] rollbacks = { 0 };
        UnitOfWorkRetry retry = new UnitOfWorkRetry("chunk of step '" + name + "'", step.retry(), failure -> {
            rollbacks[0]++;
            LOG.debugf("Retrying a chunk of step '%s' after a transient failure: %s", name, failure);
        });
        ItemReader<Object> reader;
        ChunkWriter writer;
        CheckpointAlgorithm algorithm;
        Items items;
        int commitInterval;
        SkipTally skips;
        ChunkRetries retries;
        Duration timeLimit;
        try {
            // the attempt's limits, resolved once: its chunks read them, never ask for them again
            commitInterval = step.commitInterval(attempt.context());
            skips = new SkipTally(name, step.skipLimits(), step.skipPolicy(attempt.context()));
            retries = new ChunkRetries(name, step.retryPolicy(attempt.context()));
            timeLimit = step.checkpointPolicy(attempt.context()).timeLimit().orElse(null);
            reader = (ItemReader<Object>) step.reader().apply(attempt.context());
            writer = new ChunkWriter(step.writer().apply(attempt.context()));
            items = new Items(reader, step.processor()
                    .map(factory -> (ItemProcessor<Object, Object>) factory.apply(attempt.context())), writer);
            algorithm = step.checkpointPolicy().algorithm().isPresent()
                    ? step.checkpointPolicy().algorithm().get().apply(attempt.context())
                    : null;
        } catch (RuntimeException | Error e) {
            return attempt.fail(e, attempt.counters());
        }
        try {
            Optional<Checkpoint> readerAt = StepCheckpoint.readerPart(attempt.resumeFrom(), writer.isRestartable());
            reader.open(readerAt);
            writer.open(StepCheckpoint.writerPart(attempt.resumeFrom(), writer.isRestartable()));
            // the checkpoint it was opened at, not the reader's own: asking a reader costs (Jakarta's checkpointInfo)
            LOG.debugf("Step '%s' (step execution %s) opened its reader at %s", name, attempt.snapshot().id(),
                    readerAt.map(Checkpoint::toString).orElse("its start"));
        } catch (Exception | Error e) {
            close(step, reader, writer);
            return attempt.fail(e, attempt.counters());
        }
        OptionalLong size = reader.size();
        ProgressLog progress = progressLogs.start(attempt, size);
        inputs.opened(attempt.snapshot().id(), size);
        KernelMetrics.ChunkMeter meter = metrics.chunks(attempt.context().jobName().value(), name);
        ItemCallbacks listened = attempt.callbacks().items();
        ChunkEnds ends = new ChunkEnds(commitInterval, timeLimit, algorithm);
        Optional<Checkpoint> lastCommitted = attempt.resumeFrom();
        // after a retry with rollback: how many reads are committed one per chunk, and the rollbacks
        // not yet counted in a committed chunk
        long oneByOne = 0;
        long rolledBack = 0;
        try {
            while (true) {
                if (attempt.control().stopRequested()) {
                    return attempt.stop();
                }
                ChunkEnds chunkEnds = oneByOne > 0 ? ChunkEnds.ONE : ends;
                int timeout = chunkEnds.begin();
                SkipTally chunkSkips = skips.copy();
                ReadChunk chunk;
                try {
                    chunk = read(reader, chunkEnds, chunkSkips, retries, oneByOne > 0, attempt, listened);
                } catch (ReadRetry again) {
                    // the chunk rolls back before its transaction began: its listeners hear of it all the same
                    attempt.callbacks().onChunkError(attempt.callbacks().chunk(attempt.context(), attempt.counters(), 0),
                            again.getCause());
                    rolledBack++;
                    oneByOne = Math.max(oneByOne, again.reads);
                    reopen(reader, writer, lastCommitted);
                    continue;
                } catch (Exception | Error failure) {
                    // the chunk failed before its transaction began: its listeners hear of it all the same
                    attempt.callbacks().onChunkError(attempt.callbacks().chunk(attempt.context(), attempt.counters(), 0),
                            failure);
                    throw failure;
                }
                rollbacks[0] = 0;
                StepCounters before = attempt.counters();
                ChunkEvent run = attempt.callbacks().chunk(attempt.context(), before, chunk.items().size());
                long began = System.nanoTime();
                Committed committed;
                try {
                    committed = commit(attempt, step, items, chunk, run, chunkSkips, retry, rollbacks,
                            new ChunkRun(retries, oneByOne > 0, rolledBack, timeout,
                                    step.writeSkips() == ChunkStep.WriteSkips.WHOLE_WRITE));
                } catch (ChunkRetries.RetryWithRollback again) {
                    LOG.debugf("Step '%s' rolls a chunk back to retry it item by item: %s", name, again.getCause());
                    rolledBack += rollbacks[0];
                    oneByOne = Math.max(oneByOne, chunk.reads());
                    reopen(reader, writer, lastCommitted);
                    continue;
                }
                rolledBack = 0;
                oneByOne = Math.max(0, oneByOne - chunk.reads());
                StepCounters after = committed.total();
                meter.committed(after.readCount() - before.readCount(), after.writeCount() - before.writeCount(),
                        after.skipCount() - before.skipCount(), System.nanoTime() - began);
                attempt.committed(committed.recorded(), committed.total());
                lastCommitted = committed.recorded().checkpoint();
                skips = committed.skips();
                chunkEnds.end();
                attempt.callbacks().afterChunk(run, committed.total());
                progress.chunkCommitted(committed.total());
                if (chunk.endOfInput()) {
                    progress.ended(committed.total());
                    summariseSkips(attempt, skips, committed.total());
                    return StepOutcome.of(committed.recorded());
                }
            }
        } catch (Exception | Error failure) {
            // an Error of user code (an assertion, a missing class, a stack overflow) fails the step
            // cleanly too: nothing may leave the attempt active behind a live process
            return attempt.fail(failure, attempt.counters().plus(rolledBack(rollbacks[0] + rolledBack)),
                    checkpointAtFailure(step, reader, writer, lastCommitted));
        } finally {
            inputs.closed(attempt.snapshot().id());
            close(step, reader, writer);
        }
    }

    /**
     * A retry with rollback ends the chunk's reads: the reader is reopened at the last committed
     * chunk, so its next reads are those of the rolled-back chunk again.
     */
    private static void reopen(ItemReader<Object> reader, ChunkWriter writer, Optional<Checkpoint> lastCommitted)
            throws Exception {
        reader.close();
        reader.open(StepCheckpoint.readerPart(lastCommitted, writer.isRestartable()));
    }

    /**
     * What the failed attempt records as its checkpoint, if the reader gives another than the last
     * committed one ({@link ItemReader#checkpointAtFailure}); empty keeps the committed one.
     */
    private static Optional<Checkpoint> checkpointAtFailure(ChunkStep<?, ?> step, ItemReader<Object> reader,
            ChunkWriter writer, Optional<Checkpoint> committed) {
        boolean restartable = writer.isRestartable();
        Optional<Checkpoint> readerCommitted = StepCheckpoint.readerPart(committed, restartable);
        Optional<Checkpoint> atFailure;
        try {
            atFailure = reader.checkpointAtFailure(readerCommitted);
        } catch (RuntimeException e) {
            LOG.warnf(e, "The reader of step '%s' gave no checkpoint at its failure; the committed one stays",
                    step.name());
            return Optional.empty();
        }
        if (atFailure.isEmpty() || atFailure.equals(readerCommitted)) {
            return Optional.empty();
        }
        if (!restartable) {
            return atFailure;
        }
        // a restartable writer resumes its committed position next to the reader's new one
        return StepCheckpoint.writerPart(committed, true)
                .map(writerPart -> new StepCheckpoint(atFailure.get(), writerPart).encode());
    }

    /** The step's skips at INFO once it completed: how many of each kind, and the first ones. */
    private static void summariseSkips(StepAttempt attempt, SkipTally skips, StepCounters total) {
        if (total.skipCount() > 0) {
            LOG.infof("Step '%s' of job '%s' (execution %s) skipped %d item(s): %d unreadable, %d refused by the "
                    + "processor, %d by the writer; the first: %s", attempt.context().stepName(),
                    attempt.context().jobName(), attempt.context().jobExecutionId(), total.skipCount(),
                    total.readSkipCount(), total.processSkipCount(), total.writeSkipCount(), String.join("; ", skips.first()));
        }
    }

    private static void close(ChunkStep<?, ?> step, ItemReader<Object> reader, ChunkWriter writer) {
        try (ItemReader<Object> closingReader = reader; ChunkWriter closingWriter = writer) {
            // both are closed, the writer first
        } catch (Exception e) {
            LOG.warnf(e, "Closing the reader or writer of step '%s' failed", step.name());
        }
    }

    /** A read failure retried with rollback; {@code reads} counts the chunk's reads, the failed one included. */
    private static final class ReadRetry extends Exception {
        private static final long serialVersionUID = 1L;
        private final long reads;

        ReadRetry(Exception cause, long reads) {
            super(cause);
            this.reads = reads;
        }
    }

    /**
     * Reads a chunk; {@code listened}, the item listeners ({@code null}: none), hear each read outside the try.
     *
     * @throws ReadRetry when a read failure is retried with rollback
     */
    private static ReadChunk read(ItemReader<Object> reader, ChunkEnds ends, SkipTally skips, ChunkRetries retries,
            boolean oneByOne, StepAttempt attempt, ItemCallbacks listened) throws Exception {
        List<Object> items = new ArrayList<>(ends.capacity());
        List<Exception> readSkips = new ArrayList<>();
        boolean end = false;
        long began = ends.timed() ? System.nanoTime() : 0;
        try {
            while (true) {
                if (listened != null) {
                    listened.beforeRead();
                }
                Object item;
                try {
                    item = reader.read();
                } catch (Exception e) {
                    if (listened != null) {
                        listened.onReadError(e);
                    }
                    ChunkRetries.Decision retried = retries.decide(e, oneByOne, skips);
                    if (retried != ChunkRetries.Decision.NONE) {
                        attempt.callbacks().retriedRead(attempt.context(), e);
                        if (retried == ChunkRetries.Decision.ROLLBACK) {
                            throw new ReadRetry(e, items.size() + readSkips.size() + 1L);
                        }
                        continue;
                    }
                    if (skips.trySkip(e, null)) {
                        readSkips.add(e);
                        continue;
                    }
                    throw e;
                }
                if (item == null) {
                    end = true;
                    break;
                }
                if (listened != null) {
                    listened.afterRead(item);
                }
                items.add(item);
                if (ends.reached(items.size(), began)) {
                    break;
                }
            }
        } catch (ReadRetry again) {
            throw again;
        } catch (Exception | Error failure) {
            // the chunk fails before its transaction: the skips it made are told all the same, outside
            // any transaction, as Jakarta Batch tells each skip when it happens
            reportSkippedReads(attempt, readSkips, failure);
            throw failure;
        }
        return new ReadChunk(items, readSkips, end);
    }

    private static void reportSkippedReads(StepAttempt attempt, List<Exception> readSkips, Throwable failure) {
        try {
            for (Exception skipped : readSkips) {
                attempt.callbacks().skippedInRead(attempt.context(), skipped);
            }
        } catch (RuntimeException | Error e) {
            failure.addSuppressed(e);
        }
    }

    /** Commits the chunk; {@code rollbacks} counts its rolled-back transactions, including a final failed one. */
    private Committed commit(StepAttempt attempt, ChunkStep<Object, Object> step, Items items,
            ReadChunk chunk, ChunkEvent run, SkipTally skips, UnitOfWorkRetry retry, long[] rollbacks, ChunkRun how)
            throws Exception {
        ChunkWriter writer = items.writer();
        try {
            Committed committed;
            try {
                committed = commitOrScan(attempt, step, items, chunk, run, skips, retry, rollbacks, how);
            } catch (StepAttempt.AlreadyCommitted earlier) {
                // an earlier try committed this chunk, its acknowledgement was lost; this try rolled
                // back. The skips of that try are not known here: the chunk's skip counts are in its record.
                LOG.debugf("A chunk of step '%s' had committed before its acknowledgement was lost", step.name());
                committed = new Committed(earlier.recorded(), earlier.recorded().counters(), skips);
            }
            committed.recorded().checkpoint().ifPresent(writer::committed);
            return committed;
        } catch (Exception e) {
            rollbacks[0]++;
            throw e;
        }
    }

    private Committed commitOrScan(StepAttempt attempt, ChunkStep<Object, Object> step, Items items,
            ReadChunk chunk, ChunkEvent run, SkipTally skips, UnitOfWorkRetry retry, long[] rollbacks, ChunkRun how)
            throws Exception {
        StepCallbacks callbacks = attempt.callbacks();
        try {
            return retry.call(() -> chunkTransaction(callbacks, run, how.timeout(), () -> writeAndRecord(attempt, items,
                    chunk, run, skips.copy(), Map.of(), rollbacks[0], how)), Committed.class);
        } catch (WriteScanRequired scan) {
            rollbacks[0]++;
            Map<Integer, Exception> failing = scan(items.writer(), scan.outputs, skips.copy());
            LOG.debugf("Step '%s' skips %d item(s) its writer refused", step.name(), failing.size());
            return retry.call(() -> chunkTransaction(callbacks, run, how.timeout(), () -> writeAndRecord(attempt, items,
                    chunk, run, skips.copy(), failing, rollbacks[0], how)), Committed.class);
        }
    }

    /**
     * One try of the chunk's transaction; a try that rolls back is reported to the chunk listeners
     * with its failure, unless an earlier try turned out to have committed the chunk.
     */
    static <T> T chunkTransaction(StepCallbacks callbacks, ChunkEvent run, int timeout, Callable<T> work)
            throws Exception {
        try {
            return Transactions.inNew(timeout, work);
        } catch (StepAttempt.AlreadyCommitted committed) {
            throw committed;
        } catch (Exception | Error failure) {
            boolean carries = failure instanceof WriteScanRequired || failure instanceof ChunkRetries.RetryWithRollback;
            callbacks.onChunkError(run, carries ? failure.getCause() : failure);
            throw failure;
        }
    }

    /**
     * The chunk's transaction: process, write, record progress; the listeners hear of its start and
     * skips. The reader's checkpoint is asked for last, once the writer wrote (as Jakarta Batch asks
     * {@code checkpointInfo}), so a reader may take its position from what the chunk's write did; it
     * has read nothing since the chunk's last item.
     */
    private Committed writeAndRecord(StepAttempt attempt, Items items, ReadChunk chunk, ChunkEvent run,
            SkipTally skips, Map<Integer, Exception> writeSkips, long rollbacks, ChunkRun how) throws Exception {
        ChunkWriter writer = items.writer();
        if (rollbacks > 0) {
            attempt.adoptEarlierCommit();
        }
        StepCallbacks callbacks = attempt.callbacks();
        ItemCallbacks listened = callbacks.items();
        StepContext context = attempt.context();
        callbacks.beforeChunk(run);
        for (Exception unreadable : chunk.readSkips()) {
            callbacks.skippedInRead(context, unreadable);
        }
        writer.beginAttempt();
        List<Object> outputs = new ArrayList<>(chunk.items().size());
        long filtered = 0;
        long processSkips = 0;
        Optional<ItemProcessor<Object, Object>> processor = items.processor();
        for (Object item : chunk.items()) {
            if (listened != null) {
                listened.beforeProcess(item);
            }
            Object output;
            try {
                output = process(processor, item, how, skips, attempt);
            } catch (ProcessSkip skipped) {
                processSkips++;
                callbacks.skippedInProcess(context, item, skipped.failure);
                continue;
            }
            if (listened != null) {
                listened.afterProcess(item, output);
            }
            if (output == null) {
                filtered++;
            } else {
                outputs.add(output);
            }
        }
        List<Object> written = outputs;
        long wholeWriteSkips = 0;
        if (!writeSkips.isEmpty()) {
            written = new ArrayList<>(outputs.size());
            for (int i = 0; i < outputs.size(); i++) {
                Exception refusal = writeSkips.get(i);
                if (refusal == null) {
                    written.add(outputs.get(i));
                } else {
                    skips.trySkip(refusal, outputs.get(i));
                    callbacks.skippedInWrite(context, outputs.get(i), refusal);
                }
            }
        }
        if (!written.isEmpty()) {
            if (listened != null) {
                listened.beforeWrite(written);
            }
            while (true) {
                try {
                    writer.write(written);
                    if (faults != null) {
                        faults.afterWrite(attempt);
                    }
                    break;
                } catch (Exception e) {
                    if (listened != null) {
                        listened.onWriteError(written, e);
                    }
                    ChunkRetries.Decision retried = how.retries().decide(e, how.oneByOne(), skips);
                    if (retried != ChunkRetries.Decision.NONE) {
                        callbacks.retriedWrite(context, written, e);
                        if (retried == ChunkRetries.Decision.ROLLBACK) {
                            throw new ChunkRetries.RetryWithRollback(e);
                        }
                        continue;
                    }
                    if (how.wholeWrites() && !TransientFailures.isTransient(e) && skips.trySkip(e, null)) {
                        // the chunk's write is skipped in place, and the chunk commits without it
                        callbacks.skippedWrite(context, written, e);
                        wholeWriteSkips = 1;
                        break;
                    }
                    if (writeSkips.isEmpty() && !TransientFailures.isTransient(e) && skips.copy().trySkip(e)) {
                        throw new WriteScanRequired(e, outputs);
                    }
                    throw e;
                }
            }
            if (listened != null && wholeWriteSkips == 0) {
                listened.afterWrite(written);
            }
        }
        StepCounters total = attempt.counters().plus(new StepCounters(chunk.items().size(),
                wholeWriteSkips == 0 ? written.size() : 0, filtered, chunk.readSkips().size(), processSkips,
                writeSkips.size() + wholeWriteSkips, 1, rollbacks + how.rolledBackBefore()));
        Checkpoint checkpoint = writer.stepCheckpoint(items.reader().checkpoint());
        StepExecution recorded = chunk.endOfInput() ? attempt.recordCompletion(Optional.of(checkpoint), total)
                : attempt.recordProgress(checkpoint, total);
        return new Committed(recorded, total, skips);
    }

    /** A process failure the step skips, out of {@link #process}. */
    private static final class ProcessSkip extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient Exception failure;

        ProcessSkip(Exception failure) {
            super(null, null, false, false);
            this.failure = failure;
        }
    }

    /**
     * Processes {@code item}, retrying in place a failure the step retries that way; the item
     * listeners hear of each failure first.
     *
     * @throws ProcessSkip when the failure is skipped
     * @throws ChunkRetries.RetryWithRollback when it is retried with rollback
     */
    private static Object process(Optional<ItemProcessor<Object, Object>> processor, Object item,
            ChunkRun how, SkipTally skips, StepAttempt attempt) throws Exception {
        ItemCallbacks listened = attempt.callbacks().items();
        while (true) {
            try {
                return processor.isPresent() ? processor.get().process(item) : item;
            } catch (Exception e) {
                if (listened != null) {
                    listened.onProcessError(item, e);
                }
                ChunkRetries.Decision retried = how.retries().decide(e, how.oneByOne(), skips);
                if (retried != ChunkRetries.Decision.NONE) {
                    attempt.callbacks().retriedProcess(attempt.context(), item, e);
                    if (retried == ChunkRetries.Decision.ROLLBACK) {
                        throw new ChunkRetries.RetryWithRollback(e);
                    }
                    continue;
                }
                if (skips.trySkip(e, item)) {
                    throw new ProcessSkip(e);
                }
                throw e;
            }
        }
    }

    /** Finds the outputs the writer refuses, each probed alone in a rolled-back transaction. */
    private static Map<Integer, Exception> scan(ChunkWriter writer, List<Object> outputs, SkipTally skips)
            throws Exception {
        Map<Integer, Exception> failing = new HashMap<>();
        for (int i = 0; i < outputs.size(); i++) {
            Object output = outputs.get(i);
            try {
                Transactions.probe(() -> {
                    writer.beginAttempt();
                    writer.write(List.of(output));
                    return null;
                });
            } catch (Exception e) {
                if (!skips.trySkip(e)) {
                    throw e;
                }
                failing.put(i, e);
            }
        }
        return failing;
    }

    private static StepCounters rolledBack(long rollbacks) {
        return new StepCounters(0, 0, 0, 0, 0, 0, 0, rollbacks);
    }
}
