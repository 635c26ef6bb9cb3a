package io.durablebatch.jakarta.deployment.test;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Consumer;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.jakarta.deployment.JslJobsBuildItem;
import io.durablebatch.jakarta.runtime.jsl.JslProblem;
import io.quarkus.builder.BuildChainBuilder;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code invalid-job-xml=refuse-start} (what the TCK needs) an invalid job XML, even one that is
 * no job at all, does not stop the build: it is handed on as refused, with its problems, beside the
 * valid ones.
 */
class InvalidJobXmlRefusedAtStartTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar
                    .addAsResource(new StringAsset("""
                            <job id="payroll" xmlns="https://jakarta.ee/xml/ns/jakartaee" version="2.0">
                                <step id="pay" next="archive">
                                    <batchlet ref="payBatchlet"/>
                                </step>
                            </job>
                            """), "META-INF/batch-jobs/payroll.xml")
                    .addAsResource(new StringAsset("<!-- nothing yet -->"), "META-INF/batch-jobs/draft.xml")
                    .addAsResource("jobs/nightly-settlement.xml", "META-INF/batch-jobs/nightly-settlement.xml"))
            .overrideConfigKey("quarkus.durable-batch.jakarta.invalid-job-xml", "refuse-start")
            .addBuildChainCustomizer(inspectJobs());

    @Test
    void theApplicationStarts() {
        // the build step below has checked what the build produced
    }

    private static Consumer<BuildChainBuilder> inspectJobs() {
        return chain -> chain.addBuildStep(context -> {
            JslJobsBuildItem jobs = context.consume(JslJobsBuildItem.class);
            assertEquals(List.of("nightly-settlement"), List.copyOf(jobs.jobs().keySet()));
            assertEquals(List.of("draft", "payroll"), List.copyOf(jobs.refused().keySet()));
            assertEquals(List.of("META-INF/batch-jobs/payroll.xml line 2: <step id=\"pay\">: next=\"archive\" names no "
                    + "element of the job"), jobs.refused().get("payroll").stream().map(JslProblem::message).toList());
            context.produce(new FeatureBuildItem("jsl-test-inspection"));
        }).consumes(JslJobsBuildItem.class).produces(FeatureBuildItem.class).build();
    }
}
