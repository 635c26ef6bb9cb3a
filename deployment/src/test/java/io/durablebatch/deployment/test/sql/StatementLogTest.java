package io.durablebatch.deployment.test.sql;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Every repository statement is logged once at DEBUG, in category {@code io.durablebatch.sql}, by
 * its name and as the exact text that runs (the table prefix and the lease terms filled in), when
 * the store that runs it is built: not each time it runs.
 */
class StatementLogTest {

    /** The statement a chunk's progress runs, by its name in the catalogue. */
    private static final String PROGRESS = "LifecycleUpdates.progressObservingStop[step_execution]";

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp()
            .overrideConfigKey("quarkus.log.category.\"io.durablebatch.sql\".level", "DEBUG")
            .setLogRecordPredicate(record -> "io.durablebatch.sql".equals(record.getLoggerName()))
            .assertLogRecords(records -> {
                List<Object[]> logged = records.stream().filter(r -> r.getLevel().intValue() == Level.FINE.intValue())
                        .map(LogRecord::getParameters).toList();
                List<String> progress = logged.stream().filter(statement -> PROGRESS.equals(String.valueOf(statement[0])))
                        .map(statement -> String.valueOf(statement[1])).toList();
                assertEquals(1, progress.size(), "logged once, however often it runs, among " + logged.size());
                assertTrue(progress.get(0).startsWith("UPDATE dbatch_step_execution\nSET checkpoint"), progress.get(0));
                assertTrue(progress.get(0).contains("statement_timestamp() + interval '30000 milliseconds'"),
                        progress.get(0));
                assertTrue(logged.stream().map(statement -> String.valueOf(statement[1]))
                        .noneMatch(sql -> sql.contains("{p}") || sql.contains("{lease}")), "every template filled in");
            });

    @Inject
    KernelRepository repository;

    @Test
    void aStatementIsLoggedWhenItsStoreIsBuiltNotWhenItRuns() {
        assertTrue(Logger.getLogger(RepositoryTables.STATEMENTS).isDebugEnabled(),
                "the category the statements are logged in is the documented one");
        // two chunks' progress: the statement runs twice, and is logged once (checked above, once
        // the application has stopped)
        StepCounters counters = new StepCounters(10, 10, 0, 0, 0, 0, 1, 0);
        StepExecution step = tx(() -> {
            JobInstanceId instance = repository.selectOrCreateJobInstance(freshKey("statementLog")).instance().id();
            JobExecution execution = repository.createJobExecution(JobExecutionRequest.of(instance));
            StepExecution created = repository.createStepExecution(execution.id(), StepName.of("load"));
            return repository.transitionStepExecution(created.id(), created.version(),
                    LifecycleTransition.to(ExecutionStatus.STARTED, Instant.now()));
        });
        ExecutionVersion once = tx(() -> repository.recordStepProgress(step.id(), step.version(), Optional.empty(),
                counters, Instant.now())).version();
        ExecutionVersion twice = tx(() -> repository.recordStepProgress(step.id(), once, Optional.empty(),
                counters.plus(counters), Instant.now())).version();
        assertEquals(once.value() + 1, twice.value());
    }
}
