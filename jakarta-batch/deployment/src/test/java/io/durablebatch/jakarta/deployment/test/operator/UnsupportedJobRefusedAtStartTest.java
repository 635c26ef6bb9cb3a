package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.operator;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.operations.JobStartException;
import jakarta.batch.operations.NoSuchJobException;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.PageRequest;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A job XML this runtime cannot run yet builds and starts the application, and its start is refused
 * with {@code JobStartException} naming file, line and element, before anything is written.
 */
class UnsupportedJobRefusedAtStartTest {

    private static final String NS = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\"";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Executions.class, Noop.class)
                    .addAsResource(new StringAsset("""
                            <job id="chunky" %s>
                                <step id="load">
                                    <chunk item-count="10" checkpoint-policy="#{jobParameters['policy']}">
                                        <reader ref="r"/>
                                        <writer ref="w"/>
                                    </chunk>
                                </step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/chunky.xml")
                    .addAsResource(new StringAsset("""
                            <job id="splitting" %s>
                                <split id="both">
                                    <flow id="inner"><step id="a">
                                        <batchlet ref="noop"/><end on="*" exit-status="DONE"/>
                                    </step></flow>
                                    <flow id="other"><step id="b"><batchlet ref="noop"/></step></flow>
                                </split>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/splitting.xml")
                    .addAsResource(new StringAsset("""
                            <job id="restartableByParameter" restartable="#{jobParameters['again']}" %s>
                                <step id="first"><batchlet ref="noop"/></step>
                            </job>
                            """.formatted(NS)), "META-INF/batch-jobs/restartableByParameter.xml"));

    @Named("noop")
    @Dependent
    static class Noop extends AbstractBatchlet {
        @Override
        public String process() {
            return null;
        }
    }

    @Inject
    JobRepository repository;

    @Test
    void aCheckpointPolicyOfTheParametersIsRefusedNamingTheFileAndTheElement() {
        assertRefused("chunky", "job XML chunky cannot run: META-INF/batch-jobs/chunky.xml line 3: <chunk>: "
                + "checkpoint-policy=\"#{jobParameters['policy']}\" is a substitution; it shapes the job's plan, which is "
                + "fixed when the application starts, so it must be written out here (or refer only to job and step "
                + "properties that are)");
    }

    @Test
    void anEndOfASplitsFlowWithAnExitStatusIsRefused() {
        assertRefused("splitting",
                "job XML splitting cannot run: META-INF/batch-jobs/splitting.xml line 4: <end on=\"*\">: an exit-status on <end> "
                        + "or a restart on <stop> inside a split's flow is not supported yet (the Jakarta Batch guide "
                        + "lists what is refused at start)");
    }

    @Test
    void aRestartableOfTheParametersIsRefused() {
        assertRefused("restartableByParameter",
                "job XML restartableByParameter cannot run: META-INF/batch-jobs/restartableByParameter.xml line 1: <job id=\"restartableByParameter\">: "
                        + "restartable=\"#{jobParameters['again']}\" is a substitution; it shapes the job's plan, which is fixed "
                        + "when the application starts, so it must be written out here (or refer only to job and step properties "
                        + "that are)");
    }

    private void assertRefused(String job, String message) {
        JobStartException refused = assertThrows(JobStartException.class,
                () -> operator().start(job, Executions.properties("run", job)));
        assertEquals(message, refused.getMessage());
        assertThrows(NoSuchJobException.class, () -> operator().getJobInstanceCount(job));
        assertEquals(0, QuarkusTransaction.requiringNew().call(() -> repository
                .findJobInstances(JobName.of(job), PageRequest.first(1)).items().size()), "nothing is written");
    }
}
