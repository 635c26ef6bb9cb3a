package io.durablebatch.deployment.test.operator;

import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.transaction.UserTransaction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.TransactionsBegun;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@link JobOperator#execution}, the read a caller polls: one statement, in the caller's transaction
 * if it has one (it sees what the transaction wrote), and without one in no transaction at all,
 * where the repository's own calls refuse to run ({@code UnitOfWorkRulesTest}).
 */
class ExecutionReadTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp(Jobs.class, TransactionsBegun.class)
            // nothing but the reads may begin a transaction while they are counted
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "1h")
            .overrideConfigKey("quarkus.durable-batch.lease.duration", "3h");

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition quick() {
            return Job.named("read-quick").start(tasklet("only", context -> RepeatStatus.FINISHED)).build();
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    MetadataSql sql;

    @Inject
    TransactionsBegun transactions;

    @Inject
    UserTransaction transaction;

    @Test
    void aReadWithoutATransactionIsOneStatementInNoTransaction() {
        JobExecutionId id = start();
        JobExecution ended = operator.await(id, Duration.ofSeconds(30));

        long statements = sql.statementsExecutedOnThisThread();
        long begun = transactions.count();
        for (int poll = 0; poll < 5; poll++) {
            JobExecution read = operator.execution(id).orElseThrow();
            assertEquals(ended.status(), read.status());
            assertEquals(ended.version(), read.version());
        }
        assertEquals(5, sql.statementsExecutedOnThisThread() - statements, "statements of five reads");
        assertEquals(0, transactions.count() - begun, "transactions of five reads");
        assertEquals(Optional.empty(), operator.execution(JobExecutionId.of(Long.MAX_VALUE)));
    }

    /** An execution that does not run here (it ended) is awaited by reading it: the same read. */
    @Test
    void awaitingAnExecutionThatDoesNotRunHereReadsItInNoTransaction() throws Exception {
        JobExecutionId id = start();
        JobExecution ended = operator.await(id, Duration.ofSeconds(30));
        // its thread lets go of it right after handing its end over
        Thread.sleep(500);

        long statements = sql.statementsExecutedOnThisThread();
        long begun = transactions.count();
        assertEquals(ended.status(), operator.await(id, Duration.ofSeconds(30)).status());
        assertEquals(1, sql.statementsExecutedOnThisThread() - statements, "read from the repository");
        assertEquals(0, transactions.count() - begun, "transactions of the await");
    }

    @Test
    void aReadInTheCallersTransactionJoinsItAndSeesItsUncommittedLaunch() throws Exception {
        transaction.begin();
        JobExecutionId id;
        try {
            id = start();
            long statements = sql.statementsExecutedOnThisThread();
            long begun = transactions.count();

            Optional<JobExecution> launched = operator.execution(id);

            assertEquals(ExecutionStatus.STARTED, launched.orElseThrow().status(), "the caller's own launch");
            assertEquals(1, sql.statementsExecutedOnThisThread() - statements);
            assertEquals(0, transactions.count() - begun, "no transaction of its own");
        } finally {
            transaction.rollback();
        }
        assertEquals(Optional.empty(), operator.execution(id), "rolled back with the caller's transaction");
    }

    @Test
    void aReadInATransactionMarkedForRollbackIsRefused() throws Exception {
        JobExecutionId id = start();
        operator.await(id, Duration.ofSeconds(30));
        transaction.begin();
        try {
            transaction.setRollbackOnly();
            RepositoryException refusal = assertThrows(RepositoryException.class, () -> operator.execution(id));
            assertEquals(RepositoryError.TRANSACTION_REQUIRED, refusal.error(), refusal::getMessage);
            assertTrue(refusal.getMessage().contains("marked for rollback"), refusal::getMessage);
        } finally {
            transaction.rollback();
        }
    }

    private JobExecutionId start() {
        return operator.start("read-quick", JobParameters.of("run", UUID.randomUUID().toString()),
                OperatorCall.by("test"));
    }
}
