package io.durablebatch.runtime.schema;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import java.util.zip.CRC32;

/**
 * The repository's versioned migrations, listed explicitly rather than found by scanning the class
 * path, so they load the same way from a fast-jar, a native image or the IDE.
 * Shipped migrations are never edited: a change is a new, appended version.
 */
public final class SchemaMigrations {

    /** Where the migration scripts live on the class path. */
    public static final String LOCATION = "db/durable-batch/";

    /** Every migration, oldest first. */
    public static final List<String> SCRIPTS = List.of(
            "V1__job_repository_core.sql",
            "V2__flows.sql",
            "V3__partitions.sql",
            "V4__operator_control.sql",
            "V5__retention.sql",
            "V6__open_partition_plans.sql",
            "V7__execution_parameters.sql",
            "V8__leases.sql",
            "V9__listings.sql",
            "V10__long_exit_codes.sql",
            "V11__operations_per_actor.sql",
            "V12__schedules.sql",
            "V13__listing_order.sql",
            "V14__trace_context.sql",
            "V15__step_trace_context.sql",
            "V16__listing_indexes.sql");

    /** The one placeholder the scripts use: the configured table prefix. */
    static final String PREFIX_PLACEHOLDER = "${prefix}";

    private SchemaMigrations() {
    }

    /** The schema version this build of the extension expects: the version of the newest script. */
    public static String expectedVersion() {
        return versionOf(SCRIPTS.get(SCRIPTS.size() - 1));
    }

    /** Every migration of this build, oldest first, each read once from {@code classLoader}. */
    public static List<Migration> load(ClassLoader classLoader) {
        return SCRIPTS.stream().map(script -> {
            String text = read(classLoader, script);
            return new Migration(versionOf(script), descriptionOf(script), script, checksum(text), text);
        }).toList();
    }

    /** The checksum of every script, oldest first, as the build computes them for {@link #described}. */
    public static List<Integer> checksums(ClassLoader classLoader) {
        return load(classLoader).stream().map(Migration::checksum).toList();
    }

    /**
     * Every migration of this build without its script's text, from the checksums the build computed
     * ({@link #checksums}): enough to compare with a history, so that a start on a current schema
     * reads no script. The text is {@code null}; {@link #load} reads it when something is pending.
     */
    public static List<Migration> described(List<Integer> checksums) {
        if (checksums.size() != SCRIPTS.size()) {
            throw new IllegalArgumentException(checksums.size() + " checksums for " + SCRIPTS.size() + " migrations");
        }
        return IntStream.range(0, SCRIPTS.size()).mapToObj(i -> {
            String script = SCRIPTS.get(i);
            return new Migration(versionOf(script), descriptionOf(script), script, checksums.get(i), null);
        }).toList();
    }

    static String versionOf(String script) {
        return script.substring(1, script.indexOf("__"));
    }

    /** As Flyway describes a script in its history: the name between {@code __} and the suffix, underscores as spaces. */
    static String descriptionOf(String script) {
        return script.substring(script.indexOf("__") + 2, script.lastIndexOf('.')).replace('_', ' ');
    }

    /**
     * The checksum Flyway records for a script, so that histories it wrote and ours compare: the CRC-32
     * of the script's lines in UTF-8, without their line ends or a byte order mark, as a signed int.
     */
    public static int checksum(String text) {
        CRC32 crc = new CRC32();
        try (BufferedReader lines = new BufferedReader(new java.io.StringReader(text))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.isEmpty() && line.charAt(0) == '\uFEFF') {
                    line = line.substring(1);
                }
                crc.update(line.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return (int) crc.getValue();
    }

    private static String read(ClassLoader classLoader, String script) {
        try (InputStream in = classLoader.getResourceAsStream(LOCATION + script)) {
            if (in == null) {
                throw new IllegalStateException("migration " + LOCATION + script + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading migration " + LOCATION + script, e);
        }
    }

    /**
     * One versioned migration: its script's text (placeholders unreplaced; {@code null} when only
     * {@link #described}) and the checksum of that text.
     */
    public record Migration(String version, String description, String script, int checksum, String text) {

        /** The SQL to run for the tables under {@code prefix}. */
        String sql(String prefix) {
            String sql = text.replace(PREFIX_PLACEHOLDER, prefix);
            int unknown = sql.indexOf("${");
            if (unknown >= 0) {
                throw new IllegalStateException("migration " + script + " has an unknown placeholder at "
                        + sql.substring(unknown, Math.min(sql.length(), unknown + 30)));
            }
            return sql;
        }

        /** "V3 (partitions)", as messages name a migration. */
        @Override
        public String toString() {
            return "V" + version + " (" + description + ")";
        }
    }
}
