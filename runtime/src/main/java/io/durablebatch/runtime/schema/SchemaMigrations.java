package io.durablebatch.runtime.schema;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.flywaydb.core.api.ResourceProvider;
import org.flywaydb.core.api.resource.LoadableResource;
import org.flywaydb.core.internal.resolver.ChecksumCalculator;

/**
 * The repository's versioned migrations, listed explicitly rather than found by scanning the class
 * path, so they load the same way from a fast-jar, a native image or the IDE.
 * Shipped migrations are never edited: a change is a new, appended version.
 */
public final class SchemaMigrations implements ResourceProvider {

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
            "V11__operations_per_actor.sql");

    private final ClassLoader classLoader;

    public SchemaMigrations(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    /** The schema version this build of the extension expects: the version of the newest script. */
    public static String expectedVersion() {
        String newest = SCRIPTS.get(SCRIPTS.size() - 1);
        return newest.substring(1, newest.indexOf("__"));
    }

    /** Each script's version and its checksum, as Flyway computes and records it. */
    public Map<String, Integer> checksumsByVersion() {
        Map<String, Integer> checksums = new HashMap<>();
        for (String name : SCRIPTS) {
            checksums.put(name.substring(1, name.indexOf("__")), ChecksumCalculator.calculate(new Script(name)));
        }
        return checksums;
    }

    @Override
    public LoadableResource getResource(String name) {
        return SCRIPTS.contains(name) ? new Script(name) : null;
    }

    @Override
    public Collection<LoadableResource> getResources(String prefix, String[] suffixes) {
        return SCRIPTS.stream()
                .filter(name -> name.startsWith(prefix) && Arrays.stream(suffixes).anyMatch(name::endsWith))
                .map(name -> (LoadableResource) new Script(name))
                .toList();
    }

    private final class Script extends LoadableResource {
        private final String name;

        Script(String name) {
            this.name = name;
        }

        @Override
        public Reader read() {
            InputStream in = classLoader.getResourceAsStream(LOCATION + name);
            if (in == null) {
                throw new IllegalStateException("migration " + LOCATION + name + " is missing from the class path");
            }
            return new InputStreamReader(in, StandardCharsets.UTF_8);
        }

        @Override
        public String getAbsolutePath() {
            return LOCATION + name;
        }

        @Override
        public String getAbsolutePathOnDisk() {
            return null;
        }

        @Override
        public String getFilename() {
            return name;
        }

        @Override
        public String getRelativePath() {
            return name;
        }
    }
}
