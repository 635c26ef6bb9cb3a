package io.durablebatch.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.jboss.logging.MDC;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.durablebatch.context.JobContext;
import io.durablebatch.context.PartitionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.partition.PartitionPlanEntry;

/**
 * The log context names the execution and step a thread runs, and gives the thread back clean: a
 * step restores its job's fields on the job's thread, and leaves nothing on a worker's thread, even
 * one that inherited the fields of another execution from the thread that created it.
 */
class LogContextTest {

    private final LogContext context = new LogContext();

    @AfterEach
    void clear() {
        MDC.clear();
    }

    @Test
    void aJobsFieldsAreRemovedWhenItEnds() {
        try (var job = context.job(execution(5), null)) {
            assertEquals(Map.of("jobName", "orders", "jobExecutionId", "5"), fields());
        }
        assertEquals(Map.of(), fields());
    }

    @Test
    void aStepOnItsJobsThreadLeavesTheJobsFields() {
        try (var job = context.job(execution(5), null)) {
            try (var step = context.step(new ExecutionObserver.ObservedStep(step(5, 12, Optional.empty()), null, false))) {
                assertEquals(Map.of("jobName", "orders", "jobExecutionId", "5", "stepName", "load",
                        "stepExecutionId", "12"), fields());
            }
            assertEquals(Map.of("jobName", "orders", "jobExecutionId", "5"), fields());
        }
        assertEquals(Map.of(), fields());
    }

    @Test
    void aWorkersThreadIsLeftWithNothingEvenWhatItInherited() {
        // a pool thread created by another execution's thread inherits its fields
        MDC.put("jobName", "other");
        MDC.put("jobExecutionId", "3");
        MDC.put("stepName", "stale");
        PartitionContext partition = new PartitionContext(PartitionPlanEntry.of("p7",
                "input".getBytes(StandardCharsets.UTF_8)), 7, StepExecutionId.of(11));
        try (var step = context.step(new ExecutionObserver.ObservedStep(step(5, 13, Optional.of(partition)), null, false))) {
            assertEquals(Map.of("jobName", "orders", "jobExecutionId", "5", "stepName", "load",
                    "stepExecutionId", "13", "partition", "p7"), fields());
        }
        assertEquals(Map.of(), fields());
        assertNull(MDC.get("partition"));
    }

    private static Map<String, Object> fields() {
        return new TreeMap<>(MDC.getMap());
    }

    private static JobExecution execution(long id) {
        return new JobExecution(JobExecutionId.of(id), JobInstanceId.of(1), new JobName("orders"), 1,
                ExecutionStatus.STARTED, ExitStatus.EXECUTING, Optional.empty(), Optional.empty(),
                ExecutionParameters.NONE, Instant.now(), Optional.of(Instant.now()), Optional.empty(), Instant.now(),
                ExecutionVersion.INITIAL);
    }

    private static StepContext step(long execution, long step, Optional<PartitionContext> partition) {
        return new StepContext() {
            @Override
            public JobName jobName() {
                return new JobName("orders");
            }

            @Override
            public JobParameters parameters() {
                throw new UnsupportedOperationException();
            }

            @Override
            public JobInstanceId jobInstanceId() {
                return JobInstanceId.of(1);
            }

            @Override
            public JobExecutionId jobExecutionId() {
                return JobExecutionId.of(execution);
            }

            @Override
            public StepExecutionId stepExecutionId() {
                return StepExecutionId.of(step);
            }

            @Override
            public StepName stepName() {
                return new StepName("load");
            }

            @Override
            public String nodeId() {
                return "load";
            }

            @Override
            public boolean isRestart() {
                return false;
            }

            @Override
            public Optional<PartitionContext> partition() {
                return partition;
            }

            @Override
            public JobContext job() {
                throw new UnsupportedOperationException();
            }

            @Override
            public Optional<Checkpoint> checkpoint() {
                return Optional.empty();
            }

            @Override
            public void saveCheckpoint(Checkpoint checkpoint) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void setExitStatus(ExitStatus exitStatus) {
                throw new UnsupportedOperationException();
            }
        };
    }
}
