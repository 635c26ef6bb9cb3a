package io.durablebatch.test;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.opentest4j.AssertionFailedError;

import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.PartitionedStep;
import io.durablebatch.job.Step;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.runtime.testing.TestHooks;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Runs the application's jobs from its tests, the way {@code JobOperator} runs them in production:
 * inject it into a {@code @QuarkusTest}.
 *
 * <pre>
 * &#64;Inject
 * JobTester tester;
 *
 * &#64;BeforeEach
 * void reset() {
 *     tester.resetRepository();
 * }
 *
 * &#64;Test
 * void importsEveryOrder() {
 *     tester.launch("importOrders", JobParameters.of("file", "orders.csv"))
 *             .assertCompleted()
 *             .step("import").assertWriteCount(1200).assertSkipCount(0);
 * }
 * </pre>
 *
 * A launch is a real launch: the same operator, repository, transactions and threads as in
 * production, with the operator call of actor {@value #ACTOR}. Every method that returns a
 * {@link JobRun} waits for the execution to end, at most {@link #DEFAULT_TIMEOUT}; one that ran out
 * of time is asked to stop, so that it does not run on into the next test.
 */
@Singleton
public class JobTester {

    /** The actor of every operator call this class makes. */
    public static final String ACTOR = "test:JobTester";

    /** How long the awaiting methods wait for an execution to end, unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);

    private final JobOperator operator;
    private final JobRepository repository;
    private final TestHooks hooks;
    private final Instance<JobDefinition> definitions;

    JobTester(JobOperator operator, JobRepository repository, TestHooks hooks, @Any Instance<JobDefinition> definitions) {
        this.operator = operator;
        this.repository = repository;
        this.hooks = hooks;
        this.definitions = definitions;
    }

    /** Launches the job with these parameters and waits for its end: {@link #start} then {@link #await}. */
    public JobRun launch(String jobName, JobParameters parameters) {
        return await(start(jobName, parameters));
    }

    /**
     * Launches the job with these parameters and returns at once, the execution running: for a test
     * that stops it, or watches it run. {@link #await} waits for its end.
     */
    public JobExecutionId start(String jobName, JobParameters parameters) {
        return operator.start(jobName, parameters, call());
    }

    /**
     * Runs one step of a job alone, with these parameters, and waits for its end. The kernel runs
     * flows, not loose steps: the step runs as the only node of a job of its own, named
     * {@link #stepJobName stepJobName(jobName, stepName)}, with the step's own definition (its
     * reader, writer, skips, retries, node id) and the job's revision. That job has instances and
     * checkpoints of its own, apart from the real job's, and {@link #restart} restarts it like any
     * other. The step may be any step node of the flow (a tasklet, a chunk or a partitioned step);
     * the flow's transitions and the other nodes do not run.
     *
     * @throws IllegalArgumentException if the job is not defined or has no step node of that name or id
     */
    public JobRun launchStep(String jobName, String stepName, JobParameters parameters) {
        JobDefinition job = definition(jobName);
        Step step = flowStep(job, stepName);
        Job.Builder builder = Job.named(stepJobName(jobName, step.id())).revision(job.revision());
        job.restartOnOwnerLoss().ifPresent(builder::restartOnOwnerLoss);
        JobDefinition stepJob = builder.start(step).build();
        hooks.define(stepJob);
        return launch(stepJob.name().value(), parameters);
    }

    /**
     * The name of the one-step job {@link #launchStep} runs the step of this node id (or name) of
     * {@code jobName} in: {@code jobName:nodeId}.
     */
    public static String stepJobName(String jobName, String stepNodeId) {
        return jobName + ":" + stepNodeId;
    }

    /** Restarts the instance of this STOPPED or FAILED run and waits for the new attempt's end. */
    public JobRun restart(JobRun run) {
        return restart(run.id());
    }

    /** Restarts the instance of this STOPPED or FAILED execution and waits for the new attempt's end. */
    public JobRun restart(JobExecutionId execution) {
        return await(operator.restart(execution, call()));
    }

    /** Waits for the execution to end, at most {@link #DEFAULT_TIMEOUT}. */
    public JobRun await(JobExecutionId execution) {
        return await(execution, DEFAULT_TIMEOUT);
    }

    /**
     * Waits for the execution to end, at most {@code timeout}, and returns it as it ended, with its
     * step executions.
     *
     * @throws AssertionFailedError if it is still running after {@code timeout}; it is then asked to stop
     */
    public JobRun await(JobExecutionId execution, Duration timeout) {
        JobExecution ended;
        try {
            ended = operator.await(execution, timeout);
        } catch (IllegalStateException stillRunning) {
            operator.stop(execution, call());
            throw new AssertionFailedError("job execution " + execution + " did not end within " + timeout
                    + "; it was asked to stop", stillRunning);
        }
        return QuarkusTransaction.requiringNew().call(() -> new JobRun(ended, repository.stepExecutions(execution)));
    }

    /** Asks the running execution to stop at its next chunk boundary and waits for its end. */
    public JobRun stop(JobExecutionId execution) {
        operator.stop(execution, call());
        return await(execution);
    }

    /**
     * Makes chunk {@code chunk} of step {@code stepName} fail once with {@code failure}, in every
     * execution of {@code jobName} (and of the one-step jobs {@link #launchStep} derives from it)
     * from now on. Chunks are counted from 1 in each step attempt: chunk 3 is the third chunk the
     * attempt writes, whatever an earlier attempt committed. {@code failure} is thrown inside the
     * chunk's transaction after the writer wrote its items, as if the writer had thrown it, so the
     * kernel's real path follows: the chunk rolls back with the writer's writes, and then is retried
     * (a transient failure, such as an {@code SQLException} of SQL state {@code 40001}), scanned item
     * by item and committed whole (a skippable one: it fails only once), or fails the step, keeping
     * the checkpoint of the chunk before it for a {@link #restart}. A chunk that writes no item (all
     * filtered or skipped) does not count as written. The failure of a partitioned step's worker step
     * (named by the worker step's name) fires in the first worker that writes that chunk.
     *
     * @throws IllegalArgumentException if the job is not defined or has no chunk step of that name
     */
    public InjectedFailure failAt(String jobName, String stepName, long chunk, Exception failure) {
        JobDefinition job = definition(jobName);
        List<Step> steps = steps(job).toList();
        boolean found = steps.stream()
                .flatMap(step -> step instanceof PartitionedStep partitioned ? Stream.of(step, partitioned.worker())
                        : Stream.of(step))
                .anyMatch(step -> step instanceof ChunkStep<?, ?> && step.name().value().equals(stepName));
        if (!found) {
            throw new IllegalArgumentException("job '" + jobName + "' has no chunk step named '" + stepName
                    + "'; its steps are " + steps.stream().map(step -> step.name().value()).toList());
        }
        Set<String> jobNames = new LinkedHashSet<>();
        jobNames.add(jobName);
        steps.forEach(step -> jobNames.add(stepJobName(jobName, step.id())));
        return new InjectedFailure(jobName, stepName, chunk, failure, hooks.failChunk(jobNames, stepName, chunk, failure));
    }

    /** Disarms every failure {@link #failAt} armed that has not fired. */
    public void clearFailures() {
        hooks.clearFailures();
    }

    /**
     * Deletes every job instance, execution, step execution, decision and audit record of the
     * repository (its tables under {@code quarkus.durable-batch.schema.table-prefix}; the schema
     * stays), so that each test starts from an empty repository: call it in a {@code @BeforeEach}.
     * It deletes those of every process that shares the database: give the tests a database of
     * their own. The application's own tables are the test's to clean.
     *
     * @throws IllegalStateException if an execution still runs in this process
     */
    public void resetRepository() {
        hooks.resetRepository();
    }

    private static OperatorCall call() {
        return OperatorCall.by(ACTOR);
    }

    private JobDefinition definition(String jobName) {
        Optional<JobDefinition> found = definitions.stream().filter(job -> job.name().value().equals(jobName)).findFirst();
        return found.orElseThrow(() -> new IllegalArgumentException("no job named '" + jobName
                + "' is defined; the defined jobs are " + definitions.stream().map(job -> job.name().value()).toList()));
    }

    private static Stream<Step> steps(JobDefinition job) {
        return job.nodes().values().stream().filter(Step.class::isInstance).map(Step.class::cast);
    }

    private static Step flowStep(JobDefinition job, String stepName) {
        return steps(job).filter(step -> step.name().value().equals(stepName) || step.id().equals(stepName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("job '" + job.name() + "' has no step node named '"
                        + stepName + "'; its steps are " + steps(job).map(step -> step.name().value()).toList()));
    }
}
