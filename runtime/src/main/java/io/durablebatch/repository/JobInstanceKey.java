package io.durablebatch.repository;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import io.durablebatch.runtime.Checks;

/**
 * The identity of a job instance: the job name and its identifying parameters.
 * <p>
 * The key has one canonical byte encoding: a format byte, the length-prefixed UTF-8 job name, the
 * parameter count, then each parameter sorted by the bytes of its UTF-8 name as length-prefixed
 * name, type tag and fixed-width or length-prefixed value. Its SHA-256 digest is what the database
 * makes unique, so two keys are the same instance exactly when their encodings are equal.
 */
public final class JobInstanceKey {

    public static final int MAX_PARAMETER_NAME_LENGTH = 100;
    public static final int MAX_PARAMETERS = 100;

    private static final byte FORMAT = 1;
    private static final Comparator<String> UTF8_ORDER = (a, b) -> Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private final JobName jobName;
    private final Map<String, ParameterValue> parameters;
    private final byte[] canonicalBytes;
    private final byte[] digest;

    private JobInstanceKey(JobName jobName, Map<String, ParameterValue> parameters) {
        this.jobName = Checks.notNull(jobName, "jobName");
        Checks.notNull(parameters, "parameters");
        if (parameters.size() > MAX_PARAMETERS) {
            throw new IllegalArgumentException("parameters must be at most " + MAX_PARAMETERS + ", got " + parameters.size());
        }
        TreeMap<String, ParameterValue> sorted = new TreeMap<>(UTF8_ORDER);
        parameters.forEach((name, value) -> sorted.put(Checks.token(name, "parameter name", MAX_PARAMETER_NAME_LENGTH),
                ParameterValue.of(value)));
        this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(sorted));
        this.canonicalBytes = encode(jobName, this.parameters);
        this.digest = sha256(canonicalBytes);
    }

    public static JobInstanceKey of(JobName jobName, Map<String, ?> parameters) {
        Checks.notNull(parameters, "parameters");
        Map<String, ParameterValue> values = new LinkedHashMap<>();
        parameters.forEach((name, value) -> values.put(name, ParameterValue.of(value)));
        return new JobInstanceKey(jobName, values);
    }

    public static JobInstanceKey of(JobName jobName) {
        return new JobInstanceKey(jobName, Map.of());
    }

    public static Builder builder(JobName jobName) {
        return new Builder(jobName);
    }

    /**
     * Decodes a canonical encoding produced by {@link #canonicalBytes()}. Any other encoding of the
     * same key (parameters out of order or repeated, a decimal not in its canonical form, trailing
     * bytes) is refused: one key has exactly one encoding, hence one digest.
     */
    public static JobInstanceKey fromCanonicalBytes(byte[] bytes) {
        Checks.notNull(bytes, "canonicalBytes");
        JobInstanceKey key;
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes))) {
            if (in.readByte() != FORMAT) {
                throw new IllegalArgumentException("canonicalBytes has an unknown format");
            }
            JobName jobName = new JobName(readString(in));
            int count = in.readInt();
            Map<String, ParameterValue> parameters = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                String name = readString(in);
                parameters.put(name, readValue(in));
            }
            key = new JobInstanceKey(jobName, parameters);
        } catch (IOException e) {
            throw new IllegalArgumentException("canonicalBytes is truncated", e);
        }
        if (!Arrays.equals(key.canonicalBytes, bytes)) {
            throw new IllegalArgumentException("canonicalBytes is not the canonical encoding of " + key);
        }
        return key;
    }

    public JobName jobName() {
        return jobName;
    }

    /** The identifying parameters, sorted by name. */
    public Map<String, ParameterValue> parameters() {
        return parameters;
    }

    public byte[] canonicalBytes() {
        return canonicalBytes.clone();
    }

    /** The SHA-256 digest of the canonical encoding: 32 bytes. */
    public byte[] digest() {
        return digest.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof JobInstanceKey that && Arrays.equals(canonicalBytes, that.canonicalBytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(digest);
    }

    @Override
    public String toString() {
        return jobName + parameters.toString();
    }

    private static byte[] encode(JobName jobName, Map<String, ParameterValue> parameters) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            writeString(out, jobName.value());
            out.writeInt(parameters.size());
            for (Map.Entry<String, ParameterValue> parameter : parameters.entrySet()) {
                writeString(out, parameter.getKey());
                writeValue(out, parameter.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void writeValue(DataOutputStream out, ParameterValue value) throws IOException {
        out.writeByte(value.tag());
        if (value instanceof ParameterValue.OfString s) {
            writeString(out, s.value());
        } else if (value instanceof ParameterValue.OfLong l) {
            out.writeLong(l.value());
        } else if (value instanceof ParameterValue.OfDouble d) {
            out.writeLong(Double.doubleToLongBits(d.value()));
        } else if (value instanceof ParameterValue.OfDecimal d) {
            writeBytes(out, d.value().unscaledValue().toByteArray());
            out.writeInt(d.value().scale());
        } else if (value instanceof ParameterValue.OfBoolean b) {
            out.writeBoolean(b.value());
        } else if (value instanceof ParameterValue.OfDate d) {
            out.writeLong(d.value().toEpochDay());
        } else if (value instanceof ParameterValue.OfInstant i) {
            out.writeLong(i.value().getEpochSecond());
            out.writeInt(i.value().getNano());
        }
    }

    private static ParameterValue readValue(DataInputStream in) throws IOException {
        byte tag = in.readByte();
        return switch (tag) {
            case 1 -> new ParameterValue.OfString(readString(in));
            case 2 -> new ParameterValue.OfLong(in.readLong());
            case 3 -> new ParameterValue.OfDouble(Double.longBitsToDouble(in.readLong()));
            case 4 -> new ParameterValue.OfDecimal(new BigDecimal(new BigInteger(readBytes(in)), in.readInt()));
            case 5 -> new ParameterValue.OfBoolean(in.readBoolean());
            case 6 -> new ParameterValue.OfDate(LocalDate.ofEpochDay(in.readLong()));
            case 7 -> new ParameterValue.OfInstant(Instant.ofEpochSecond(in.readLong(), in.readInt()));
            default -> throw new IllegalArgumentException("canonicalBytes has an unknown parameter type tag " + tag);
        };
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        writeBytes(out, value.getBytes(StandardCharsets.UTF_8));
    }

    private static String readString(DataInputStream in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    private static void writeBytes(DataOutputStream out, byte[] value) throws IOException {
        out.writeInt(value.length);
        out.write(value);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("length " + length + " exceeds the remaining input");
        }
        return in.readNBytes(length);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /** Collects identifying parameters by type. */
    public static final class Builder {
        private final JobName jobName;
        private final Map<String, ParameterValue> parameters = new LinkedHashMap<>();

        private Builder(JobName jobName) {
            this.jobName = Checks.notNull(jobName, "jobName");
        }

        public Builder put(String name, Object value) {
            if (parameters.put(Checks.notNull(name, "parameter name"), ParameterValue.of(value)) != null) {
                throw new IllegalArgumentException("parameter '" + name + "' is given twice");
            }
            return this;
        }

        public JobInstanceKey build() {
            return new JobInstanceKey(jobName, parameters);
        }
    }
}
