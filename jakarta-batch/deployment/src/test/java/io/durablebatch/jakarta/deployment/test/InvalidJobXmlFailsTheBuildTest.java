package io.durablebatch.jakarta.deployment.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.jakarta.runtime.jsl.JslException;
import io.quarkus.test.QuarkusUnitTest;

/** A job XML whose step goes to an element that does not exist stops the build, naming file, line and element. */
class InvalidJobXmlFailsTheBuildTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addAsResource(new StringAsset("""
                    <job id="payroll" xmlns="https://jakarta.ee/xml/ns/jakartaee" version="2.0">
                        <step id="pay" next="archive">
                            <batchlet ref="payBatchlet"/>
                        </step>
                    </job>
                    """), "META-INF/batch-jobs/payroll.xml"))
            .assertException(failure -> {
                JslException refusal = causeOfType(failure, JslException.class);
                assertNotNull(refusal, () -> "no JslException in " + failure);
                assertEquals("META-INF/batch-jobs/payroll.xml line 2: <step id=\"pay\">: next=\"archive\" names no "
                        + "element of the job", refusal.getMessage());
            });

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }

    static <T extends Throwable> T causeOfType(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }
}
