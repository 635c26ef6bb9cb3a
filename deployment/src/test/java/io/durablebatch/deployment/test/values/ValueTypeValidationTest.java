package io.durablebatch.deployment.test.values;

import static io.durablebatch.deployment.test.InvalidValues.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.durablebatch.execution.ActorRef;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobInstanceId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.OperationId;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RecoveryRequest;
import io.durablebatch.repository.RecoveryResolution;

/**
 * SPEC §1 value types: a null, blank, over-long, malformed or out-of-range value is refused on
 * construction with an {@link IllegalArgumentException} whose message starts with the field's name.
 * (The job instance key has its own test, {@link JobInstanceKeyEncodingTest}.)
 */
class ValueTypeValidationTest {

    private static final String CONTROL = "a\u0007b";
    private static final JobName JOB = JobName.of("job");
    private static final PlanFingerprint FINGERPRINT = PlanFingerprint.of(new byte[32]);
    private static final DefinitionIdentity DEFINITION = new DefinitionIdentity(JOB, "1", FINGERPRINT);
    private static final Instant AT = Instant.parse("2026-11-30T12:00:00Z");

    static Stream<Arguments> badInputs() {
        return Stream.of(
                texts("jobName", JobName.MAX_LENGTH, JobName::new),
                texts("stepName", StepName.MAX_LENGTH, StepName::new),
                texts("actor", ActorRef.MAX_LENGTH, ActorRef::new),
                tokens("operationId", OperationId.MAX_LENGTH, OperationId::new),
                tokens("reason", ReasonCode.MAX_LENGTH, ReasonCode::new),
                texts("exitStatus.code", ExitStatus.MAX_CODE_LENGTH, ExitStatus::new),
                Stream.of(
                        bad("exitStatus.description", "null", () -> new ExitStatus("OK", null)),
                        bad("exitStatus.description", "over-long",
                                () -> new ExitStatus("OK", "d".repeat(ExitStatus.MAX_DESCRIPTION_LENGTH + 1)))),
                texts("failure.type", ExecutionFailure.MAX_TYPE_LENGTH, type -> new ExecutionFailure(type, "")),
                Stream.of(
                        bad("failure.message", "null", () -> new ExecutionFailure("java.lang.Error", null)),
                        bad("failure", "null throwable", () -> ExecutionFailure.of(null))),
                Stream.of(
                        bad("jobInstanceId", "zero", () -> new JobInstanceId(0)),
                        bad("jobInstanceId", "negative", () -> new JobInstanceId(-1)),
                        bad("jobExecutionId", "zero", () -> new JobExecutionId(0)),
                        bad("jobExecutionId", "negative", () -> new JobExecutionId(-5)),
                        bad("stepExecutionId", "zero", () -> new StepExecutionId(0)),
                        bad("stepExecutionId", "negative", () -> new StepExecutionId(Long.MIN_VALUE)),
                        bad("version", "negative", () -> new ExecutionVersion(-1))),
                Stream.of(
                        bad("counters.readCount", "negative", () -> new StepCounters(-1, 0, 0, 0, 0, 0, 0, 0)),
                        bad("counters.writeCount", "negative", () -> new StepCounters(0, -1, 0, 0, 0, 0, 0, 0)),
                        bad("counters.filterCount", "negative", () -> new StepCounters(0, 0, -1, 0, 0, 0, 0, 0)),
                        bad("counters.readSkipCount", "negative", () -> new StepCounters(0, 0, 0, -1, 0, 0, 0, 0)),
                        bad("counters.processSkipCount", "negative", () -> new StepCounters(0, 0, 0, 0, -1, 0, 0, 0)),
                        bad("counters.writeSkipCount", "negative", () -> new StepCounters(0, 0, 0, 0, 0, -1, 0, 0)),
                        bad("counters.commitCount", "negative", () -> new StepCounters(0, 0, 0, 0, 0, 0, -1, 0)),
                        bad("counters.rollbackCount", "negative", () -> new StepCounters(0, 0, 0, 0, 0, 0, 0, -1))),
                Stream.of(
                        bad("planFingerprint", "null", () -> PlanFingerprint.of(null)),
                        bad("planFingerprint", "empty", () -> PlanFingerprint.of(new byte[0])),
                        bad("planFingerprint", "31 bytes", () -> PlanFingerprint.of(new byte[31])),
                        bad("planFingerprint", "33 bytes", () -> PlanFingerprint.of(new byte[33])),
                        bad("planFingerprint", "null hex", () -> PlanFingerprint.ofHex(null)),
                        bad("planFingerprint", "not hex", () -> PlanFingerprint.ofHex("zz".repeat(32))),
                        bad("planFingerprint", "odd hex", () -> PlanFingerprint.ofHex("0".repeat(63))),
                        bad("planFingerprint", "short hex", () -> PlanFingerprint.ofHex("00".repeat(31))),
                        bad("planFingerprint", "long hex", () -> PlanFingerprint.ofHex("00".repeat(33)))),
                Stream.of(
                        bad("checkpoint", "null", () -> Checkpoint.of(null)),
                        bad("checkpoint", "over-long", () -> Checkpoint.of(new byte[Checkpoint.MAX_LENGTH + 1]))),
                texts("definition.revision", DefinitionIdentity.MAX_REVISION_LENGTH,
                        revision -> new DefinitionIdentity(JOB, revision, FINGERPRINT)),
                Stream.of(
                        bad("definition.jobName", "null", () -> new DefinitionIdentity(null, "1", FINGERPRINT)),
                        bad("definition.fingerprint", "null", () -> new DefinitionIdentity(JOB, "1", null)),
                        bad("upgrade.from", "null", () -> new DefinitionUpgrade(null, DEFINITION)),
                        bad("upgrade.to", "null", () -> new DefinitionUpgrade(DEFINITION, null)),
                        bad("upgrade.to", "same as from", () -> new DefinitionUpgrade(DEFINITION, DEFINITION)),
                        bad("upgrade.to", "another job", () -> new DefinitionUpgrade(DEFINITION,
                                new DefinitionIdentity(JobName.of("other"), "2", FINGERPRINT)))),
                Stream.of(
                        bad("transition.target", "null", () -> LifecycleTransition.to(null, AT)),
                        bad("transition.at", "null", () -> LifecycleTransition.to(ExecutionStatus.STARTED, null)),
                        bad("transition.exitStatus", "null", () -> new LifecycleTransition(ExecutionStatus.STARTED, AT,
                                null, Optional.empty(), Optional.empty(), Optional.empty())),
                        bad("transition.failure", "null", () -> new LifecycleTransition(ExecutionStatus.STARTED, AT,
                                Optional.empty(), null, Optional.empty(), Optional.empty())),
                        bad("transition.checkpoint", "null", () -> new LifecycleTransition(ExecutionStatus.STARTED, AT,
                                Optional.empty(), Optional.empty(), null, Optional.empty())),
                        bad("transition.counters", "null", () -> new LifecycleTransition(ExecutionStatus.STARTED, AT,
                                Optional.empty(), Optional.empty(), Optional.empty(), null)),
                        bad("transition.exitStatus", "null with", () -> LifecycleTransition.to(ExecutionStatus.FAILED, AT)
                                .withExitStatus(null)),
                        bad("transition.failure", "null with", () -> LifecycleTransition.to(ExecutionStatus.FAILED, AT)
                                .withFailure(null)),
                        bad("transition.checkpoint", "null with", () -> LifecycleTransition.to(ExecutionStatus.FAILED, AT)
                                .withCheckpoint(null)),
                        bad("transition.counters", "null with", () -> LifecycleTransition.to(ExecutionStatus.FAILED, AT)
                                .withCounters(null))),
                Stream.of(
                        bad("operationId", "null", () -> recovery(null, ActorRef.of("a"), ReasonCode.of("R"),
                                RecoveryResolution.FAILED, ExecutionVersion.INITIAL, AT)),
                        bad("actor", "null", () -> recovery(OperationId.of("op"), null, ReasonCode.of("R"),
                                RecoveryResolution.FAILED, ExecutionVersion.INITIAL, AT)),
                        bad("reason", "null", () -> recovery(OperationId.of("op"), ActorRef.of("a"), null,
                                RecoveryResolution.FAILED, ExecutionVersion.INITIAL, AT)),
                        bad("resolution", "null", () -> recovery(OperationId.of("op"), ActorRef.of("a"),
                                ReasonCode.of("R"), null, ExecutionVersion.INITIAL, AT)),
                        bad("observedVersion", "null", () -> recovery(OperationId.of("op"), ActorRef.of("a"),
                                ReasonCode.of("R"), RecoveryResolution.FAILED, null, AT)),
                        bad("requestedAt", "null", () -> recovery(OperationId.of("op"), ActorRef.of("a"),
                                ReasonCode.of("R"), RecoveryResolution.FAILED, ExecutionVersion.INITIAL, null))))
                .flatMap(cases -> cases);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("badInputs")
    void aBadValueIsRefusedNamingItsField(String field, String input, Executable construction) {
        assertInvalid(field + " ", construction);
    }

    @Test
    void valuesAtTheirBoundsAreAccepted() {
        assertEquals(JobName.MAX_LENGTH, JobName.of("j".repeat(JobName.MAX_LENGTH)).value().length());
        assertEquals("étape 1 / chargement \uD83C\uDF89", StepName.of("étape 1 / chargement \uD83C\uDF89").value());
        assertEquals(Checkpoint.MAX_LENGTH, Checkpoint.of(new byte[Checkpoint.MAX_LENGTH]).length());
        assertEquals(0, Checkpoint.of(new byte[0]).length());
        assertEquals("ab".repeat(32), PlanFingerprint.ofHex("AB".repeat(32)).hex());
        assertEquals(1, JobInstanceId.of(1).value());
        assertEquals(0, ExecutionVersion.INITIAL.value());
        assertEquals("COMPLETED_WITH-SKIPS.v2:x/y@z", ExitStatus.of("COMPLETED_WITH-SKIPS.v2:x/y@z").code());
        // exit codes are free text, as Jakarta Batch's are
        assertEquals("VERY GOOD INVOCATION", ExitStatus.of("VERY GOOD INVOCATION").code());
        assertEquals("FAIL: ids don't match, found: 4 (étape \uD83C\uDF89)",
                ExitStatus.of("FAIL: ids don't match, found: 4 (étape \uD83C\uDF89)").code());
        assertEquals(ExitStatus.MAX_CODE_LENGTH, ExitStatus.of("x y".repeat(700).substring(0, 1999) + "z").code().length());
    }

    @Test
    void anOverLongFailureMessageIsTruncatedNotRefused() {
        ExecutionFailure failure = new ExecutionFailure("java.lang.Error", "m".repeat(10_000));
        assertEquals(ExecutionFailure.MAX_MESSAGE_LENGTH, failure.message().length());
        assertTrue(failure.message().endsWith("\u2026"));
        assertEquals("", ExecutionFailure.of(new RuntimeException()).message());
    }

    @Test
    void aFileSystemFailureIsNamedByItsTypeWhoeverThrowsIt() {
        // its message is the file only: without the type, "/data/orders.csv" says nothing
        assertEquals("java.nio.file.NoSuchFileException: /data/orders.csv",
                ExecutionFailure.of(new NoSuchFileException("/data/orders.csv")).message());
        assertEquals("cannot open the input; caused by java.nio.file.NoSuchFileException: /data/orders.csv",
                ExecutionFailure.of(new UncheckedIOException("cannot open the input",
                        new NoSuchFileException("/data/orders.csv"))).message());
    }

    @Test
    void aDatabaseErrorLeadsWithItsStateAndTheInnermostErrorThenTheStatementBounded() {
        // the shape of a JDBC batch refused by PostgreSQL: the batch quotes the whole statement, its
        // next exception says why (the real one, through the getting-started writer: ImportErrorsTest)
        String statement = "INSERT INTO orders (id, customer, amount) VALUES " + "(1, 'c', 1.5),".repeat(1_000);
        SQLException why = new SQLException("ERROR: duplicate key value violates unique constraint \"orders_pkey\"\n"
                + "  Detail: Key (id)=(7) already exists.", "23505");
        BatchUpdateException batch = new BatchUpdateException("Batch entry 0 " + statement + " was aborted: "
                + why.getMessage() + "  Call getNextException to see other errors in the batch.", "23505", 0, new int[0],
                why);
        batch.setNextException(why);
        String message = ExecutionFailure.of(new IllegalStateException("chunk 1 failed", batch)).message();
        assertTrue(message.startsWith("SQL state 23505: ERROR: duplicate key value violates unique constraint "
                + "\"orders_pkey\" Detail: Key (id)=(7) already exists.; reported as: chunk 1 failed; caused by "
                + "java.sql.BatchUpdateException: Batch entry 0 INSERT INTO orders"), message);
        assertTrue(message.length() < 1_500, message.length() + " characters");
        assertEquals(1, message.split("duplicate key", -1).length - 1, message);
    }

    @Test
    void byteValuesAreDefensivelyCopied() {
        byte[] bytes = new byte[32];
        PlanFingerprint fingerprint = PlanFingerprint.of(bytes);
        Checkpoint checkpoint = Checkpoint.of(bytes);
        bytes[0] = 1;
        fingerprint.bytes()[1] = 1;
        checkpoint.bytes()[1] = 1;
        assertEquals(PlanFingerprint.of(new byte[32]), fingerprint);
        assertEquals(Checkpoint.of(new byte[32]), checkpoint);
    }

    /** The bad inputs every bounded text refuses. */
    private static Stream<Arguments> texts(String field, int maxLength, ThrowingConstructor constructor) {
        return Stream.of(
                bad(field, "null", () -> constructor.construct(null)),
                bad(field, "empty", () -> constructor.construct("")),
                bad(field, "blank", () -> constructor.construct("   ")),
                bad(field, "over-long", () -> constructor.construct("x".repeat(maxLength + 1))),
                bad(field, "leading white space", () -> constructor.construct(" x")),
                bad(field, "trailing white space", () -> constructor.construct("x\t")),
                bad(field, "control character", () -> constructor.construct(CONTROL)),
                bad(field, "line break", () -> constructor.construct("a\nb")),
                bad(field, "unpaired high surrogate", () -> constructor.construct("a\uD83Cb")),
                bad(field, "unpaired low surrogate", () -> constructor.construct("\uDF89b")));
    }

    /** Texts, plus the characters an identifier-like token refuses. */
    private static Stream<Arguments> tokens(String field, int maxLength, ThrowingConstructor constructor) {
        return Stream.concat(texts(field, maxLength, constructor), Stream.of(
                bad(field, "inner space", () -> constructor.construct("a b")),
                bad(field, "quote", () -> constructor.construct("a'b")),
                bad(field, "non-ASCII letter", () -> constructor.construct("é"))));
    }

    private static Arguments bad(String field, String input, Executable construction) {
        return Arguments.of(field, input, construction);
    }

    private static RecoveryRequest recovery(OperationId operationId, ActorRef actor, ReasonCode reason,
            RecoveryResolution resolution, ExecutionVersion observedVersion, Instant requestedAt) {
        return new RecoveryRequest(operationId, actor, reason, resolution, observedVersion, requestedAt);
    }

    @FunctionalInterface
    private interface ThrowingConstructor {
        Object construct(String value);
    }
}
