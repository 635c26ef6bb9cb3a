package io.durablebatch.execution;

import java.io.ByteArrayInputStream;
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
 * The non-identifying parameters of one attempt: they travel with the job execution and never
 * take part in the instance's identity, so a restart may run with other values (a thread count,
 * a source URL that moved). Typed and encoded like the identifying parameters of a
 * {@link JobInstanceKey}.
 */
public record ExecutionParameters(Map<String, ParameterValue> values) {

    public static final ExecutionParameters NONE = new ExecutionParameters(Map.of());

    public ExecutionParameters {
        values = ParameterCodec.canonical(Checks.notNull(values, "parameters"));
    }

    public static ExecutionParameters of(Map<String, ?> values) {
        Checks.notNull(values, "parameters");
        Map<String, ParameterValue> typed = new LinkedHashMap<>();
        values.forEach((name, value) -> typed.put(name, ParameterValue.of(value)));
        return new ExecutionParameters(typed);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The canonical encoding: the parameter count, then each parameter in name order. */
    public byte[] canonicalBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            ParameterCodec.writeParameters(out, values);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Decodes {@link #canonicalBytes()}, refusing any non-canonical encoding. */
    public static ExecutionParameters fromCanonicalBytes(byte[] bytes) {
        Checks.notNull(bytes, "canonicalBytes");
        ExecutionParameters parameters;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            parameters = new ExecutionParameters(ParameterCodec.readParameters(in));
        } catch (IOException e) {
            throw new IllegalArgumentException("canonicalBytes is truncated", e);
        }
        if (!Arrays.equals(parameters.canonicalBytes(), bytes)) {
            throw new IllegalArgumentException("canonicalBytes is not the canonical encoding of " + parameters);
        }
        return parameters;
    }
}
