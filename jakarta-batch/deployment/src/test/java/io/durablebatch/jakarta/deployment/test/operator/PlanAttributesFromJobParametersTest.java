package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.ended;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.stepNames;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The attributes that shape the plan ({@code on}, {@code to}, {@code exit-status}, {@code start-limit},
 * {@code allow-start-if-complete}) taken from the job parameters: each execution resolves them from
 * its own, so a restart with new parameters routes by them, under the same plan; an execution
 * whose parameters name no element fails before any step runs. Every such attribute is resolved
 * when the execution begins, taken or not, so each execution passes every parameter they read.
 */
class PlanAttributesFromJobParametersTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Executions.class, PlannedBatchlet.class)
                    .addAsResource(new StringAsset("""
                            <job id="parameterRouted" %s>
                                <step id="work" allow-start-if-complete="#{jobParameters['rerun']}"
                                        start-limit="#{jobParameters['limit']}">
                                    <batchlet ref="plannedBatchlet"><properties>
                                        <property name="exit" value="#{jobParameters['exit']}"/>
                                        <property name="fail" value="#{jobParameters['fail']}"/>
                                    </properties></batchlet>
                                    <stop on="#{jobParameters['stopOn']}" exit-status="#{jobParameters['stopStatus']}"/>
                                    <next on="#{jobParameters['goOn']}" to="#{jobParameters['then']}"/>
                                    <fail on="*" exit-status="NO_ROUTE"/>
                                </step>
                                <step id="left"><batchlet ref="plannedBatchlet"/></step>
                                <step id="right"><batchlet ref="plannedBatchlet"/></step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/parameterRouted.xml"));

    @Named
    @Dependent
    public static class PlannedBatchlet extends AbstractBatchlet {
        @Inject
        @BatchProperty
        String exit;

        @Inject
        @BatchProperty
        String fail;

        @Override
        public String process() {
            if ("yes".equals(fail)) {
                throw new IllegalStateException("fails as asked");
            }
            return exit == null || exit.isEmpty() ? null : exit;
        }
    }

    @Test
    void aRestartsNewParametersChooseItsRoute() {
        JobExecution stopped = run("parameterRouted", properties("exit", "A", "stopOn", "A", "stopStatus", "PAUSED",
                "goOn", "B", "then", "left", "rerun", "true"));
        assertEquals(BatchStatus.STOPPED, stopped.getBatchStatus());
        assertEquals("PAUSED", stopped.getExitStatus(), "the stop's exit status from the parameters");

        JobExecution restarted = ended(operator().restart(stopped.getExecutionId(), properties("exit", "A",
                "stopOn", "Z", "stopStatus", "PAUSED", "goOn", "A", "then", "right", "rerun", "true")));
        assertEquals(BatchStatus.COMPLETED, restarted.getBatchStatus());
        assertEquals(List.of("work", "right"), stepNames(restarted.getExecutionId()),
                "the completed step ran again (rerun) and exited A, on which the new parameters go on to right");
    }

    @Test
    void aStartLimitFromTheParametersIsEnforced() {
        JobExecution failed = run("parameterRouted",
                properties("fail", "yes", "limit", "1", "stopOn", "Z", "stopStatus", "PAUSED", "goOn",
                        "Z", "then", "left"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals(List.of("work"), stepNames(failed.getExecutionId()));

        JobExecution refused = ended(operator().restart(failed.getExecutionId(), properties("fail", "no", "limit", "1",
                "stopOn", "Z", "stopStatus", "PAUSED", "goOn", "Z", "then", "left")));
        assertEquals(BatchStatus.FAILED, refused.getBatchStatus());
        assertEquals(List.of(), stepNames(refused.getExecutionId()), "the step started once already: its limit");

        JobExecution raised = ended(operator().restart(refused.getExecutionId(), properties("fail", "no", "limit", "2",
                "exit", "B", "stopOn", "Z", "stopStatus", "PAUSED", "goOn", "B", "then", "left")));
        assertEquals(BatchStatus.COMPLETED, raised.getBatchStatus());
        assertEquals(List.of("work", "left"), stepNames(raised.getExecutionId()));
    }

    @Test
    void parametersThatNameNoElementFailTheExecutionBeforeAnyStep() {
        JobExecution failed = run("parameterRouted", properties("exit", "B", "stopOn", "A", "stopStatus", "PAUSED", "goOn", "B",
                "then", "nowhere"));
        assertEquals(BatchStatus.FAILED, failed.getBatchStatus());
        assertEquals(List.of(), stepNames(failed.getExecutionId()), "nothing ran");

        JobExecution repaired = ended(operator().restart(failed.getExecutionId(), properties("exit", "B", "stopOn", "A",
                "stopStatus", "PAUSED", "goOn", "B", "then", "left")));
        assertEquals(BatchStatus.COMPLETED, repaired.getBatchStatus());
        assertEquals(List.of("work", "left"), stepNames(repaired.getExecutionId()));
    }
}
