package io.durablebatch.runtime.job;

import java.util.Optional;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.TaskletStep;
import io.durablebatch.listener.ChunkEvent;

/**
 * Runs a tasklet step attempt: each call of the tasklet is one new transaction that also records
 * the step's counters and the tasklet's checkpoint (or its completion, after the last call), re-run
 * after a transient failure.
 * Each call is a chunk to the step's chunk listeners.
 */
final class TaskletStepRunner {

    private record Committed(StepExecution recorded, StepCounters total, boolean finished) {
    }

    StepOutcome run(StepAttempt attempt) {
        TaskletStep step = (TaskletStep) attempt.step();
        long[] rollbacks = { 0 };
        UnitOfWorkRetry retry = new UnitOfWorkRetry(UnitOfWorkRetry.TASKLET, ChunkStep.Retry.DEFAULT,
                failure -> rollbacks[0]++);
        attempt.context().openTaskletCheckpoint(attempt.resumeFrom());
        try {
            while (true) {
                if (attempt.control().stopRequested()) {
                    return attempt.stop();
                }
                rollbacks[0] = 0;
                StepCallbacks callbacks = attempt.callbacks();
                ChunkEvent run = callbacks.chunk(attempt.context(), attempt.counters(), 0);
                Committed committed;
                try {
                    committed = retry.call(() -> ChunkStepRunner.chunkTransaction(callbacks, run, 0,
                            () -> call(attempt, step, run, rollbacks[0])), Committed.class);
                } catch (StepAttempt.AlreadyCommitted earlier) {
                    // an earlier try committed this call, its acknowledgement was lost: go on from its record
                    StepExecution recorded = earlier.recorded();
                    committed = new Committed(recorded, recorded.counters(), recorded.status() != ExecutionStatus.STARTED);
                }
                attempt.committed(committed.recorded(), committed.total());
                callbacks.afterChunk(run, committed.total());
                if (committed.finished()) {
                    return StepOutcome.of(committed.recorded());
                }
            }
        } catch (Exception | Error failure) {
            // the checkpoint the tasklet saved before it threw is its own state, kept for the restart
            return attempt.fail(failure, attempt.counters().plus(new StepCounters(0, 0, 0, 0, 0, 0, 0, rollbacks[0] + 1)),
                    attempt.context().checkpoint());
        }
    }

    /** One call of the tasklet and its record, in the caller's transaction. */
    private static Committed call(StepAttempt attempt, TaskletStep step, ChunkEvent run, long rollbacks) throws Exception {
        if (rollbacks > 0) {
            attempt.adoptEarlierCommit();
        }
        attempt.callbacks().beforeChunk(run);
        RepeatStatus status = step.tasklet().execute(attempt.context());
        boolean finished = status != RepeatStatus.CONTINUABLE;
        StepCounters total = attempt.counters().plus(new StepCounters(0, 0, 0, 0, 0, 0, 1, rollbacks));
        Optional<Checkpoint> checkpoint = attempt.context().checkpoint();
        StepExecution recorded = finished ? attempt.recordCompletion(checkpoint, total)
                : attempt.recordProgress(checkpoint, total);
        return new Committed(recorded, total, finished);
    }
}
