package io.durablebatch.jakarta.runtime.jsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The job XMLs of the Jakarta Batch 2.1 TCK, read from its jar: every one parses, and the validator
 * refuses exactly those its tests expect to fail at start.
 */
class TckJobXmlsTest {

    /** Each deliberately invalid job XML of the TCK, with the test that expects it to fail. */
    private static final Map<String, String> INVALID_ON_PURPOSE = Map.of(
            "decider_as_first_job_element_fails", "DeciderTests.testDeciderCannotbeFirstElementOnStart",
            "job_executable_sequence_invalid", "JobExecutableSequenceTests",
            "flow_transition_to_step_out_of_scope", "FlowTransitioningTests.testFlowTransitionToStepOutOfScope",
            "split_transition_to_step_out_of_scope", "SplitTransitioningTests.testSplitTransitionToStepOutOfScope");

    private static final Map<String, JslJob> JOBS = new TreeMap<>();
    private static final List<String> NOT_JOBS = new ArrayList<>();

    @BeforeAll
    static void parseAll() throws IOException, URISyntaxException {
        URI jar = TckJobXmlsTest.class.getClassLoader().getResource("META-INF/batch-jobs/job_batchlet_1step.xml")
                .toURI();
        try (FileSystem tck = FileSystems.newFileSystem(jar, Map.of());
                Stream<Path> files = Files.list(tck.getPath(JslParser.JOB_XML_DIRECTORY))) {
            for (Path file : files.sorted().toList()) {
                String resource = JslParser.JOB_XML_DIRECTORY + "/" + file.getFileName();
                try (InputStream in = Files.newInputStream(file)) {
                    JslJob job = JslParser.parse(resource, in);
                    JOBS.put(job.name(), job);
                } catch (JslException e) {
                    NOT_JOBS.add(e.getMessage());
                }
            }
        }
    }

    /** The TCK ships 116 files; one holds only its license comment, and no test uses it. */
    @Test
    void everyJobXmlOfTheTckParses() {
        assertEquals(List.of("META-INF/batch-jobs/chunkSkipOnErrorCallTest.xml: holds no <job> element "
                + "(Premature end of file.)"), NOT_JOBS);
        assertEquals(115, JOBS.size());
    }

    @Test
    void theValidatorRefusesExactlyTheJobsTheTckExpectsToFail() {
        Map<String, List<String>> refused = JOBS.values().stream()
                .collect(Collectors.toMap(JslJob::name, job -> JslValidator.validate(job).stream()
                        .map(JslProblem::message).toList(), (a, b) -> a, TreeMap::new));
        refused.values().removeIf(List::isEmpty);
        assertEquals(new TreeMap<>(INVALID_ON_PURPOSE).keySet(), refused.keySet(), () -> "refused: " + refused);
    }

    @Test
    void theRefusalsSayWhatIsWrongWhere() {
        assertEquals(List.of("META-INF/batch-jobs/job_executable_sequence_invalid.xml line 26: <step id=\"step2\">: "
                + "next=\"unknown\" names no element of the job"), messages("job_executable_sequence_invalid"));
        assertEquals(List.of("META-INF/batch-jobs/decider_as_first_job_element_fails.xml line 18: "
                + "<decision id=\"decider1\">: a decision cannot be the first element of a job: it decides on what ran "
                + "before it"), messages("decider_as_first_job_element_fails"));
        List<String> outOfFlow = messages("flow_transition_to_step_out_of_scope");
        assertEquals(1, outOfFlow.size(), outOfFlow::toString);
        assertTrue(outOfFlow.get(0).contains("<step id=\"flow1step2\">: next=\"step1\" leaves \"flow1\""), outOfFlow::toString);
    }

    @Test
    void substitutionsStayUnresolvedInTheModel() {
        JslStep step1 = (JslStep) JOBS.get("job_properties2").elements().get(0);
        assertEquals("#{jobProperties['myprop1']}", step1.next().orElseThrow());
    }

    private static List<String> messages(String job) {
        return JslValidator.validate(JOBS.get(job)).stream().map(JslProblem::message).toList();
    }
}
