package io.durablebatch.deployment.test.kernel;

import static io.durablebatch.deployment.test.kernel.KernelTestSupport.call;
import static io.durablebatch.deployment.test.kernel.KernelTestSupport.freshRun;
import static io.durablebatch.job.ParameterizedValue.parameter;
import static io.durablebatch.job.Steps.tasklet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.ParameterizedValue;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.Tasklet;
import io.durablebatch.operator.JobParameters;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Transitions and step settings resolved per execution from its job parameters
 * ({@link ParameterizedValue}): one plan and fingerprint for every execution of an instance, so a
 * restart with new parameters routes and limits by them; a value an execution cannot use fails it
 * before any step starts.
 */
class PerExecutionPlanValuesTest extends KernelTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(RepositoryTestSupport.class, KernelTest.class,
                    KernelTestSupport.class, Jobs.class));

    /** The steps that ran, as "run:step". */
    static final Queue<String> RAN = new ConcurrentLinkedQueue<>();

    static Tasklet recording(String step) {
        return context -> {
            RAN.add(context.parameters().string("run") + ":" + step);
            context.setExitStatus(ExitStatus.of(context.parameters().string("outcome")));
            return RepeatStatus.FINISHED;
        };
    }

    @Singleton
    static class Jobs {
        @Produces
        JobDefinition steered() {
            Job.Flow flow = Job.named("parameterSteered")
                    .start(tasklet("check", recording("check")).withAllowStartIfComplete(parameter("rerun")))
                    .on(parameter("pauseOn")).stop()
                    .from("check").on(parameter("continueOn")).to(parameter("then"));
            return flow.from(tasklet("left", recording("left"))).from(tasklet("right", recording("right"))).build();
        }

        @Produces
        JobDefinition computed() {
            return Job.named("parameterComputed").start(tasklet("only", recording("only")))
                    .on(ParameterizedValue.of("computed", parameters -> {
                        throw new IllegalStateException("no pattern today");
                    })).end().build();
        }

        @Produces
        JobDefinition limited() {
            return Job.named("parameterLimited").start(tasklet("flaky", context -> {
                RAN.add(context.parameters().string("run") + ":flaky");
                throw new IllegalStateException("flaky fails");
            }).withStartLimit(parameter("limit"))).build();
        }
    }

    private static JobParameters steering(String run, Map<String, String> values) {
        JobParameters parameters = JobParameters.of("run", run);
        for (Map.Entry<String, String> value : values.entrySet()) {
            parameters = parameters.withNonIdentifying(value.getKey(), value.getValue());
        }
        return parameters;
    }

    private JobExecution restart(JobExecution execution, Map<String, String> values) {
        JobExecutionId restarted = operator.restart(execution.id(), ExecutionParameters.of(Map.copyOf(values)), call());
        return operator.await(restarted, Duration.ofSeconds(30));
    }

    private List<StepExecution> steps(JobExecution execution) {
        return RepositoryTestSupport.tx(() -> repository.stepExecutions(execution.id()));
    }

    private static List<String> ran(String run) {
        return RAN.stream().filter(entry -> entry.startsWith(run + ":")).map(entry -> entry.substring(run.length() + 1))
                .toList();
    }

    @Test
    void aRestartWithNewParametersRoutesByThemUnderTheSameFingerprint() {
        String run = freshRun();
        JobExecution stopped = operator.runAndWait("parameterSteered", steering(run, Map.of("outcome", "A", "pauseOn", "A",
                "continueOn", "B", "then", "left", "rerun", "false")), call());
        assertEquals(ExecutionStatus.STOPPED, stopped.status());

        JobExecution resumed = restart(stopped, Map.of("outcome", "A", "pauseOn", "Z", "continueOn", "A", "then",
                "right", "rerun", "true"));
        assertEquals(ExecutionStatus.COMPLETED, resumed.status(), resumed.failure()::toString);
        assertEquals(stopped.definition(), resumed.definition(), "one plan for both executions");
        assertEquals(List.of("check", "check", "right"), ran(run),
                "the restart ran the completed step again (rerun=true) and took the route its parameters name");
    }

    @Test
    void aStartLimitFromTheParametersIsEnforcedAsEachExecutionResolvesIt() {
        String run = freshRun();
        JobExecution first = operator.runAndWait("parameterLimited", steering(run, Map.of("limit", "2")), call());
        JobExecution second = restart(first, Map.of("limit", "2"));
        JobExecution refused = restart(second, Map.of("limit", "2"));
        assertEquals(ExecutionStatus.FAILED, refused.status());
        assertTrue(refused.failure().orElseThrow().message().contains("START_LIMIT_EXCEEDED"), refused.failure()::toString);
        assertEquals(List.of(), steps(refused), "the third start was refused: no step attempt");

        JobExecution raised = restart(refused, Map.of("limit", "3"));
        assertEquals(ExecutionStatus.FAILED, raised.status());
        assertEquals(1, steps(raised).size(), "a restart that raises the limit starts the step again");
        assertEquals(List.of("flaky", "flaky", "flaky"), ran(run));
    }

    @Test
    void aStartLimitThatIsNoNumberFailsTheExecutionBeforeAnyStep() {
        String run = freshRun();
        JobExecution failed = operator.runAndWait("parameterLimited", steering(run, Map.of("limit", "many")), call());
        assertFailedUnresolved(failed,
                "job 'parameterLimited', node 'flaky': the start limit ${jobParameters['limit']} resolved "
                        + "to 'many', which is invalid: a start limit is a whole number, 0 (no limit) or more");
        assertEquals(List.of(), ran(run));
    }

    @Test
    void anUnknownTargetOrAnInvalidPatternFailsTheExecutionWithNothingElseChanged() {
        String run = freshRun();
        JobExecution unknown = operator.runAndWait("parameterSteered", steering(run, Map.of("outcome", "B", "pauseOn", "A",
                "continueOn", "B", "then", "nowhere", "rerun", "false")), call());
        assertFailedUnresolved(unknown,
                "job 'parameterSteered', node 'check': the transition's target ${jobParameters['then']} "
                        + "resolved to 'nowhere', which names no node of the job");

        JobExecution invalid = restart(unknown, Map.of("outcome", "B", "pauseOn", " A", "continueOn", "B", "then",
                "left", "rerun", "false"));
        assertFailedUnresolved(invalid,
                "job 'parameterSteered', node 'check': the transition's pattern ${jobParameters['pauseOn']} "
                        + "resolved to ' A', which is invalid: pattern must not start or end with white space: ' A'");
        assertEquals(List.of(), ran(run), "no step ran");

        JobExecution repaired = restart(invalid, Map.of("outcome", "B", "pauseOn", "A", "continueOn", "B", "then",
                "left", "rerun", "false"));
        assertEquals(ExecutionStatus.COMPLETED, repaired.status(), repaired.failure()::toString);
        assertEquals(List.of("check", "left"), ran(run), "a restart with parameters that resolve runs the job");
    }

    @Test
    void aResolverThatThrowsOrAnUnsetParameterFailsTheExecutionLikeABadValue() {
        String run = freshRun();
        JobExecution failed = operator.runAndWait("parameterComputed", JobParameters.of("run", run), call());
        assertFailedUnresolved(failed, "job 'parameterComputed', node 'only': the transition's pattern ${computed} "
                + "cannot be resolved: its resolver failed: java.lang.IllegalStateException: no pattern today");

        JobExecution unset = operator.runAndWait("parameterSteered", JobParameters.of("run", run), call());
        assertFailedUnresolved(unset, "job 'parameterSteered', node 'check': the allow-start-if-complete "
                + "${jobParameters['rerun']} cannot be resolved: job parameter 'rerun' is not set");
        assertEquals(List.of(), ran(run));
    }

    @Test
    void aLiteralValueFingerprintsAsThePlainOne() {
        JobDefinition plain = Job.named("plain").start(tasklet("a", recording("a")).withStartLimit(2)
                .withAllowStartIfComplete(true)).on("DONE").end("OK").build();
        JobDefinition literal = Job.named("plain").start(tasklet("a", recording("a"))
                .withStartLimit(ParameterizedValue.literal("2")).withAllowStartIfComplete(ParameterizedValue.literal("true")))
                .on(ParameterizedValue.literal("DONE")).end(ParameterizedValue.literal("OK")).build();
        JobDefinition resolved = Job.named("plain").start(tasklet("a", recording("a")).withStartLimit(2)
                .withAllowStartIfComplete(true)).on(parameter("done")).end("OK").build();
        assertEquals(plain.plan().canonicalText(), literal.plan().canonicalText());
        assertEquals(plain.identity(), literal.identity());
        assertTrue(!plain.identity().equals(resolved.identity()), "a resolved pattern is recorded by its written form");
        assertTrue(resolved.plan().canonicalText().contains("transition a $\"jobParameters['done']\" end exit OK"),
                resolved.plan().canonicalText());
    }

    private void assertFailedUnresolved(JobExecution execution, String message) {
        assertEquals(ExecutionStatus.FAILED, execution.status());
        assertEquals("io.durablebatch.PlanNotResolved", execution.failure().orElseThrow().type());
        assertEquals(message, execution.failure().orElseThrow().message());
        assertEquals(List.of(), steps(execution), "no step attempt");
    }
}
