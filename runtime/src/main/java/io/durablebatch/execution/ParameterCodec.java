package io.durablebatch.execution;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import io.durablebatch.Checks;

/**
 * The canonical byte form of typed parameters, shared by job instance keys (identifying
 * parameters) and execution parameters (non-identifying ones): the count, then each parameter in
 * the byte order of its UTF-8 name as length-prefixed name, type tag and value.
 */
final class ParameterCodec {

    public static final int MAX_PARAMETER_NAME_LENGTH = 100;
    public static final int MAX_PARAMETERS = 100;

    private static final Comparator<String> UTF8_ORDER = (a, b) -> Arrays.compareUnsigned(
            a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private ParameterCodec() {
    }

    /** Validates names and values and returns them sorted canonically, unmodifiable. */
    public static Map<String, ParameterValue> canonical(Map<String, ?> parameters) {
        Checks.notNull(parameters, "parameters");
        if (parameters.size() > MAX_PARAMETERS) {
            throw new IllegalArgumentException("parameters must be at most " + MAX_PARAMETERS + ", got "
                    + parameters.size());
        }
        TreeMap<String, ParameterValue> sorted = new TreeMap<>(UTF8_ORDER);
        parameters.forEach((name, value) -> sorted.put(Checks.token(name, "parameter name", MAX_PARAMETER_NAME_LENGTH),
                ParameterValue.of(value)));
        return Collections.unmodifiableMap(new LinkedHashMap<>(sorted));
    }

    /** Writes parameters already in {@link #canonical} order. */
    public static void writeParameters(DataOutputStream out, Map<String, ParameterValue> parameters)
            throws IOException {
        out.writeInt(parameters.size());
        for (Map.Entry<String, ParameterValue> parameter : parameters.entrySet()) {
            writeString(out, parameter.getKey());
            writeValue(out, parameter.getValue());
        }
    }

    public static Map<String, ParameterValue> readParameters(DataInputStream in) throws IOException {
        int count = in.readInt();
        Map<String, ParameterValue> parameters = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String name = readString(in);
            parameters.put(name, readValue(in));
        }
        return parameters;
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

    public static void writeString(DataOutputStream out, String value) throws IOException {
        writeBytes(out, value.getBytes(StandardCharsets.UTF_8));
    }

    public static String readString(DataInputStream in) throws IOException {
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

}
