package io.durablebatch.execution;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import io.durablebatch.Checks;

/**
 * The identity of a job instance: the job name and its identifying parameters.
 * <p>
 * The key has one canonical byte encoding: a format byte, the length-prefixed UTF-8 job name, the
 * parameter count, then each parameter sorted by the bytes of its UTF-8 name as length-prefixed
 * name, type tag and fixed-width or length-prefixed value. Its SHA-256 digest is what the database
 * makes unique, so two keys are the same instance exactly when their encodings are equal.
 */
public final class JobInstanceKey {

    public static final int MAX_PARAMETER_NAME_LENGTH = ParameterCodec.MAX_PARAMETER_NAME_LENGTH;
    public static final int MAX_PARAMETERS = ParameterCodec.MAX_PARAMETERS;

    private static final byte FORMAT = 1;

    private final JobName jobName;
    private final Map<String, ParameterValue> parameters;
    private final byte[] canonicalBytes;
    private final byte[] digest;

    private JobInstanceKey(JobName jobName, Map<String, ParameterValue> parameters) {
        this.jobName = Checks.notNull(jobName, "jobName");
        this.parameters = ParameterCodec.canonical(parameters);
        this.canonicalBytes = encode(jobName, this.parameters);
        this.digest = Sha256Digest.digestOf(canonicalBytes);
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
            JobName jobName = new JobName(ParameterCodec.readString(in));
            key = new JobInstanceKey(jobName, ParameterCodec.readParameters(in));
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
            ParameterCodec.writeString(out, jobName.value());
            ParameterCodec.writeParameters(out, parameters);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
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
