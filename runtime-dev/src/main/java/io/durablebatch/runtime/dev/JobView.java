package io.durablebatch.runtime.dev;

import java.util.List;

import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobPlan;
import io.durablebatch.job.Transition;

/**
 * A job definition as the Dev UI shows it: its identity and its flow graph, the nodes (with their
 * kind and start limit) and the transitions between them (with the exit-code pattern each matches).
 *
 * @param restartOnOwnerLoss how many times the job is restarted on a live node when its owner dies,
 *        {@code null} if never
 */
public record JobView(String name, String revision, String fingerprint, String startNode, Integer restartOnOwnerLoss,
        List<NodeView> nodes, List<TransitionView> transitions) {

    /** One node of the flow graph; {@code start} marks the node the job starts with. */
    public record NodeView(String id, String kind, int startLimit, boolean allowStartIfComplete, boolean start) {
    }

    /**
     * One edge of the flow graph: when {@code from} ends with an exit code matching {@code on}, do
     * {@code kind} (NEXT, END, FAIL or STOP), continuing with {@code to} ({@code null} for END and FAIL).
     */
    public record TransitionView(String from, String on, String kind, String to) {
    }

    static JobView of(JobDefinition definition) {
        JobPlan plan = definition.plan();
        List<NodeView> nodes = plan.nodes().stream()
                .map(node -> new NodeView(node.id(), node.kind(), node.startLimit(), node.allowStartIfComplete(),
                        node.id().equals(plan.startNode())))
                .toList();
        List<TransitionView> transitions = plan.transitions().stream().map(JobView::transition).toList();
        return new JobView(definition.name().value(), definition.revision(), definition.identity().fingerprint().hex(),
                plan.startNode(),
                definition.restartOnOwnerLoss().isPresent() ? definition.restartOnOwnerLoss().getAsInt() : null,
                nodes, transitions);
    }

    private static TransitionView transition(Transition transition) {
        return new TransitionView(transition.from(), transition.on().value(), transition.kind().name(),
                transition.to().orElse(null));
    }
}
