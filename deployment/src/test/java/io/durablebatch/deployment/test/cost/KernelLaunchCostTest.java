package io.durablebatch.deployment.test.cost;

import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.deployment.test.TransactionsBegun;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.item.ItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.listener.JobEvent;
import io.durablebatch.listener.JobListener;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A launch through the kernel, counted: a job of one step commits twice, at its launch (instance,
 * attempt claimed and STARTED, audit, first step STARTED) and in the step's last unit of work (its
 * completion, the route and the job's end), in eight metadata statements, twelve as PostgreSQL
 * counts them with each transaction's BEGIN and COMMIT. Each further chunk is one transaction of one
 * statement; each step boundary is one transaction that ends a step and starts the next.
 */
class KernelLaunchCostTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, Jobs.class, TransactionsBegun.class))
            // nothing but the launch itself may reach the database while it is counted
            .overrideConfigKey("quarkus.durable-batch.lease.sweeper-enabled", "false")
            .overrideConfigKey("quarkus.durable-batch.control.poll-interval", "1h")
            .overrideConfigKey("quarkus.durable-batch.lease.duration", "3h");

    @Singleton
    static class Jobs {

        @Produces
        JobDefinition oneTasklet() {
            return Job.named("cost-one-tasklet")
                    .start(tasklet("only", context -> RepeatStatus.FINISHED)).build();
        }

        @Produces
        JobDefinition twoTasklets() {
            return Job.named("cost-two-tasklets")
                    .start(tasklet("first", context -> RepeatStatus.FINISHED))
                    .next(tasklet("second", context -> RepeatStatus.FINISHED)).build();
        }

        @Produces
        JobDefinition endListened() {
            return Job.named("cost-end-listened").listener(new EndOnly())
                    .start(tasklet("only", context -> RepeatStatus.FINISHED)).build();
        }

        @Produces
        JobDefinition startListened() {
            return Job.named("cost-start-listened").listener(new BeforeToo())
                    .start(tasklet("only", context -> RepeatStatus.FINISHED)).build();
        }

        @Produces
        JobDefinition oneChunkStep() {
            return Job.named("cost-chunks")
                    .start(chunk("items", 100).reader(context -> new Countdown(250))
                            .writer(context -> (List<? extends Integer> items) -> {
                            }).build())
                    .build();
        }
    }

    /** Reads the numbers up to {@code count}; the checkpoint is how many were read. */
    static final class Countdown implements ItemReader<Integer> {
        private final int count;
        private int read;

        Countdown(int count) {
            this.count = count;
        }

        @Override
        public void open(Optional<Checkpoint> checkpoint) {
            read = checkpoint.map(c -> Integer.parseInt(new String(c.bytes(), StandardCharsets.UTF_8))).orElse(0);
        }

        @Override
        public Integer read() {
            return read < count ? read++ : null;
        }

        @Override
        public Checkpoint checkpoint() {
            return Checkpoint.of(Integer.toString(read).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Listens to the end only, as the Jakarta layer's cleanup of an execution's contexts does. */
    static final class EndOnly implements JobListener {
        static final BlockingQueue<ExecutionStatus> ENDS = new LinkedBlockingQueue<>();

        @Override
        public void afterJob(JobEvent job) {
            ENDS.add(job.execution().status());
        }
    }

    /** Runs a {@code beforeJob}: between the launch and the first step. */
    static final class BeforeToo implements JobListener {
        @Override
        public void beforeJob(JobEvent job) {
        }
    }

    @Inject
    JobOperator operator;

    @Inject
    MetadataSql sql;

    @Inject
    TransactionsBegun transactions;

    @Inject
    RepositoryTables tables;

    /**
     * The statements and transactions of one launch, counted from before it to its end, how many of
     * those statements went through the Hibernate session, and how the launch ended.
     */
    record Cost(long statements, long transactions, long throughSession, ExecutionStatus status) {
    }

    Cost launch(String job) throws Exception {
        long statements = sql.statementsExecuted();
        long throughSession = sql.statementsThroughSession();
        long begun = transactions.count();
        JobExecutionId id = operator.start(job, JobParameters.of("run", UUID.randomUUID().toString()),
                OperatorCall.by("test"));
        ExecutionStatus status = awaitEndOutsideTheApplication(id);
        return new Cost(sql.statementsExecuted() - statements, transactions.count() - begun,
                sql.statementsThroughSession() - throughSession, status);
    }

    /**
     * The end, watched on a connection of the test's own: waiting through the application would
     * open transactions and statements of its own, and a job listener would change the launch.
     */
    private ExecutionStatus awaitEndOutsideTheApplication(JobExecutionId id) throws Exception {
        try (Connection connection = DriverManager.getConnection(System.getProperty("quarkus.datasource.jdbc.url"),
                System.getProperty("quarkus.datasource.username"), System.getProperty("quarkus.datasource.password"));
                PreparedStatement select = connection.prepareStatement(
                        tables.substitute("SELECT status FROM {p}job_execution WHERE id = ?"))) {
            select.setLong(1, id.value());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    ExecutionStatus status = ExecutionStatus.valueOf(row.getString(1));
                    if (!status.isActive()) {
                        // the end commits after the last statement: nothing of the launch is left to count
                        return status;
                    }
                }
                Thread.sleep(10);
            }
        }
        throw new AssertionError("job execution " + id + " did not end in 30 s");
    }

    @Test
    void aOneStepJobCommitsTwiceInEightStatements() throws Exception {
        launch("cost-one-tasklet"); // the first launch also loads what a process loads once
        Cost cost = launch("cost-one-tasklet");

        assertEquals(ExecutionStatus.COMPLETED, cost.status());
        assertEquals(2, cost.transactions(), "transactions (commits) of a one-step launch");
        assertEquals(8, cost.statements(), "metadata statements of a one-step launch");
        assertEquals(12, cost.statements() + 2 * cost.transactions(), "statements as PostgreSQL counts them");
    }

    /**
     * Issue 29: Hibernate building and mapping a launch's statements cost several times their driver
     * time, so every statement of a launch (instance, audit, attempt, step, route decision, ends) is
     * plain JDBC mapped by hand, each mapping proven equal to its entity's (LaunchRowsReadTest,
     * JobExecutionReadTest).
     */
    @Test
    void noStatementOfALaunchGoesThroughHibernate() throws Exception {
        launch("cost-one-tasklet");
        Cost oneStep = launch("cost-one-tasklet");
        Cost twoSteps = launch("cost-two-tasklets");

        assertEquals(0, oneStep.throughSession(), "statements of a one-step launch through the Hibernate session");
        assertEquals(0, twoSteps.throughSession(), "statements of a two-step launch through the Hibernate session");
    }

    @Test
    void eachChunkIsOneTransactionOfOneStatement() throws Exception {
        Cost cost = launch("cost-chunks");

        assertEquals(ExecutionStatus.COMPLETED, cost.status());
        // the launch, chunks 1 and 2, chunk 3 (50 items, the end of input) with the step's and job's end
        assertEquals(4, cost.transactions(), "transactions of a launch of three chunks");
        assertEquals(5 + 2 + 3, cost.statements(), "metadata statements of a launch of three chunks");
    }

    @Test
    void aStepBoundaryIsOneTransaction() throws Exception {
        Cost cost = launch("cost-two-tasklets");

        assertEquals(ExecutionStatus.COMPLETED, cost.status());
        // the launch; the first step's end, its route and the second's start; the second's end with the job's
        assertEquals(3, cost.transactions(), "transactions of a two-step launch");
        assertEquals(5 + 3 + 3, cost.statements(), "metadata statements of a two-step launch");
    }

    @Test
    void aJobListenerOfTheEndOnlyLeavesTheLaunchAsCheapAsNone() throws Exception {
        launch("cost-end-listened");
        EndOnly.ENDS.clear();
        Cost endOnly = launch("cost-end-listened");
        Cost withBeforeJob = launch("cost-start-listened");

        assertEquals(new Cost(8, 2, 0, ExecutionStatus.COMPLETED), endOnly, "the launch starts the first step itself");
        assertEquals(ExecutionStatus.COMPLETED, EndOnly.ENDS.poll(30, TimeUnit.SECONDS), "afterJob with the recorded end");
        // a beforeJob runs between the launch's commit and the first step, which then starts on its own
        assertEquals(new Cost(9, 3, 0, ExecutionStatus.COMPLETED), withBeforeJob, "a launch whose listener runs beforeJob");
    }
}
