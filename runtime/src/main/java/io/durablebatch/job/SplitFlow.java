package io.durablebatch.job;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.durablebatch.Checks;

/**
 * One flow of a {@link Split}: a start node and transitions, declared as a job's flow is
 * ({@link Job.Flow}), whose ends are the flow's. A node without transitions, or an {@code end()},
 * completes the flow; a {@code fail()} fails it, and the job with it, once the other flows ended; a
 * {@code stop()} stops it, and the job. A stop inside a flow has no restart position of its own: a
 * restart begins where the job's restart begins, and reruns only what did not complete.
 */
public final class SplitFlow {

    private final String start;
    private final Map<String, Node> nodes;
    private final List<String> duplicates;
    private final List<String> referencedIds;
    private final List<Transition> transitions;

    private SplitFlow(FlowDeclarations declared) {
        this.start = declared.start;
        this.nodes = Collections.unmodifiableMap(new LinkedHashMap<>(declared.nodes));
        this.duplicates = List.copyOf(declared.duplicates);
        this.referencedIds = List.copyOf(declared.referencedIds);
        this.transitions = List.copyOf(declared.transitions);
    }

    /** Starts a flow at {@code node}. */
    public static Builder startingWith(Node node) {
        return new Builder(Checks.notNull(node, "start node"));
    }

    /** The id of the node the flow starts at. */
    public String startNode() {
        return start;
    }

    /** The nodes the flow declares (a nested split's included), by id. */
    Map<String, Node> nodes() {
        return nodes;
    }

    List<String> duplicates() {
        return duplicates;
    }

    List<String> referencedIds() {
        return referencedIds;
    }

    List<Transition> transitions() {
        return transitions;
    }

    /** A flow under construction; {@link #build()} ends it, the job validates it. */
    public static final class Builder {
        private final FlowDeclarations declared;

        private Builder(Node start) {
            this.declared = new FlowDeclarations(start);
        }

        /** {@code on("COMPLETED").to(node)}. */
        public Builder next(Node node) {
            return on("COMPLETED").to(node);
        }

        /** Starts a transition from the current node, taken when its exit code matches {@code pattern}. */
        public TransitionBuilder on(String pattern) {
            return new TransitionBuilder(this, ParameterizedValue.literal(ExitCodePattern.of(pattern).value()));
        }

        /** {@link #on(String)} with the pattern {@code pattern} resolves to in the execution (see {@link Job.Flow}). */
        public TransitionBuilder on(ParameterizedValue pattern) {
            return new TransitionBuilder(this, Checks.notNull(pattern, "pattern"));
        }

        /** Makes {@code node} the current node, declaring it if needed. */
        public Builder from(Node node) {
            declared.from(node);
            return this;
        }

        /** Makes the node with this id the current node. */
        public Builder from(String nodeId) {
            declared.from(nodeId);
            return this;
        }

        public SplitFlow build() {
            return new SplitFlow(declared);
        }

        private Builder add(ParameterizedValue on, TransitionKind kind, Optional<ParameterizedValue> to,
                Optional<ParameterizedValue> exit) {
            declared.add(on, kind, to, exit);
            return this;
        }
    }

    /**
     * The second half of {@code on(pattern)}. A target or exit code may be a {@link ParameterizedValue},
     * resolved per execution; a resolved target must name a node of the same flow.
     */
    public static final class TransitionBuilder {
        private final Builder flow;
        private final ParameterizedValue on;

        private TransitionBuilder(Builder flow, ParameterizedValue on) {
            this.flow = flow;
            this.on = on;
        }

        /** Continue with {@code node}, which becomes the current node. */
        public Builder to(Node node) {
            return to(flow.declared.register(Checks.notNull(node, "node")));
        }

        /** Continue with the node of this id, declared elsewhere in the flow, which becomes current. */
        public Builder to(String nodeId) {
            flow.declared.next(on, nodeId);
            return flow;
        }

        /** Continue with the node whose id {@code nodeId} resolves to in the execution. */
        public Builder to(ParameterizedValue nodeId) {
            if (Checks.notNull(nodeId, "nodeId").isLiteral()) {
                return to(nodeId.writtenForm());
            }
            return flow.add(on, TransitionKind.NEXT, Optional.of(nodeId), Optional.empty());
        }

        /** Complete the flow. */
        public Builder end() {
            return flow.add(on, TransitionKind.END, Optional.empty(), Optional.empty());
        }

        /** Fail the flow, and so the job. */
        public Builder fail() {
            return flow.add(on, TransitionKind.FAIL, Optional.empty(), Optional.empty());
        }

        /** Fail the flow, and the job with the exit code {@code exitCode}. */
        public Builder fail(String exitCode) {
            return fail(literal(exitCode, "exitCode"));
        }

        /** {@link #fail(String)} with the exit code {@code exitCode} resolves to in the execution. */
        public Builder fail(ParameterizedValue exitCode) {
            return flow.add(on, TransitionKind.FAIL, Optional.empty(), Optional.of(Checks.notNull(exitCode, "exitCode")));
        }

        /** Stop the flow, and so the job. */
        public Builder stop() {
            return flow.add(on, TransitionKind.STOP, Optional.empty(), Optional.empty());
        }

        /** Stop the flow, and the job with the exit code {@code exitCode}. */
        public Builder stop(String exitCode) {
            return stop(literal(exitCode, "exitCode"));
        }

        /** {@link #stop(String)} with the exit code {@code exitCode} resolves to in the execution. */
        public Builder stop(ParameterizedValue exitCode) {
            return flow.add(on, TransitionKind.STOP, Optional.empty(), Optional.of(Checks.notNull(exitCode, "exitCode")));
        }

        private static ParameterizedValue literal(String value, String field) {
            return ParameterizedValue.literal(Checks.notNull(value, field));
        }
    }
}
