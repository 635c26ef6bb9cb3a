package io.durablebatch.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import io.durablebatch.Checks;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.PlanFingerprint;
import io.durablebatch.listener.BatchListener;
import io.durablebatch.listener.ChunkListener;
import io.durablebatch.listener.JobEndListener;
import io.durablebatch.listener.JobListener;
import io.durablebatch.listener.Listeners;
import io.durablebatch.listener.SkipListener;
import io.durablebatch.listener.StepListener;
import io.durablebatch.schedule.Schedule;

/**
 * Declares a job: its name, revision and flow of nodes. Expose the result as a CDI bean (a
 * {@code @Produces} method returning {@link JobDefinition}); the kernel discovers it at startup.
 *
 * <pre>
 * &#64;Produces
 * JobDefinition importOrders() {
 *     return Job.named("importOrders").revision("1")
 *             .start(tasklet("prepare", ctx -&gt; RepeatStatus.FINISHED))
 *             .next(chunk("load", 100).reader(ctx -&gt; reader).writer(ctx -&gt; writer).build())
 *             .on("EMPTY").end()
 *             .build();
 * }
 * </pre>
 *
 * The flow always has a current node: {@code start}, {@code next} and {@code on(..).to(..)} move it
 * to the node they add, {@code from} moves it back to an earlier one. {@code next(node)} is
 * {@code on("COMPLETED").to(node)}. A node without transitions ends the job with its own outcome;
 * a node with transitions that match none of its exit codes fails the job. Of the transitions that
 * match, the most specific pattern is taken, or the first declared with
 * {@link Builder#transitionsInDeclarationOrder()}.
 */
public final class Job {

    /** The listener kinds a job calls: its executions', and those of its chunk steps. */
    private static final List<Class<? extends BatchListener>> LISTENED = listened();

    private static List<Class<? extends BatchListener>> listened() {
        List<Class<? extends BatchListener>> kinds = new ArrayList<>(ChunkStep.LISTENED);
        kinds.add(0, JobListener.class);
        kinds.add(1, JobEndListener.class);
        return List.copyOf(kinds);
    }

    private Job() {
    }

    public static Builder named(String name) {
        return new Builder(JobName.of(name));
    }

    /** The job's identity settings, before its flow. */
    public static final class Builder {
        private final JobName name;
        private String revision = "1";
        private final List<DefinitionIdentity> upgradesFrom = new ArrayList<>();
        private OptionalInt restartOnOwnerLoss = OptionalInt.empty();
        private Listeners listeners = Listeners.NONE;
        private boolean inDeclarationOrder;
        private Optional<Schedule> schedule = Optional.empty();

        private Builder(JobName name) {
            this.name = name;
        }

        /**
         * The user's label of this definition, recorded with every execution (default {@code 1}).
         * Change it whenever a restart from checkpoints of the old definition would be wrong.
         */
        public Builder revision(String revision) {
            this.revision = Checks.text(revision, "revision", DefinitionIdentity.MAX_REVISION_LENGTH);
            return this;
        }

        /**
         * Declares that checkpoints made under the definition with this revision and plan
         * fingerprint (as logged at startup) may be restarted under this one. Registered with the
         * repository at startup; edges do not compose.
         */
        public Builder upgradesFrom(String revision, String fingerprintHex) {
            upgradesFrom.add(new DefinitionIdentity(name, revision, PlanFingerprint.ofHex(fingerprintHex)));
            return this;
        }

        /**
         * Restarts an execution of this job automatically, at most {@code maxRestarts} times per
         * instance, when its owner is lost: its process died or hung past its lease, or lost the
         * repository for longer than its lease. The new attempt runs on a live node and resumes
         * from the committed checkpoints. Overrides {@code quarkus.durable-batch.lease.restart-on-owner-loss};
         * 0 switches it off for this job.
         */
        public Builder restartOnOwnerLoss(int maxRestarts) {
            if (maxRestarts < 0) {
                throw new IllegalArgumentException("restartOnOwnerLoss must be 0 or more, got " + maxRestarts);
            }
            this.restartOnOwnerLoss = OptionalInt.of(maxRestarts);
            return this;
        }

        /**
         * Adds a listener of this job's executions, called after the CDI listener beans, in
         * declaration order (the "after" callbacks in reverse order). Its {@link StepListener},
         * {@link ChunkListener}, {@link SkipListener} and item listener sides apply to every step of
         * the job, before the step's own listeners. Not part of the plan: adding one changes no
         * fingerprint.
         */
        public Builder listener(BatchListener listener) {
            listeners = listeners.with(listener, "job '" + name + "'", LISTENED);
            return this;
        }

        /**
         * Makes every node take the first of its transitions whose pattern matches, in the order they
         * were declared, instead of the most specific one (the rule of Jakarta Batch's job XML). The
         * plan records each node's transitions in the order they are evaluated, so the fingerprint
         * tells apart two definitions that would route differently, and no others.
         */
        public Builder transitionsInDeclarationOrder() {
            this.inDeclarationOrder = true;
            return this;
        }

        /**
         * Runs this job by itself at the fire times of {@code schedule}, once per fire time across
         * every replica. Not part of the plan; configuration ({@code quarkus.durable-batch.jobs."name".schedule})
         * replaces it.
         */
        public Builder schedule(Schedule schedule) {
            this.schedule = Optional.of(Checks.notNull(schedule, "schedule"));
            return this;
        }

        public Flow start(Node node) {
            return new Flow(name, revision, upgradesFrom, restartOnOwnerLoss, listeners, inDeclarationOrder, schedule,
                    Checks.notNull(node, "start node"));
        }
    }

    /** The flow under construction; {@link #build()} validates it. */
    public static final class Flow {
        private final JobName name;
        private final String revision;
        private final List<DefinitionIdentity> upgradesFrom;
        private final OptionalInt restartOnOwnerLoss;
        private final Listeners listeners;
        private final boolean inDeclarationOrder;
        private final Optional<Schedule> schedule;
        private final FlowDeclarations declared;

        private Flow(JobName name, String revision, List<DefinitionIdentity> upgradesFrom, OptionalInt restartOnOwnerLoss,
                Listeners listeners, boolean inDeclarationOrder, Optional<Schedule> schedule, Node start) {
            this.name = name;
            this.schedule = schedule;
            this.inDeclarationOrder = inDeclarationOrder;
            this.listeners = listeners;
            this.restartOnOwnerLoss = restartOnOwnerLoss;
            this.revision = revision;
            this.upgradesFrom = List.copyOf(upgradesFrom);
            this.declared = new FlowDeclarations(start);
        }

        /** {@code on("COMPLETED").to(node)}: continue with {@code node} when the current one completes. */
        public Flow next(Node node) {
            return on("COMPLETED").to(node);
        }

        /** Starts a transition from the current node, taken when its exit code matches {@code pattern}. */
        public TransitionBuilder on(String pattern) {
            return new TransitionBuilder(this, ParameterizedValue.literal(ExitCodePattern.of(pattern).value()));
        }

        /**
         * Starts a transition from the current node, taken when its exit code matches the pattern
         * {@code pattern} resolves to in the execution (the plan records its written form).
         */
        public TransitionBuilder on(ParameterizedValue pattern) {
            return new TransitionBuilder(this, Checks.notNull(pattern, "pattern"));
        }

        /** Makes {@code node} the current node, declaring it if needed. */
        public Flow from(Node node) {
            declared.from(node);
            return this;
        }

        /** Makes the node with this id the current node. */
        public Flow from(String nodeId) {
            declared.from(nodeId);
            return this;
        }

        /** Validates the flow; fails with a {@link JobDefinitionException} naming the job and node. */
        public JobDefinition build() {
            return JobDefinition.validated(name, revision, upgradesFrom, declared.start, declared.nodes,
                    declared.duplicates, declared.referencedIds, declared.transitions, inDeclarationOrder,
                    restartOnOwnerLoss, listeners, schedule);
        }

        private Flow add(ParameterizedValue on, TransitionKind kind, Optional<ParameterizedValue> to,
                Optional<ParameterizedValue> exitStatus) {
            declared.add(on, kind, to, exitStatus);
            return this;
        }
    }

    /**
     * The second half of {@code on(pattern)}: what to do when it matches. Every target and exit code
     * may also be a {@link ParameterizedValue}, resolved per execution: a target so given must name
     * a node of the flow when it is resolved, and leaves the current node as it was.
     */
    public static final class TransitionBuilder {
        private final Flow flow;
        private final ParameterizedValue on;

        private TransitionBuilder(Flow flow, ParameterizedValue on) {
            this.flow = flow;
            this.on = on;
        }

        /** Continue with {@code node}, which becomes the current node. */
        public Flow to(Node node) {
            return to(flow.declared.register(Checks.notNull(node, "node")));
        }

        /** Continue with the node of this id (declared elsewhere in the flow), which becomes current. */
        public Flow to(String nodeId) {
            flow.declared.next(on, nodeId);
            return flow;
        }

        /** Continue with the node whose id {@code nodeId} resolves to in the execution. */
        public Flow to(ParameterizedValue nodeId) {
            if (Checks.notNull(nodeId, "nodeId").isLiteral()) {
                return to(nodeId.writtenForm());
            }
            return flow.add(on, TransitionKind.NEXT, Optional.of(nodeId), Optional.empty());
        }

        /** End the job COMPLETED. */
        public Flow end() {
            return flow.add(on, TransitionKind.END, Optional.empty(), Optional.empty());
        }

        /** End the job COMPLETED with the exit code {@code exitCode} (as if the job's context had set it last). */
        public Flow end(String exitCode) {
            return end(literal(exitCode, "exitCode"));
        }

        /** {@link #end(String)} with the exit code {@code exitCode} resolves to in the execution. */
        public Flow end(ParameterizedValue exitCode) {
            return flow.add(on, TransitionKind.END, Optional.empty(), Optional.of(Checks.notNull(exitCode, "exitCode")));
        }

        /** End the job FAILED. */
        public Flow fail() {
            return flow.add(on, TransitionKind.FAIL, Optional.empty(), Optional.empty());
        }

        /** End the job FAILED with the exit code {@code exitCode} (as if the job's context had set it last). */
        public Flow fail(String exitCode) {
            return fail(literal(exitCode, "exitCode"));
        }

        /** {@link #fail(String)} with the exit code {@code exitCode} resolves to in the execution. */
        public Flow fail(ParameterizedValue exitCode) {
            return flow.add(on, TransitionKind.FAIL, Optional.empty(), Optional.of(Checks.notNull(exitCode, "exitCode")));
        }

        /**
         * End the job STOPPED; a restart begins at the start node. Nodes that completed in an
         * earlier execution are skipped on their recorded exit codes (unless they allow a start if
         * complete), so a restart that reaches this transition again, on a reused exit code, stops again.
         */
        public Flow stop() {
            return flow.add(on, TransitionKind.STOP, Optional.empty(), Optional.empty());
        }

        /** {@link #stop()} with the exit code {@code exitCode} (as if the job's context had set it last). */
        public Flow stop(String exitCode) {
            return stop(literal(exitCode, "exitCode"));
        }

        /** {@link #stop(String)} with the exit code {@code exitCode} resolves to in the execution. */
        public Flow stop(ParameterizedValue exitCode) {
            return flow.add(on, TransitionKind.STOP, Optional.empty(), Optional.of(Checks.notNull(exitCode, "exitCode")));
        }

        /**
         * End the job STOPPED; a restart begins at {@code node}, its restart position. The node may
         * be any one of the flow: a later one, the stopping node itself or one before it, which the
         * restart then runs again (if it completed, only when it allows a start if complete; else it
         * is skipped on its recorded exit code).
         */
        public Flow stopAndRestart(Node node) {
            return stopAndRestart(flow.declared.register(Checks.notNull(node, "node")));
        }

        /** End the job STOPPED with the exit code {@code exitCode}; a restart begins at {@code node}. */
        public Flow stopAndRestart(Node node, String exitCode) {
            return stopAndRestart(flow.declared.register(Checks.notNull(node, "node")), exitCode);
        }

        /** End the job STOPPED; a restart begins at the node of this id (see {@link #stopAndRestart(Node)}). */
        public Flow stopAndRestart(String nodeId) {
            return stopAndRestart(literal(nodeId, "nodeId"));
        }

        /** End the job STOPPED with the exit code {@code exitCode}; a restart begins at the node of this id. */
        public Flow stopAndRestart(String nodeId, String exitCode) {
            return stopAndRestart(literal(nodeId, "nodeId"), literal(exitCode, "exitCode"));
        }

        /** End the job STOPPED; a restart begins at the node whose id {@code nodeId} resolves to in the execution. */
        public Flow stopAndRestart(ParameterizedValue nodeId) {
            return flow.add(on, TransitionKind.STOP, Optional.of(Checks.notNull(nodeId, "nodeId")), Optional.empty());
        }

        /** {@link #stopAndRestart(ParameterizedValue)} with an exit code, which may be resolved per execution too. */
        public Flow stopAndRestart(ParameterizedValue nodeId, ParameterizedValue exitCode) {
            return flow.add(on, TransitionKind.STOP, Optional.of(Checks.notNull(nodeId, "nodeId")),
                    Optional.of(Checks.notNull(exitCode, "exitCode")));
        }

        private static ParameterizedValue literal(String value, String field) {
            return ParameterizedValue.literal(Checks.notNull(value, field));
        }
    }
}
