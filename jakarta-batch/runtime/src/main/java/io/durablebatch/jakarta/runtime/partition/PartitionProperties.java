package io.durablebatch.jakarta.runtime.partition;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import io.durablebatch.repository.partition.PartitionPlanEntry;

/**
 * The properties of one partition as the input of its entry in the durable plan, so that a worker
 * of any process reads the same {@code #{partitionPlan['x']}} the plan was made with, also after a
 * restart that resumes the plan. Bounded by the entry's input ({@value PartitionPlanEntry#MAX_INPUT_LENGTH}
 * bytes).
 */
public final class PartitionProperties {

    private PartitionProperties() {
    }

    /**
     * The stored form of {@code properties}.
     *
     * @throws IllegalArgumentException when it is larger than a plan entry may be
     */
    public static byte[] encode(Properties properties, String partition) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            Map<String, String> strings = strings(properties, partition);
            out.writeInt(strings.size());
            for (Map.Entry<String, String> property : strings.entrySet()) {
                out.writeUTF(property.getKey());
                out.writeUTF(property.getValue());
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("the properties of " + partition + " cannot be stored: " + e.getMessage(),
                    e); // writeUTF refuses a string over 64 KiB
        }
        if (bytes.size() > PartitionPlanEntry.MAX_INPUT_LENGTH) {
            throw new IllegalArgumentException("the properties of " + partition + " take " + bytes.size()
                    + " bytes stored, more than the " + PartitionPlanEntry.MAX_INPUT_LENGTH + " a partition plan entry holds");
        }
        return bytes.toByteArray();
    }

    /** The properties {@link #encode} stored, in their order. */
    public static Map<String, String> decode(byte[] stored) {
        Map<String, String> properties = new LinkedHashMap<>();
        if (stored.length == 0) {
            return properties;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(stored))) {
            int count = in.readInt();
            for (int i = 0; i < count; i++) {
                properties.put(in.readUTF(), in.readUTF());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("a partition's stored properties cannot be read", e);
        }
        return properties;
    }

    private static Map<String, String> strings(Properties properties, String partition) {
        Map<String, String> strings = new LinkedHashMap<>();
        if (properties == null) {
            return strings;
        }
        for (String name : new java.util.TreeSet<>(properties.stringPropertyNames())) {
            strings.put(name, properties.getProperty(name));
        }
        if (strings.size() != properties.size()) {
            throw new IllegalArgumentException("the properties of " + partition + " must map strings to strings");
        }
        return strings;
    }
}
