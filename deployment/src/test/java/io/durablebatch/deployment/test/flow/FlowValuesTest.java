package io.durablebatch.deployment.test.flow;

import static io.durablebatch.deployment.test.InvalidValues.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.repository.flow.FlowDecisionRequest;
import io.durablebatch.repository.flow.FlowTransitionKind;
import io.durablebatch.repository.flow.InputDigest;
import io.durablebatch.repository.flow.NodeId;
import io.durablebatch.repository.flow.StartLimit;

/** The flow value types validate on construction, naming the field they refuse. */
class FlowValuesTest {

    private static final PlanFingerprint PLAN = PlanFingerprint.of(new byte[32]);
    private static final InputDigest INPUT = InputDigest.of(new byte[32]);

    @Test
    void nodeIdsAreShortTokens() {
        assertEquals("load-customers", NodeId.of("load-customers").value());
        assertInvalid("nodeId must not be blank", () -> NodeId.of(" "));
        assertInvalid("nodeId may contain only", () -> NodeId.of("load customers"));
        assertInvalid("nodeId must be at most 100", () -> NodeId.of("n".repeat(101)));
        assertInvalid("nodeId must not be null", () -> NodeId.of(null));
    }

    @Test
    void startLimitsArePositive() {
        assertInvalid("startLimit must be positive", () -> StartLimit.of(0));
        assertTrue(StartLimit.of(3).allowsStartAfter(2));
        assertFalse(StartLimit.of(3).allowsStartAfter(3));
        assertTrue(StartLimit.UNLIMITED.allowsStartAfter(1_000_000));
    }

    @Test
    void inputDigestsAreExactlyThirtyTwoBytes() {
        assertInvalid("inputDigest must be exactly 32 bytes, got 31", () -> InputDigest.of(new byte[31]));
        assertInvalid("inputDigest must be exactly 32 bytes, got 33", () -> InputDigest.of(new byte[33]));
        assertInvalid("input must not be null", () -> InputDigest.sha256(null));
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                InputDigest.sha256(new byte[0]).hex());
        byte[] bytes = HexFormat.of().parseHex("00".repeat(31) + "01");
        InputDigest digest = InputDigest.of(bytes);
        bytes[31] = 2;
        assertEquals(1, digest.bytes()[31], "the digest keeps its own copy");
        assertEquals(digest, InputDigest.of(digest.bytes()));
    }

    @Test
    void decisionRequestsNameATargetExactlyWhenTheirKindHasOne() {
        assertInvalid("decision.toNode is required for a NEXT decision",
                () -> request(FlowTransitionKind.NEXT, Optional.empty()));
        assertInvalid("decision.toNode is required for a DECISION decision",
                () -> request(FlowTransitionKind.DECISION, Optional.empty()));
        assertInvalid("decision.toNode must be empty for a END decision",
                () -> request(FlowTransitionKind.END, Optional.of(NodeId.of("x"))));
        assertInvalid("decision.toNode must be empty for a FAIL decision",
                () -> request(FlowTransitionKind.FAIL, Optional.of(NodeId.of("x"))));
        request(FlowTransitionKind.STOP, Optional.empty());
        request(FlowTransitionKind.STOP, Optional.of(NodeId.of("resume-here")));
        assertInvalid("decision.inputDigest must not be null", () -> new FlowDecisionRequest(JobExecutionId.of(1),
                NodeId.of("a"), Optional.empty(), FlowTransitionKind.END, PLAN, null, ExitStatus.of("X"), Instant.now()));
    }

    private static FlowDecisionRequest request(FlowTransitionKind kind, Optional<NodeId> target) {
        return new FlowDecisionRequest(JobExecutionId.of(1), NodeId.of("a"), target, kind, PLAN, INPUT,
                ExitStatus.of("COMPLETED"), Instant.now());
    }
}
