package io.durablebatch.jakarta.deployment.test;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.jakarta.deployment.JslJobsBuildItem;
import io.durablebatch.jakarta.runtime.jsl.JslExecutionElement;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.quarkus.builder.BuildChainBuilder;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A valid job XML (flow, split, decision, chunk, partition) lets the application start, and the build
 * hands it on parsed under its file name. A job XML outside {@code META-INF/batch-jobs} is not one.
 */
class ValidJobXmlIsParsedAtBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addAsResource("jobs/nightly-settlement.xml",
                    "META-INF/batch-jobs/nightly-settlement.xml")
                    .addAsResource("jobs/nightly-settlement.xml", "META-INF/batch-jobs/archive/not-a-job.xml"))
            .addBuildChainCustomizer(inspectJobs());

    @Test
    void theApplicationStarts() {
        // the build step below has checked what the build produced
    }

    /** A build step of the test's own that fails the build unless the jobs are as written. */
    private static Consumer<BuildChainBuilder> inspectJobs() {
        return chain -> chain.addBuildStep(context -> {
            JslJobsBuildItem jobs = context.consume(JslJobsBuildItem.class);
            assertEquals(List.of("nightly-settlement"), List.copyOf(jobs.jobs().keySet()));
            JslJob job = jobs.jobs().get("nightly-settlement");
            assertEquals("settlement", job.id());
            assertEquals(List.of("collect", "settle", "route", "report"),
                    job.elements().stream().map(JslExecutionElement::id).toList());
            context.produce(new FeatureBuildItem("jsl-test-inspection"));
        }).consumes(JslJobsBuildItem.class).produces(FeatureBuildItem.class).build();
    }
}
