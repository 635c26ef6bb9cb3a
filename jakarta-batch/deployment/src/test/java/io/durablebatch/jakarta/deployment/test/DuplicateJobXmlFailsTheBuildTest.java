package io.durablebatch.jakarta.deployment.test;

import static io.durablebatch.jakarta.deployment.test.InvalidJobXmlFailsTheBuildTest.causeOfType;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.jakarta.runtime.jsl.JslException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Two archives with a job XML of one name: which one {@code JobOperator.start} would run depends on
 * the class path order, so the build fails even when invalid job XMLs are only refused at start.
 */
class DuplicateJobXmlFailsTheBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addAsResource("jobs/nightly-settlement.xml",
                    "META-INF/batch-jobs/nightly-settlement.xml"))
            // a library that is an application archive (it has beans.xml) and ships the same job name
            .withAdditionalDependency(library -> library.addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml")
                    .addAsResource("jobs/nightly-settlement.xml", "META-INF/batch-jobs/nightly-settlement.xml"))
            .overrideConfigKey("quarkus.durable-batch.jakarta.invalid-job-xml", "refuse-start")
            .assertException(failure -> {
                JslException refusal = causeOfType(failure, JslException.class);
                assertNotNull(refusal, () -> "no JslException in " + failure);
                assertTrue(refusal.getMessage().startsWith("META-INF/batch-jobs/nightly-settlement.xml: the job XML is "
                        + "in both "), refusal::getMessage);
                assertTrue(refusal.getMessage().endsWith("; a job name must be unique"), refusal::getMessage);
            });

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }
}
