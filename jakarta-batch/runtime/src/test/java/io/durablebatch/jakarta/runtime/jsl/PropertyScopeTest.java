package io.durablebatch.jakarta.runtime.jsl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The scoping of {@code #{jobProperties[...]}}: the nearest enclosing element's properties win. */
class PropertyScopeTest {

    private static final PropertyScope EXECUTION = PropertyScope.of(Map.of("day", "monday"),
            name -> name.equals("user.region") ? "eu" : null);

    private static JslProperties properties(String... nameValues) {
        JslProperty[] entries = new JslProperty[nameValues.length / 2];
        for (int index = 0; index < entries.length; index++) {
            entries[index] = new JslProperty(nameValues[2 * index], nameValues[2 * index + 1]);
        }
        return new JslProperties(Optional.empty(), List.of(entries));
    }

    @Test
    void stepPropertiesSeeJobProperties() {
        PropertyScope job = EXECUTION.enter(properties("region", "#{systemProperties['user.region']}"));
        PropertyScope step = job.enter(properties("input", "#{jobProperties['region']}/#{jobParameters['day']}"));
        assertEquals(Map.of("input", "eu/monday"), step.properties());
    }

    @Test
    void theNearestScopeWins() {
        PropertyScope job = EXECUTION.enter(properties("batchletProp", "JOB_OVERRIDE"));
        PropertyScope step = job.enter(properties("batchletProp", "STEP_OVERRIDE"));
        PropertyScope batchlet = step.enter(properties("seen", "#{jobProperties['batchletProp']}"));
        assertEquals("STEP_OVERRIDE", batchlet.properties().get("seen"));
        assertEquals("JOB_OVERRIDE", job.resolve("#{jobProperties['batchletProp']}"));
    }

    /** As in the TCK's job_properties2.xml: myprop2 refers to myprop1, written before it. */
    @Test
    void aPropertySeesTheOnesWrittenBeforeItInItsElement() {
        PropertyScope job = EXECUTION.enter(properties("myprop1", "step2", "myprop2", "#{jobProperties['myprop1']}",
                "early", "#{jobProperties['late']}?:unset;", "late", "x"));
        assertEquals("step2", job.properties().get("myprop2"));
        assertEquals("unset", job.properties().get("early"));
    }

    @Test
    void aPropertyReferringToItsOwnNameFindsTheEnclosingValue() {
        PropertyScope job = EXECUTION.enter(properties("path", "/data"));
        PropertyScope step = job.enter(properties("path", "#{jobProperties['path']}/in"));
        assertEquals("/data/in", step.properties().get("path"));
    }

    @Test
    void aScopeHoldsItsOwnElementsPropertiesOnly() {
        PropertyScope job = EXECUTION.enter(properties("a", "1"));
        PropertyScope step = job.enter(properties("b", "2"));
        assertEquals(Map.of("b", "2"), step.properties());
        assertEquals("", step.resolve("#{jobProperties['c']}"));
    }

    @Test
    void partitionPlanIsDefinedOnlyInsideAPartition() {
        PropertyScope step = EXECUTION.enter(JslProperties.NONE);
        String value = "#{partitionPlan['bank']}?:none;";
        assertEquals("none", step.resolve(value));
        PropertyScope partition = step.inPartition(Map.of("bank", "north"));
        assertEquals("north", partition.enter(properties("bank", value)).properties().get("bank"));
    }

    @Test
    void jobParametersAreNotJobProperties() {
        assertEquals("", EXECUTION.resolve("#{jobProperties['day']}"));
        assertEquals("monday", EXECUTION.resolve("#{jobParameters['day']}"));
    }
}
