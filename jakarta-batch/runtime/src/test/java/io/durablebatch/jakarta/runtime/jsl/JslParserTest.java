package io.durablebatch.jakarta.runtime.jsl;

import static io.durablebatch.jakarta.runtime.jsl.Jsl.job;
import static io.durablebatch.jakarta.runtime.jsl.Jsl.refusal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.durablebatch.jakarta.runtime.jsl.JslTransition.Kind;

class JslParserTest {

    private static final String BATCHLET_STEP = "<step id=\"s\"><batchlet ref=\"b\"/></step>";

    @Test
    void aFullJobIsReadAsWritten() {
        JslJob job = Jsl.resource("nightly-settlement.xml");
        assertEquals("nightly-settlement", job.name());
        assertEquals("settlement", job.id());
        assertEquals(Optional.of("true"), job.restartable());
        assertEquals(List.of(new JslProperty("region", "#{jobParameters['region']}?:eu;")), job.properties().entries());
        assertEquals("settlementAudit", job.listeners().get(0).ref());

        JslFlow collect = (JslFlow) job.elements().get(0);
        assertEquals(Optional.of("settle"), collect.next());
        assertEquals(Optional.of("stage"), collect.elements().get(0).next());

        JslSplit settle = (JslSplit) job.elements().get(1);
        JslStep cards = (JslStep) settle.flows().get(0).elements().get(0);
        JslChunk chunk = (JslChunk) cards.work().orElseThrow();
        assertEquals("cardReader", chunk.reader().ref());
        assertEquals("#{jobProperties['region']}", chunk.reader().properties().entries().get(0).value());
        assertEquals(Optional.of("cardProcessor"), chunk.processor().map(JslArtifact::ref));
        assertEquals(Optional.of("100"), chunk.itemCount());
        assertEquals(Optional.of("10"), chunk.skipLimit());
        assertEquals(Optional.of("3"), chunk.retryLimit());
        assertEquals(Optional.empty(), chunk.checkpointPolicy());
        assertEquals(List.of("java.text.ParseException"), chunk.skippable().include());
        assertEquals(new JslExceptionFilter(List.of("java.io.IOException"), List.of("java.io.FileNotFoundException")),
                chunk.retryable());
        assertEquals(JslExceptionFilter.NONE, chunk.noRollback());

        JslStep transfers = (JslStep) settle.flows().get(1).elements().get(0);
        assertEquals(Optional.of("2"), transfers.startLimit());
        JslChunk custom = (JslChunk) transfers.work().orElseThrow();
        assertEquals(Optional.of("endOfBatch"), custom.checkpointAlgorithm().map(JslArtifact::ref));
        JslPartition partition = transfers.partition().orElseThrow();
        JslPartitionPlan plan = partition.plan().orElseThrow();
        assertEquals(Optional.of("2"), plan.partitions());
        assertEquals(List.of(Optional.of("0"), Optional.of("1")),
                plan.partitionProperties().stream().map(JslProperties::partition).toList());
        assertEquals(Optional.of("totalsCollector"), partition.collector().map(JslArtifact::ref));
        assertEquals(Optional.of("totalsAnalyzer"), partition.analyzer().map(JslArtifact::ref));
        assertEquals(Optional.empty(), partition.reducer());

        JslDecision route = (JslDecision) job.elements().get(2);
        assertEquals("balanceDecider", route.decider().ref());
        assertEquals(List.of(Kind.NEXT, Kind.STOP, Kind.FAIL),
                route.transitions().stream().map(JslTransition::kind).toList());
        JslTransition stop = route.transitions().get(1);
        assertEquals(Optional.of("WAITING_FOR_REVIEW"), stop.exitStatus());
        assertEquals(Optional.of("report"), stop.restart());

        JslStep report = (JslStep) job.elements().get(3);
        assertEquals(Optional.of("true"), report.allowStartIfComplete());
        assertEquals(Kind.END, report.transitions().get(0).kind());
        assertEquals(List.of(), JslValidator.validate(job));
    }

    @Test
    void theNamespaceOfBatchOneAndNoneAreRead() {
        assertEquals("test", Jsl.parse("<job id=\"test\" xmlns=\"http://xmlns.jcp.org/xml/ns/javaee\" version=\"1.0\">"
                + BATCHLET_STEP + "</job>").id());
        assertEquals("test", Jsl.parse("<job id=\"test\">" + BATCHLET_STEP + "</job>").id());
    }

    @Test
    void anUnknownElementIsRefusedWithWhatIsAllowed() {
        assertEquals(Jsl.FILE + " line 3: <chunky>: not allowed in <step>; allowed: [batchlet, chunk, end, fail, "
                + "listeners, next, partition, properties, stop]", refusal(job("<step id=\"s\">\n<chunky/></step>")));
    }

    @Test
    void anUnknownAttributeIsRefusedWithWhatIsAllowed() {
        assertEquals(Jsl.FILE + " line 2: <step>: unknown attribute 'retries'; allowed: [id, next, start-limit, "
                + "allow-start-if-complete]", refusal(job("<step id=\"s\" retries=\"3\"><batchlet ref=\"b\"/></step>")));
    }

    @Test
    void aMissingRequiredAttributeIsNamed() {
        assertEquals(Jsl.FILE + " line 2: <batchlet>: missing required attribute 'ref'",
                refusal(job("<step id=\"s\"><batchlet/></step>")));
        assertEquals(Jsl.FILE + " line 2: <next on=\"*\">: missing required attribute 'to'",
                refusal(job("<step id=\"s\"><batchlet ref=\"b\"/><next on=\"*\"/></step>")));
        assertEquals(Jsl.FILE + " line 1: <job>: missing required attribute 'id'", refusal("<job>"
                + BATCHLET_STEP + "</job>"));
    }

    @Test
    void childrenMustComeInTheSchemasOrder() {
        assertEquals(Jsl.FILE + " line 4: <properties>: must come before <batchlet> in <step>",
                refusal(job("<step id=\"s\">\n<batchlet ref=\"b\"/>\n<properties/></step>")));
        assertEquals(Jsl.FILE + " line 3: <chunk>: only one of [batchlet, chunk] may appear in <step>",
                refusal(job("<step id=\"s\"><batchlet ref=\"b\"/>\n<chunk/></step>")));
        assertEquals(Jsl.FILE + " line 3: <reader>: may appear only once in <chunk>",
                refusal(job("<step id=\"s\"><chunk><reader ref=\"r\"/>\n<reader ref=\"r\"/></chunk></step>")));
    }

    @Test
    void aChunkNeedsAReaderAndAWriter() {
        assertEquals(Jsl.FILE + " line 3: <chunk>: missing <writer>",
                refusal(job("<step id=\"s\">\n<chunk><reader ref=\"r\"/></chunk></step>")));
    }

    @Test
    void aMalformedSubstitutionIsRefusedWhereItIsWritten() {
        assertEquals(Jsl.FILE + " line 4: <property name=\"p\">: attribute value: bad substitution at character 3 of "
                + "\"#{jobParams['x']}\": unknown operator 'jobParams', expected jobParameters, jobProperties, "
                + "systemProperties or partitionPlan",
                refusal(job("<properties>\n\n<property name=\"p\" "
                        + "value=\"#{jobParams['x']}\"/></properties>" + BATCHLET_STEP)));
        assertTrue(refusal(job("<step id=\"s\" next=\"#{jobParameters['x'}\"><batchlet ref=\"b\"/></step>"))
                .contains("<step id=\"s\">: attribute next: bad substitution at character 20 of "
                        + "\"#{jobParameters['x'}\": expected ]} after the name"));
    }

    @Test
    void onlyAPlansPropertiesHaveAPartition() {
        assertEquals(Jsl.FILE + " line 2: <properties>: unknown attribute 'partition'; <properties> has none",
                refusal(job("<properties partition=\"0\"/>" + BATCHLET_STEP)));
    }

    @Test
    void theRootMustBeAJobOfAJslVersion() {
        assertEquals(Jsl.FILE + " line 1: <batch-artifacts>: the root element of a job XML must be <job>",
                refusal("<batch-artifacts/>"));
        assertEquals(Jsl.FILE + " line 1: <job id=\"test\">: version=\"3.0\" is not a JSL version; expected 2.0 (or 1.0)",
                refusal("<job id=\"test\" version=\"3.0\">" + BATCHLET_STEP + "</job>"));
    }

    @Test
    void elementsOfAnotherNamespaceAreRefused() {
        assertEquals(Jsl.FILE + " line 2: <step>: namespace urn:other is not JSL's (https://jakarta.ee/xml/ns/jakartaee)",
                refusal(job("<step xmlns=\"urn:other\" id=\"s\"/>")));
    }

    @Test
    void textIsRefused() {
        assertEquals(Jsl.FILE + " line 2: <step id=\"s\">: text is not allowed here: \"run fast\"",
                refusal(job("<step id=\"s\">run fast<batchlet ref=\"b\"/></step>")));
    }

    @Test
    void brokenXmlIsRefusedWithItsLine() {
        String refusal = refusal(job("<step id=\"s\">\n<batchlet ref=\"b\">\n</step>"));
        assertTrue(refusal.startsWith(Jsl.FILE + " line 4: not well-formed XML: "), refusal);
        assertTrue(refusal("").startsWith(Jsl.FILE + ": holds no <job> element"), refusal(""));
    }

    @Test
    void entitiesOfADocumentTypeAreNotExpanded() {
        String refusal = refusal("<!DOCTYPE job [<!ENTITY ref \"evil\">]>\n<job id=\"test\"><step id=\"s\">"
                + "<batchlet ref=\"&ref;\"/></step></job>");
        assertTrue(refusal.contains("not well-formed XML") || refusal.contains("holds no <job>"), refusal);
    }

    @Test
    void anIdIsFixedWhenWritten() {
        assertEquals(Jsl.FILE + " line 2: <step id=\"#{jobParameters['id']}\">: an id cannot be a substitution",
                refusal(job("<step id=\"#{jobParameters['id']}\"><batchlet ref=\"b\"/></step>")));
    }
}
