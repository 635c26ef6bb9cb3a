package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.BatchStatus;
import jakarta.batch.runtime.JobExecution;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * An artifact annotated only {@code @Named}, as Jakarta Batch applications write them, is a
 * {@code @Dependent} bean (in Quarkus {@code @Named} alone defines none): its ref finds it and its
 * injection points are served. A {@code @Named} class that is no batch artifact stays no bean.
 */
class NamedArtifactsAreBeansTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar
                    .addClasses(Executions.class, OnlyNamedBatchlet.class, Middle.class, Grandchild.class,
                            NoArtifact.class)
                    .addAsResource(
                            new StringAsset(
                                    """
                                            <job id="named" xmlns="https://jakarta.ee/xml/ns/jakartaee" version="2.0">
                                                <step id="only" next="inherited">
                                                    <batchlet ref="onlyNamedBatchlet">
                                                        <properties><property name="greeting" value="#{jobParameters['greeting']}"/></properties>
                                                    </batchlet>
                                                </step>
                                                <step id="inherited"><batchlet ref="grandchild"/></step>
                                            </job>
                                            """),
                            "META-INF/batch-jobs/named.xml"));

    @Inject
    BeanManager beans;

    @Test
    void aNamedArtifactIsADependentBeanWithItsInjectionPointsServed() {
        JobExecution execution = run("named", properties("greeting", "hello"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals("hello from a bean", step(execution.getExecutionId(), "only").getExitStatus());
        assertEquals("a subclass of an artifact type's subclass",
                step(execution.getExecutionId(), "inherited").getExitStatus());
        assertTrue(beans.getBeans("onlyNamedBatchlet").stream()
                .allMatch(bean -> bean.getScope() == jakarta.enterprise.context.Dependent.class));
        assertFalse(beans.getBeans("onlyNamedBatchlet").isEmpty());
        assertTrue(beans.getBeans("noArtifact").isEmpty(), "a @Named class of no artifact type is left alone");
    }

    @Named
    public static class OnlyNamedBatchlet extends AbstractBatchlet {
        @Inject
        @BatchProperty
        String greeting;

        @Inject
        BeanManager beanManager;

        @Override
        public String process() {
            return greeting + (beanManager != null ? " from a bean" : " from an instance the runtime made");
        }
    }

    public abstract static class Middle extends AbstractBatchlet {
    }

    @Named
    public static class Grandchild extends Middle {
        @Override
        public String process() {
            return "a subclass of an artifact type's subclass";
        }
    }

    @Named
    public static class NoArtifact {
    }
}
