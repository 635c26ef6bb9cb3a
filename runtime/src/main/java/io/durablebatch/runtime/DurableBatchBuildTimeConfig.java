package io.durablebatch.runtime;

import java.util.Optional;

import io.durablebatch.runtime.schema.TablePrefix;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Durable Batch configuration fixed at build time. */
@ConfigMapping(prefix = "quarkus.durable-batch")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface DurableBatchBuildTimeConfig {

    /**
     * The name of the datasource that holds the job repository; the default datasource if not set.
     * The repository joins the JTA transactions of this datasource, so it should be the one the
     * application's batch writers use. The build fails, naming the configured datasources, if it
     * names none of them.
     */
    Optional<String> datasource();

    /**
     * The Hibernate ORM persistence unit that maps the repository's tables (its entities join it at
     * build time); by default the one persistence unit that uses the repository's datasource. The
     * build fails, naming the datasource, if that unit does not exist or uses another datasource.
     */
    Optional<String> persistenceUnit();

    /** The job repository's schema. */
    Schema schema();

    /** Health integration. */
    Health health();

    /** The execution kernel. */
    Kernel kernel();

    interface Schema {

        /**
         * The prefix of every table the repository owns, including its own migration history table
         * ({@code <prefix>schema_history}). Lower-case letters, digits and underscores, starting with
         * a letter, at most 20 characters. Fixed at build time: the entities that map the tables take
         * their names from it. Changing it on an existing database starts an empty repository.
         */
        @WithDefault(TablePrefix.DEFAULT)
        String tablePrefix();
    }

    interface Kernel {

        /**
         * Whether the execution kernel is part of the application: the job DSL's definitions, the
         * {@code JobOperator}, the lease sweeper and partition workers. Without it the application
         * has the job repository alone, as a tool that reads or maintains the metadata of jobs run
         * elsewhere would; nothing of the kernel is registered, and nothing starts a thread.
         */
        @WithDefault("true")
        boolean enabled();
    }

    interface Health {

        /**
         * Whether the readiness checks are published when the application has
         * {@code quarkus-smallrye-health}: the repository is reachable and its schema is at the
         * version this extension expects; and, with the kernel, this node can renew its leases (DOWN
         * while it holds leases it could not renew for longer than the lease).
         */
        @WithDefault("true")
        boolean enabled();
    }
}
