package io.durablebatch.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.durablebatch.schedule.MisfirePolicy;
import io.durablebatch.schedule.OverlapPolicy;
import io.quarkus.runtime.annotations.ConfigDocMapKey;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Durable Batch runtime configuration. */
@ConfigMapping(prefix = "quarkus.durable-batch")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface DurableBatchConfig {

    /** The job repository's schema. */
    Schema schema();

    interface Schema {

        /**
         * Whether to apply the repository's pending schema migrations at startup. When false, the
         * schema is only validated at startup, and startup fails if it is missing migrations.
         */
        @WithDefault("true")
        boolean migrateAtStart();
    }

    /**
     * The name of this node (process) of the application: the first half of the owner token it
     * records on the executions it runs ({@code <node-id>/<boot-id>}). Set it to a name that stays
     * the same across restarts of the process for startup recovery; by default it is the host name.
     */
    Optional<String> nodeId();

    /** The threads that run job executions in this process. */
    Executor executor();

    /** How running executions learn about stop requests. */
    Control control();

    /** Recovery of executions a previous run of this node left behind. */
    Recovery recovery();

    /** Progress logging of running steps. */
    Progress progress();

    /** Liveness leases: how the kernel tells a live owner from a gone one, on the database clock. */
    Lease lease();

    /** Bounds on the repository's statements, so a lost database cannot hang the kernel. */
    Statements statements();

    /** What happens to running executions when the application shuts down. */
    Shutdown shutdown();

    interface Executor {

        /**
         * How many job executions this process runs at the same time. Further launches are
         * recorded at once and wait, STARTING, for a free thread.
         */
        @WithDefault("4")
        int maxConcurrency();
    }

    interface Control {

        /**
         * How often, at least, a running execution observes its control (a durable stop request
         * made by any process). It also observes it at every chunk commit, at no extra cost.
         */
        @WithDefault("5s")
        Duration pollInterval();
    }

    interface Lease {

        /**
         * How long an execution (or a partition worker) stays owned without a sign of life from its
         * owner, measured on the database clock. Owners renew their leases at every chunk commit and
         * at least every third of this duration (or every {@code control.poll-interval}, if shorter);
         * once a lease has run out, any node recovers the execution. Shorter leases recover faster
         * and renew more often; a lease must outlast the longest pause of a live process (GC, network).
         */
        @WithDefault("30s")
        Duration duration();

        /**
         * How often each node looks for executions whose lease ran out. Each look is one indexed
         * statement; nodes never recover the same execution twice.
         */
        @WithDefault("5s")
        Duration sweepInterval();

        /**
         * Whether this node recovers executions whose lease ran out (as FAILED, audited with actor
         * {@code system:lease} and reason {@code OWNER_LOST}).
         */
        @WithDefault("true")
        boolean sweeperEnabled();

        /**
         * How many times an execution whose owner was lost (its lease ran out, or it lost the
         * repository for longer than its lease) is restarted automatically, as a new attempt on a
         * live node, for jobs that do not set their own {@code restartOnOwnerLoss}. 0 leaves the
         * recovered execution FAILED for an operator to restart.
         */
        @WithDefault("0")
        int restartOnOwnerLoss();
    }

    interface Statements {

        /**
         * The longest a repository statement may run, waiting for locks included, before it is
         * cancelled and reported as a transient failure (whole seconds, at least one). Guards the
         * kernel's control and recovery paths against lock waits behind a stalled transaction. It
         * must stay below {@code lease.duration}, so that a renewal waiting on a lock fails before the
         * lease it renews runs out; by default half the lease, at most 30 s. Applies to the
         * repository's own statements only, never to the application's.
         */
        Optional<Duration> timeout();

        /**
         * PostgreSQL's {@code idle_in_transaction_session_timeout} for every session of the
         * repository's datasource, which is the application's too: the server ends a session left
         * idle that long inside a transaction, releasing its row locks. Unset by default (the server's
         * setting stays): the sweeper that recovers a lost owner's executions ends that owner's
         * sessions still inside a transaction itself. Set it where the database role may not end
         * other sessions. Not behind a pooler in transaction mode: a session setting outlives the client.
         */
        Optional<Duration> idleInTransactionTimeout();
    }

    interface Recovery {

        /** Recovery at startup. */
        Startup startup();

        interface Startup {

            /**
             * Whether startup resolves, as FAILED and restartable, the executions that a previous run of
             * this node (same {@code node-id}, another boot) left active: for single-node deployments,
             * where no other process can be running them. Audited with actor {@code system:startup}.
             * Requires an explicit {@code quarkus.durable-batch.node-id}.
             */
            @WithDefault("false")
            boolean enabled();
        }
    }

    interface Shutdown {

        /**
         * How long shutdown waits for running executions to stop. On shutdown every running
         * execution is asked to stop at its next chunk boundary and ends STOPPED, restartable; one
         * still running after this time is left to recovery.
         */
        @WithDefault("30s")
        Duration timeout();
    }

    /** What the kernel does with skipped items. */
    Skips skips();

    interface Skips {

        /**
         * Whether each skipped item is logged at WARN in category {@code io.durablebatch.skips} (the
         * item and the reason), once its chunk committed. The log is the kernel's own skip listener;
         * switch it off when a skip listener of the application reports skips instead. The per-step
         * summary at INFO stays.
         */
        @WithDefault("true")
        boolean log();
    }

    interface Progress {

        /**
         * How often a running step logs its progress (items read and written, rate, and the
         * estimated time left when its reader knows its size). Logged at a chunk commit once this
         * much time has passed since the last line.
         */
        @WithDefault("30s")
        Duration logInterval();
    }

    /** Partitioned steps. */
    Partitions partitions();

    interface Partitions {

        /**
         * The largest number of partitions one partition plan may have. A plan is inserted whole, in
         * one statement, before any worker starts; a larger plan is refused with
         * {@code PARTITION_PLAN_TOO_LARGE} and nothing of it is stored.
         */
        @WithDefault("10000")
        int maxPlanSize();

        /**
         * How many worker threads a partitioned step runs in this process, unless the step sets its
         * own number. Other processes of the application sharing the database add their own.
         */
        @WithDefault("4")
        int localWorkers();

        /** Workers of this process for partition plans published by any process of the application. */
        RemoteWorkers remoteWorkers();

        interface RemoteWorkers {

            /**
             * Whether this process takes part in the partitioned steps that other processes of the
             * application (sharing the database) run: it looks for partition plans with unassigned
             * partitions, of the jobs it defines, and claims and runs their partitions like the
             * parent's own workers do. Also useful on nodes that launch nothing themselves.
             */
            @WithDefault("false")
            boolean enabled();

            /** How often this process looks for partition plans with unassigned partitions. */
            @WithDefault("5s")
            Duration pollInterval();

            /** How many partitions this process runs at the same time for plans of any process. */
            @WithDefault("2")
            int concurrency();
        }
    }

    /** Settings of one job, by its name: a DSL job's name or a Jakarta job XML's id. */
    @ConfigDocMapKey("job-name")
    Map<String, JobSettings> jobs();

    interface JobSettings {

        /** When the job runs by itself. */
        ScheduleSettings schedule();
    }

    interface ScheduleSettings {

        /**
         * The job's schedule: a cron expression in the syntax of {@code quarkus.scheduler.cron-type}
         * (Quartz by default, seconds first: {@code 0 0 2 * * ?}). Each fire time launches the job
         * instance keyed by the parameters below plus the fire time ({@code scheduledFireTime}), once
         * across every replica. Replaces a schedule the job declares in the DSL. Checked at build time
         * when the build knows the value, at startup otherwise; a bad one fails naming this property.
         */
        Optional<String> cron();

        /** The time zone the cron expression is evaluated in ({@code Europe/Berlin}); the JVM's by default. */
        Optional<String> timeZone();

        /** Identifying parameters of every fire, as strings. */
        @ConfigDocMapKey("parameter-name")
        Map<String, String> parameters();

        /** Non-identifying parameters of every fire, as strings. */
        @ConfigDocMapKey("parameter-name")
        Map<String, String> nonIdentifyingParameters();

        /**
         * What the next start does with the fire times that passed while no replica ran: {@code skip}
         * them, run the latest once ({@code run-latest}), or run each ({@code run-all}) up to
         * {@code misfire-limit}. Audited either way; no fire time ever runs twice.
         */
        @WithDefault("run-latest")
        MisfirePolicy misfirePolicy();

        /** How many missed fire times {@code run-all} runs at most, the latest ones. */
        @WithDefault("10")
        int misfireLimit();

        /**
         * What a fire does while the previous fire's execution still runs: {@code skip} it (audited),
         * {@code allow} both to run, or {@code wait} for the previous one to end (until the next fire time).
         */
        @WithDefault("skip")
        OverlapPolicy overlap();

        /** Whether the schedule fires; false keeps a declared schedule (DSL or configured) from firing. */
        @WithDefault("true")
        boolean enabled();
    }
}
