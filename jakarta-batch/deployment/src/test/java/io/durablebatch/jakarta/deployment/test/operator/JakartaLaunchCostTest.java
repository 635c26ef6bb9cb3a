package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.operations.NoSuchJobExecutionException;
import jakarta.batch.runtime.BatchStatus;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import jakarta.transaction.TransactionScoped;
import jakarta.transaction.UserTransaction;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A Jakarta start, counted: a job XML of one batchlet step costs the database what a kernel launch of
 * one tasklet does (two transactions, eight metadata statements). The job listener that drops the
 * execution's {@code JobContext} listens to the end only, so the launch still starts the first step in
 * its own transaction; resolving the job, its properties and its artifact is done in memory. A caller's
 * poll of {@code getJobExecution} is one statement, and without a transaction of the caller's it
 * begins none.
 */
class JakartaLaunchCostTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Executions.class, Native.class, Quick.class, TransactionsBegun.class)
                    .addAsResource(new StringAsset("""
                            <job id="costOneBatchlet" xmlns="https://jakarta.ee/xml/ns/jakartaee" version="2.0">
                                <properties><property name="p" value="#{jobParameters['p']}?:none;"/></properties>
                                <step id="only"><batchlet ref="quick"/></step>
                            </job>
                            """), "META-INF/batch-jobs/cost-one-batchlet.xml"))
            // nothing but the launch itself may reach the database while it is counted: no lease sweep
            // (one statement every 5 s by default), no renewal of the launch's lease
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false")
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "1h")
            .overrideConfigKey("quarkus.durable-batch.lease.duration", "3h");

    @Singleton
    static class Native {
        @Produces
        JobDefinition oneTasklet() {
            return Job.named("cost-one-tasklet").start(tasklet("only", context -> RepeatStatus.FINISHED)).build();
        }
    }

    @Named("quick")
    @Dependent
    static class Quick extends AbstractBatchlet {
        @Override
        public String process() {
            return null;
        }
    }

    /** Every JTA transaction begun in the application, as Quarkus announces it. */
    @Singleton
    static class TransactionsBegun {
        final AtomicLong count = new AtomicLong();

        void begun(@Observes @Initialized(TransactionScoped.class) Object transaction) {
            count.incrementAndGet();
        }
    }

    @Inject
    JobOperator kernel;

    @Inject
    MetadataSql sql;

    @Inject
    TransactionsBegun transactions;

    @Inject
    RepositoryTables tables;

    @Inject
    UserTransaction userTransaction;

    record Cost(long statements, long transactions, ExecutionStatus status) {
    }

    @Test
    void aJakartaStartCostsWhatAKernelLaunchDoes() throws Exception {
        LongSupplier jakarta = () -> Executions.operator().start("cost-one-batchlet", Executions.properties("p", "x"));
        LongSupplier native_ = () -> kernel.start("cost-one-tasklet", JobParameters.of("run", UUID.randomUUID().toString()),
                OperatorCall.by("test")).value();
        launch(jakarta); // the first launches also load what a process loads once
        launch(native_);

        Cost viaJakarta = launch(jakarta);
        Cost viaKernel = launch(native_);
        assertEquals(new Cost(8, 2, ExecutionStatus.COMPLETED), viaKernel, "the kernel's own launch cost");
        assertEquals(new Cost(8, 2, ExecutionStatus.COMPLETED), viaJakarta, "a Jakarta start costs the kernel's launch");
    }

    @Test
    void aPollIsOneStatementInNoTransaction() throws Exception {
        long id = Executions.operator().start("cost-one-batchlet", Executions.properties("p", "x"));
        awaitEndOutsideTheApplication(id);
        Executions.operator().getJobExecution(id); // the first poll also loads what a process loads once

        long statements = sql.statementsExecuted();
        long begun = transactions.count.get();
        for (int poll = 0; poll < 10; poll++) {
            assertEquals(BatchStatus.COMPLETED, Executions.operator().getJobExecution(id).getBatchStatus());
        }
        assertEquals(new Cost(10, 0, ExecutionStatus.COMPLETED),
                new Cost(sql.statementsExecuted() - statements, transactions.count.get() - begun,
                        ExecutionStatus.COMPLETED),
                "ten polls");
    }

    /** In the caller's transaction a poll joins it: it sees the start the transaction has not committed. */
    @Test
    void aPollInTheCallersTransactionSeesItsUncommittedStart() throws Exception {
        userTransaction.begin();
        long id;
        try {
            id = Executions.operator().start("cost-one-batchlet", Executions.properties("p", "x"));
            long begun = transactions.count.get();
            assertEquals(BatchStatus.STARTED, Executions.operator().getJobExecution(id).getBatchStatus());
            assertEquals(0, transactions.count.get() - begun, "no transaction of its own");
        } finally {
            userTransaction.rollback();
        }
        assertThrows(NoSuchJobExecutionException.class, () -> Executions.operator().getJobExecution(id));
    }

    private Cost launch(LongSupplier start) throws Exception {
        long statements = sql.statementsExecuted();
        long begun = transactions.count.get();
        long id = start.getAsLong();
        ExecutionStatus status = awaitEndOutsideTheApplication(id);
        // the job listeners run once the end is committed: let them finish before counting
        Thread.sleep(500);
        return new Cost(sql.statementsExecuted() - statements, transactions.count.get() - begun, status);
    }

    /** Watched on a connection of the test's own, so the watching is not counted. */
    private ExecutionStatus awaitEndOutsideTheApplication(long id) throws Exception {
        try (Connection connection = DriverManager.getConnection(System.getProperty("quarkus.datasource.jdbc.url"),
                System.getProperty("quarkus.datasource.username"), System.getProperty("quarkus.datasource.password"));
                PreparedStatement select = connection.prepareStatement(
                        tables.substitute("SELECT status FROM {p}job_execution WHERE id = ?"))) {
            select.setLong(1, id);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    ExecutionStatus status = ExecutionStatus.valueOf(row.getString(1));
                    if (!status.isActive()) {
                        return status;
                    }
                }
                Thread.sleep(10);
            }
        }
        throw new AssertionError("job execution " + id + " did not end in 30 s");
    }
}
