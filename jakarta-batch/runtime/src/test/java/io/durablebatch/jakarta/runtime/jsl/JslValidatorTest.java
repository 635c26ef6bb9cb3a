package io.durablebatch.jakarta.runtime.jsl;

import static io.durablebatch.jakarta.runtime.jsl.Jsl.job;
import static io.durablebatch.jakarta.runtime.jsl.Jsl.problems;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class JslValidatorTest {

    private static String step(String id, String attributes, String transitions) {
        return "<step id=\"" + id + "\"" + attributes + "><batchlet ref=\"b\"/>" + transitions + "</step>\n";
    }

    private static String step(String id) {
        return step(id, "", "");
    }

    @Test
    void idsAreUniqueInTheWholeJob() {
        assertEquals(List.of(Jsl.FILE + " line 4: <step id=\"a\">: id \"a\" is already used at line 2"),
                problems(job(step("a", " next=\"f\"", "") + "<flow id=\"f\">\n" + step("a") + "</flow>")));
        assertEquals(List.of(Jsl.FILE + " line 2: <step id=\"test\">: id \"test\" is already used at line 1"),
                problems(job(step("test"))));
    }

    @Test
    void aTargetMustExist() {
        assertEquals(List.of(Jsl.FILE + " line 2: <step id=\"a\">: next=\"b\" names no element of the job"),
                problems(job(step("a", " next=\"b\"", ""))));
        assertEquals(List.of(Jsl.FILE + " line 2: <step id=\"a\">: <next on=\"*\" to=\"b\"> names no element of the "
                + "job"), problems(job(step("a", "", "<next on=\"*\" to=\"b\"/>"))));
        assertEquals(List.of(Jsl.FILE + " line 2: <step id=\"a\">: <stop on=\"*\" restart=\"b\"> names no element of "
                + "the job"), problems(job(step("a", "", "<stop on=\"*\" restart=\"b\"/>"))));
    }

    @Test
    void aStopMayRestartAtItsOwnElement() {
        assertEquals(List.of(), problems(job(step("a", "", "<stop on=\"*\" restart=\"a\"/>"))));
    }

    @Test
    void anElementCannotGoToItself() {
        assertEquals(List.of(Jsl.FILE + " line 2: <step id=\"a\">: next=\"a\" goes to the element itself"),
                problems(job(step("a", " next=\"a\"", ""))));
    }

    @Test
    void transitionsCannotFormALoop() {
        assertEquals(List.of(Jsl.FILE + " line 2: <step id=\"a\">: transitions form a loop: a -> b -> c -> a"),
                problems(job(step("a", " next=\"b\"", "") + step("b", " next=\"c\"", "")
                        + step("c", "", "<next on=\"AGAIN\" to=\"a\"/><end on=\"*\"/>"))));
    }

    @Test
    void anElementGoesOnlyToOneBesideIt() {
        assertEquals(List.of(Jsl.FILE + " line 2: <step id=\"a\">: next=\"inner\" leaves the job's top level: "
                + "\"inner\" is in \"f\"; an element can only go to one beside it"),
                problems(job(step("a", " next=\"inner\"", "") + "<flow id=\"f\">" + step("inner") + "</flow>")));
        assertEquals(List.of(Jsl.FILE + " line 2: <step id=\"inner\">: next=\"b\" leaves \"f\": \"b\" is in the job's "
                + "top level; an element can only go to one beside it"),
                problems(job("<flow id=\"f\" next=\"b\">" + step("inner", " next=\"b\"", "") + "</flow>" + step("b"))));
    }

    @Test
    void aDecisionIsNeverFirst() {
        assertEquals(List.of(Jsl.FILE + " line 3: <decision id=\"d\">: a decision cannot be the first element of a "
                + "flow: it decides on what ran before it"),
                problems(job("<flow id=\"f\">\n<decision id=\"d\" ref=\"decider\"><end on=\"*\"/></decision></flow>")));
    }

    @Test
    void aJobAndAStepHaveSomethingToDo() {
        assertEquals(List.of(Jsl.FILE + " line 1: <job id=\"test\">: a job needs at least one step, flow, split or "
                + "decision"), problems(job("")));
        assertEquals(List.of(Jsl.FILE + " line 2: <step id=\"a\">: a step needs a <batchlet> or a <chunk>"),
                problems(job("<step id=\"a\"/>")));
    }

    @Test
    void literalAttributesAreInRange() {
        String chunk = "<step id=\"a\" start-limit=\"-1\" allow-start-if-complete=\"yes\">\n"
                + "<chunk item-count=\"0\" time-limit=\"soon\" checkpoint-policy=\"custom\">"
                + "<reader ref=\"r\"/><writer ref=\"w\"/></chunk></step>";
        assertEquals(List.of(
                Jsl.FILE + " line 2: <step id=\"a\">: start-limit=\"-1\" must be a whole number of at least 0",
                Jsl.FILE + " line 2: <step id=\"a\">: allow-start-if-complete=\"yes\" must be true or false",
                Jsl.FILE + " line 3: <chunk>: checkpoint-policy=\"custom\" needs a <checkpoint-algorithm>",
                Jsl.FILE + " line 3: <chunk>: item-count=\"0\" must be a whole number of at least 1",
                Jsl.FILE + " line 3: <chunk>: time-limit=\"soon\" must be a whole number of at least 0"),
                problems(job(chunk)));
    }

    @Test
    void substitutedAttributesAreCheckedOnlyWhenResolved() {
        assertEquals(List.of(), problems(job("<step id=\"a\" next=\"#{jobParameters['then']}\" "
                + "start-limit=\"#{jobParameters['limit']}\"><chunk item-count=\"#{jobParameters['n']}\">"
                + "<reader ref=\"#{jobParameters['reader']}\"/><writer ref=\"w\"/></chunk></step>")));
    }

    @Test
    void aPartitionHasAMapperOrAPlanWithinItsCount() {
        assertEquals(List.of(Jsl.FILE + " line 3: <partition>: a partition needs a <mapper> or a <plan>"),
                problems(job("<step id=\"a\"><batchlet ref=\"b\"/>\n<partition><reducer ref=\"r\"/></partition></step>")));
        assertEquals(List.of(Jsl.FILE + " line 3: <plan>: <properties partition=\"2\"> is beyond the plan's 2 "
                + "partitions"), problems(
                        job("<step id=\"a\"><batchlet ref=\"b\"/><partition>\n<plan partitions=\"2\">"
                                + "<properties partition=\"2\"/></plan></partition></step>")));
    }

    @Test
    void theJobsRestartableIsABoolean() {
        assertEquals(List.of(Jsl.FILE + " line 1: <job id=\"test\">: restartable=\"never\" must be true or false"),
                problems("<job id=\"test\" restartable=\"never\">" + step("a") + "</job>"));
    }

    @Test
    void exceptionClassesAreClassNames() {
        assertEquals(List.of(Jsl.FILE + " line 3: <chunk>: class=\"java.io.IO Exception\" is not a class name"),
                problems(job("<step id=\"a\">\n<chunk><reader ref=\"r\"/><writer ref=\"w\"/><skippable-exception-classes>"
                        + "<include class=\"java.io.IO Exception\"/><exclude class=\"a.b.Outer$Inner\"/>"
                        + "</skippable-exception-classes></chunk></step>")));
    }
}
