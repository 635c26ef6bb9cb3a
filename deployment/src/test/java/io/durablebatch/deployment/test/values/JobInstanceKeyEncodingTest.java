package io.durablebatch.deployment.test.values;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.ParameterValue;

/**
 * SPEC §2 identity: a job instance key has one canonical, typed, order-independent encoding that
 * round-trips, and its SHA-256 digest is what the database makes unique.
 */
class JobInstanceKeyEncodingTest {

    private static final JobName JOB = JobName.of("import-orders");

    @Test
    void theEncodingDoesNotDependOnTheOrderOfTheParameters() {
        Map<String, Object> forward = new LinkedHashMap<>();
        forward.put("a", 1L);
        forward.put("b", "two");
        forward.put("Z", true);
        Map<String, Object> backward = new LinkedHashMap<>();
        backward.put("Z", true);
        backward.put("b", "two");
        backward.put("a", 1L);
        JobInstanceKey built = JobInstanceKey.builder(JOB).put("b", "two").put("Z", true).put("a", 1L).build();

        for (JobInstanceKey other : List.of(JobInstanceKey.of(JOB, backward), built)) {
            JobInstanceKey key = JobInstanceKey.of(JOB, forward);
            assertEquals(key, other);
            assertEquals(key.hashCode(), other.hashCode());
            assertArrayEquals(key.canonicalBytes(), other.canonicalBytes());
            assertArrayEquals(key.digest(), other.digest());
        }
        assertEquals(List.of("Z", "a", "b"), List.copyOf(JobInstanceKey.of(JOB, backward).parameters().keySet()),
                "parameters are sorted by the bytes of their names");
    }

    @Test
    void theTypeIsPartOfTheIdentity() {
        assertDistinct(Map.of("run", "1"), Map.of("run", 1L));
        assertDistinct(Map.of("run", 1L), Map.of("run", 1.0d));
        assertDistinct(Map.of("run", 1.5d), Map.of("run", new BigDecimal("1.5")));
        assertDistinct(Map.of("run", true), Map.of("run", "true"));
        assertDistinct(Map.of("run", LocalDate.ofEpochDay(3)), Map.of("run", 3L));
        assertDistinct(Map.of("run", Instant.ofEpochSecond(3)), Map.of("run", LocalDate.ofEpochDay(3)));
        assertEquals(key(Map.of("run", 1)), key(Map.of("run", 1L)), "integers are longs");
        assertEquals(key(Map.of("run", (short) 1)), key(Map.of("run", 1L)));
        assertEquals(key(Map.of("run", 1.5f)), key(Map.of("run", 1.5d)), "floats are doubles");
    }

    @Test
    void decimalsCompareByValue() {
        assertEquals(key(Map.of("amount", new BigDecimal("1.50"))), key(Map.of("amount", new BigDecimal("1.5"))));
        assertEquals(key(Map.of("amount", new BigDecimal("100"))), key(Map.of("amount", new BigDecimal("1E+2"))));
        assertEquals(key(Map.of("amount", new BigDecimal("0.000"))), key(Map.of("amount", BigDecimal.ZERO)));
        assertEquals(key(Map.of("amount", new BigDecimal("-0E+5"))), key(Map.of("amount", BigDecimal.ZERO)));
        assertDistinct(Map.of("amount", new BigDecimal("1.5")), Map.of("amount", new BigDecimal("1.05")));
        assertDistinct(Map.of("amount", new BigDecimal("15")), Map.of("amount", new BigDecimal("1.5")));
    }

    @Test
    void everyTypeRoundTripsThroughTheCanonicalBytes() {
        Map<String, Object> parameters = new HashMap<>();
        parameters.put("string", "Grüße, 世界 🎉");
        parameters.put("empty", "");
        parameters.put("long", Long.MIN_VALUE);
        parameters.put("double", -0.125d);
        parameters.put("infinity", Double.POSITIVE_INFINITY);
        parameters.put("decimal", new BigDecimal("-123456789012345678901234567890.000000000000000000001"));
        parameters.put("boolean", false);
        parameters.put("date", LocalDate.of(1970, 1, 1).minusDays(1));
        parameters.put("instant", Instant.parse("2026-11-30T23:59:59.999999999Z"));
        parameters.put("before-epoch", Instant.parse("1969-12-31T23:59:59.5Z"));
        JobInstanceKey key = JobInstanceKey.of(JOB, parameters);

        JobInstanceKey decoded = JobInstanceKey.fromCanonicalBytes(key.canonicalBytes());

        assertEquals(key, decoded);
        assertEquals(key.parameters(), decoded.parameters());
        assertEquals(key.jobName(), decoded.jobName());
        assertArrayEquals(key.canonicalBytes(), decoded.canonicalBytes());
        assertEquals(JobInstanceKey.of(JOB), JobInstanceKey.fromCanonicalBytes(JobInstanceKey.of(JOB).canonicalBytes()));
    }

    @Test
    void theDigestIsTheSha256OfTheCanonicalBytes() throws Exception {
        JobInstanceKey key = key(Map.of("run", 1L));
        assertEquals(32, key.digest().length);
        assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(key.canonicalBytes()), key.digest());
    }

    @Test
    void distinctJobsNamesAndValuesMakeDistinctKeys() {
        assertNotEquals(JobInstanceKey.of(JobName.of("a"), Map.of("run", 1L)),
                JobInstanceKey.of(JobName.of("b"), Map.of("run", 1L)));
        assertNotEquals(JobInstanceKey.of(JOB), key(Map.of("run", 1L)));
        assertDistinct(Map.of("run", 1L), Map.of("run", 2L));
        assertDistinct(Map.of("run", 1L), Map.of("ran", 1L));
        // Length prefixes keep the boundaries: neither names nor values can leak into each other.
        assertDistinct(Map.of("a", "bc"), Map.of("ab", "c"));
        assertNotEquals(JobInstanceKey.of(JobName.of("ab"), Map.of("c", "d")),
                JobInstanceKey.of(JobName.of("a"), Map.of("bc", "d")));
    }

    @Test
    void theKeyIsImmutable() {
        JobInstanceKey key = key(Map.of("run", 1L));
        byte[] bytes = key.canonicalBytes();
        byte[] digest = key.digest();
        bytes[0] = 42;
        digest[0] = (byte) (digest[0] + 1);
        assertEquals(key(Map.of("run", 1L)), key);
        assertFalse(Arrays.equals(digest, key.digest()));
        assertThrows(UnsupportedOperationException.class, () -> key.parameters().put("x", new ParameterValue.OfLong(1)));
    }

    static Stream<Arguments> badKeys() {
        Map<String, Object> tooMany = new HashMap<>();
        for (int i = 0; i <= JobInstanceKey.MAX_PARAMETERS; i++) {
            tooMany.put("p" + i, (long) i);
        }
        Map<String, Object> nullName = new HashMap<>();
        nullName.put(null, 1L);
        Map<String, Object> nullValue = new HashMap<>();
        nullValue.put("run", null);
        return Stream.of(
                bad("jobName", "null job", () -> JobInstanceKey.of(null, Map.of())),
                bad("jobName", "null job in builder", () -> JobInstanceKey.builder(null)),
                bad("parameters", "null parameters", () -> JobInstanceKey.of(JOB, null)),
                bad("parameters", "too many", () -> JobInstanceKey.of(JOB, tooMany)),
                bad("parameter name", "null name", () -> JobInstanceKey.of(JOB, nullName)),
                bad("parameter name", "blank name", () -> JobInstanceKey.of(JOB, Map.of(" ", 1L))),
                bad("parameter name", "name with a space", () -> JobInstanceKey.of(JOB, Map.of("run id", 1L))),
                bad("parameter name", "over-long name", () -> JobInstanceKey.of(JOB,
                        Map.of("n".repeat(JobInstanceKey.MAX_PARAMETER_NAME_LENGTH + 1), 1L))),
                bad("parameter name", "null name in builder", () -> JobInstanceKey.builder(JOB).put(null, 1L)),
                bad("parameter", "name given twice", () -> JobInstanceKey.builder(JOB).put("run", 1L).put("run", 2L)),
                bad("parameter value", "null value", () -> JobInstanceKey.of(JOB, nullValue)),
                bad("parameter value", "unsupported type", () -> JobInstanceKey.of(JOB, Map.of("run", new Object()))),
                bad("parameter value", "NaN", () -> JobInstanceKey.of(JOB, Map.of("run", Double.NaN))),
                bad("parameter value", "over-long string", () -> JobInstanceKey.of(JOB,
                        Map.of("run", "v".repeat(ParameterValue.OfString.MAX_LENGTH + 1)))),
                bad("parameter value", "unpaired surrogate", () -> JobInstanceKey.of(JOB, Map.of("run", "a\uD800"))),
                bad("canonicalBytes", "null bytes", () -> JobInstanceKey.fromCanonicalBytes(null)),
                bad("canonicalBytes", "no bytes", () -> JobInstanceKey.fromCanonicalBytes(new byte[0])),
                bad("canonicalBytes", "unknown format", () -> JobInstanceKey.fromCanonicalBytes(
                        encode(2, "job", 0, out -> {
                        }))),
                bad("canonicalBytes", "truncated", () -> {
                    byte[] whole = key(Map.of("run", 1L)).canonicalBytes();
                    JobInstanceKey.fromCanonicalBytes(Arrays.copyOf(whole, whole.length - 1));
                }),
                bad("canonicalBytes", "length beyond the input", () -> JobInstanceKey.fromCanonicalBytes(
                        encode(1, "job", 1, out -> {
                            out.writeInt(1000);
                            out.writeByte('x');
                        }))),
                bad("canonicalBytes", "unknown type tag", () -> JobInstanceKey.fromCanonicalBytes(
                        encode(1, "job", 1, out -> {
                            writeString(out, "run");
                            out.writeByte(99);
                            out.writeLong(1);
                        }))),
                bad("canonicalBytes", "trailing bytes", () -> JobInstanceKey.fromCanonicalBytes(
                        concat(key(Map.of("run", 1L)).canonicalBytes(), new byte[] { 0 }))),
                bad("canonicalBytes", "parameters out of order", () -> JobInstanceKey.fromCanonicalBytes(
                        encode(1, "job", 2, out -> {
                            writeLong(out, "b", 1);
                            writeLong(out, "a", 2);
                        }))),
                bad("canonicalBytes", "a parameter given twice", () -> JobInstanceKey.fromCanonicalBytes(
                        encode(1, "job", 2, out -> {
                            writeLong(out, "a", 1);
                            writeLong(out, "a", 2);
                        }))),
                bad("canonicalBytes", "decimal not in canonical form", () -> JobInstanceKey.fromCanonicalBytes(
                        encode(1, "job", 1, out -> {
                            writeString(out, "amount");
                            out.writeByte(4);
                            byte[] unscaled = BigDecimal.valueOf(150).toBigInteger().toByteArray();
                            out.writeInt(unscaled.length);
                            out.write(unscaled);
                            out.writeInt(2); // 1.50, whose canonical form is 1.5
                        }))),
                bad("canonicalBytes", "negative parameter count", () -> JobInstanceKey.fromCanonicalBytes(
                        encode(1, "job", -1, out -> {
                        }))));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("badKeys")
    void aBadKeyIsRefusedNamingTheField(String field, String input, Executable construction) {
        IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class, construction);
        assertTrue(refusal.getMessage().startsWith(field + " "), () -> "message names '" + field + "': "
                + refusal.getMessage());
    }

    private static JobInstanceKey key(Map<String, ?> parameters) {
        return JobInstanceKey.of(JOB, parameters);
    }

    private static void assertDistinct(Map<String, ?> a, Map<String, ?> b) {
        JobInstanceKey first = key(a);
        JobInstanceKey second = key(b);
        assertNotEquals(first, second);
        assertFalse(Arrays.equals(first.canonicalBytes(), second.canonicalBytes()));
        assertFalse(Arrays.equals(first.digest(), second.digest()));
    }

    private static Arguments bad(String field, String input, Executable construction) {
        return Arguments.of(field, input, construction);
    }

    @FunctionalInterface
    private interface Body {
        void write(DataOutputStream out) throws IOException;
    }

    /** Hand-made encodings, to feed the decoder what the encoder never produces. */
    private static byte[] encode(int format, String job, int count, Body body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(format);
            writeString(out, job);
            out.writeInt(count);
            body.write(out);
        }
        return bytes.toByteArray();
    }

    private static void writeLong(DataOutputStream out, String name, long value) throws IOException {
        writeString(out, name);
        out.writeByte(2);
        out.writeLong(value);
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }
}
