package io.durablebatch.jakarta.deployment.test.operator;

import static io.durablebatch.jakarta.deployment.test.operator.Executions.properties;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.run;
import static io.durablebatch.jakarta.deployment.test.operator.Executions.step;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * {@code @BatchProperty} as each Java type Jakarta Batch 2.1 allows (String, Boolean, Double, Float,
 * Integer, Long, Short), into a CDI bean and into a class the runtime instantiates; a property left
 * undeclared is null, and a text the type cannot hold fails the step, naming the property.
 */
class TypedBatchPropertyTest {

    private static final String PROPERTIES = """
            <properties>
                <property name="text" value="#{jobParameters['text']}"/>
                <property name="flag" value="#{jobParameters['flag']}"/>
                <property name="ratio" value="#{jobParameters['ratio']}"/>
                <property name="share" value="#{jobParameters['share']}"/>
                <property name="count" value="#{jobParameters['count']}"/>
                <property name="total" value="#{jobParameters['total']}"/>
                <property name="small" value="#{jobParameters['small']}"/>
            </properties>""";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar
                    .addClasses(Executions.class, TypedBeanBatchlet.class, TypedClassBatchlet.class)
                    .addAsResource(new StringAsset("""
                            <job id="typed" xmlns="https://jakarta.ee/xml/ns/jakartaee" version="2.0">
                                <step id="bean" next="byClass"><batchlet ref="typedBeanBatchlet">%s</batchlet></step>
                                <step id="byClass"><batchlet ref="%s">%s</batchlet></step>
                            </job>
                            """.formatted(PROPERTIES, TypedClassBatchlet.class.getName(), PROPERTIES)),
                            "META-INF/batch-jobs/typed.xml"));

    private static final String EXPECTED = "abc:true:2.5:0.25:42:9000000000:7:null";

    @Test
    void eachTypeIsConvertedFromThePropertysTextInABeanAndInAClassInstance() {
        JobExecution execution = run("typed", properties("text", "abc", "flag", "true", "ratio", "2.5", "share", "0.25",
                "count", "42", "total", "9000000000", "small", "7"));
        assertEquals(BatchStatus.COMPLETED, execution.getBatchStatus());
        assertEquals(EXPECTED, step(execution.getExecutionId(), "bean").getExitStatus());
        assertEquals(EXPECTED, step(execution.getExecutionId(), "byClass").getExitStatus());
    }

    @Test
    void aTextTheTypeCannotHoldFailsTheStepNamingTheProperty() {
        JobExecution execution = run("typed", properties("text", "abc", "flag", "true", "ratio", "2.5", "share", "0.25",
                "count", "forty-two", "total", "1", "small", "7"));
        assertEquals(BatchStatus.FAILED, execution.getBatchStatus());
        assertEquals(BatchStatus.FAILED, step(execution.getExecutionId(), "bean").getBatchStatus());
    }

    /** The values as one exit status; {@code missing} names no declared property, so it stays null. */
    static String describe(String text, Boolean flag, Double ratio, Float share, Integer count, Long total, Short small,
            Integer missing) {
        return text + ":" + flag + ":" + ratio + ":" + share + ":" + count + ":" + total + ":" + small + ":" + missing;
    }

    @Named
    @Dependent
    public static class TypedBeanBatchlet extends AbstractBatchlet {

        @Inject
        @BatchProperty
        String text;
        @Inject
        @BatchProperty
        Boolean flag;
        @Inject
        @BatchProperty
        Double ratio;
        @Inject
        @BatchProperty
        Float share;
        @Inject
        @BatchProperty
        Integer count;
        @Inject
        @BatchProperty
        Long total;
        @Inject
        @BatchProperty(name = "small")
        Short tiny;
        @Inject
        @BatchProperty
        Integer missing;

        @Override
        public String process() {
            return describe(text, flag, ratio, share, count, total, tiny, missing);
        }
    }

    /** No CDI bean: the runtime instantiates it by its class name and injects its fields itself. */
    public static class TypedClassBatchlet extends AbstractBatchlet {

        @BatchProperty
        String text;
        @BatchProperty
        Boolean flag;
        @BatchProperty
        Double ratio;
        @BatchProperty
        Float share;
        @BatchProperty
        Integer count;
        @BatchProperty
        Long total;
        @BatchProperty
        Short small;
        @BatchProperty
        Integer missing;

        @Override
        public String process() {
            return describe(text, flag, ratio, share, count, total, small, missing);
        }
    }
}
