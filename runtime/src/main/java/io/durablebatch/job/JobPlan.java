package io.durablebatch.job;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import io.durablebatch.execution.JobName;
import io.durablebatch.execution.PlanFingerprint;

/**
 * The canonical plan of a job (format 2): its graph of logical nodes and transitions, and nothing
 * else. It is the restart-relevant shape of the job: node ids, node kinds, start limits,
 * allow-start-if-complete and the transitions in evaluation order. A value each execution resolves
 * from its job parameters ({@link ParameterizedValue}) is recorded by its written form, marked with
 * {@code $}, so the plan and its fingerprint are the same for every execution. Display names of steps, chunk
 * sizes and the code of readers and writers are not part of it, so renaming a step or tuning a
 * commit interval does not change the fingerprint.
 * <p>
 * The canonical form is UTF-8 text, one item per line: a header, the job, the start node, the
 * nodes in id order, then each node's transitions in evaluation order, then the flows of its splits
 * (only when it has splits, so a plan without keeps its fingerprint). Its SHA-256 is the
 * {@link PlanFingerprint}.
 */
public record JobPlan(JobName jobName, String startNode, List<PlanNode> nodes, List<Transition> transitions,
        List<PlanFlow> flows) {

    public static final int FORMAT = 2;

    /**
     * One node as the plan records it; a setting resolved per execution is recorded by its written
     * form (then in {@code startLimitPerExecution} or {@code allowStartIfCompletePerExecution}).
     */
    public record PlanNode(String id, String kind, int startLimit, boolean allowStartIfComplete,
            Optional<String> startLimitPerExecution, Optional<String> allowStartIfCompletePerExecution) {

        public PlanNode(String id, String kind, int startLimit, boolean allowStartIfComplete) {
            this(id, kind, startLimit, allowStartIfComplete, Optional.empty(), Optional.empty());
        }

        String canonicalLine() {
            return "node " + id + " " + kind + " startLimit="
                    + startLimitPerExecution.map(written -> "$" + Transition.canonical(written))
                            .orElse(Integer.toString(startLimit))
                    + " allowStartIfComplete=" + allowStartIfCompletePerExecution
                            .map(written -> "$" + Transition.canonical(written)).orElse(Boolean.toString(allowStartIfComplete));
        }
    }

    /**
     * One flow of a split: the split's id, the flow's position in it and the node it starts at. Its
     * nodes are plan nodes like any other.
     */
    public record PlanFlow(String split, int index, String startNode) {

        String canonicalLine() {
            return "flow " + split + " " + index + " start " + startNode;
        }
    }

    public JobPlan {
        nodes = nodes.stream().sorted(Comparator.comparing(PlanNode::id)).toList();
        transitions = List.copyOf(transitions);
        flows = flows.stream().sorted(Comparator.comparing(PlanFlow::split).thenComparing(PlanFlow::index)).toList();
    }

    /** A plan without splits. */
    public JobPlan(JobName jobName, String startNode, List<PlanNode> nodes, List<Transition> transitions) {
        this(jobName, startNode, nodes, transitions, List.of());
    }

    /** The canonical text: deterministic for equal plans, whatever the declaration order of nodes. */
    public String canonicalText() {
        StringBuilder text = new StringBuilder("durable-batch-plan ").append(FORMAT).append('\n')
                .append("job ").append(jobName.value()).append('\n')
                .append("start ").append(startNode).append('\n');
        nodes.forEach(node -> text.append(node.canonicalLine()).append('\n'));
        nodes.forEach(node -> transitions.stream().filter(t -> t.from().equals(node.id()))
                .forEach(t -> text.append(t.canonicalLine()).append('\n')));
        flows.forEach(flow -> text.append(flow.canonicalLine()).append('\n'));
        return text.toString();
    }

    public PlanFingerprint fingerprint() {
        try {
            return PlanFingerprint.of(MessageDigest.getInstance("SHA-256")
                    .digest(canonicalText().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
