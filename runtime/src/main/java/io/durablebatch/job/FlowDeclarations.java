package io.durablebatch.job;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.durablebatch.Checks;

/**
 * What a flow under construction declares, the job's ({@link Job.Flow}) or a split's
 * ({@link SplitFlow.Builder}): its nodes (with those of the splits in it, whose flows' nodes are
 * nodes of the job), the node ids it refers to, its transitions and its current node. Nothing is
 * checked here: the job validates it all when it is built.
 */
final class FlowDeclarations {

    final String start;
    final Map<String, Node> nodes = new LinkedHashMap<>();
    final List<String> duplicates = new ArrayList<>();
    final List<String> referencedIds = new ArrayList<>();
    final List<Transition> transitions = new ArrayList<>();
    String current;

    FlowDeclarations(Node start) {
        this.start = register(Checks.notNull(start, "start node"));
        this.current = this.start;
    }

    /** Declares {@code node}, and a split's flows with it; returns its id. */
    String register(Node node) {
        if (declare(node) && node instanceof Split split) {
            // a split's flows are nodes of the job: ids unique in it, transitions validated with it
            for (SplitFlow flow : split.flows()) {
                // a flow's nodes include those of the splits nested in it, with their transitions
                flow.nodes().values().forEach(this::declare);
                duplicates.addAll(flow.duplicates());
                referencedIds.addAll(flow.referencedIds());
                transitions.addAll(flow.transitions());
            }
        }
        return node.id();
    }

    /** Makes {@code node} the current node, declaring it if needed. */
    void from(Node node) {
        current = register(Checks.notNull(node, "node"));
    }

    /** Makes the node with this id, declared elsewhere, the current node. */
    void from(String nodeId) {
        referencedIds.add(nodeId);
        current = nodeId;
    }

    /** A transition from the current node to the node of this id, which becomes the current node. */
    void next(ParameterizedValue on, String nodeId) {
        add(on, TransitionKind.NEXT, Optional.of(ParameterizedValue.literal(Checks.notNull(nodeId, "nodeId"))),
                Optional.empty());
        current = nodeId;
    }

    /** A transition from the current node; a literal target is an id the job checks. */
    void add(ParameterizedValue on, TransitionKind kind, Optional<ParameterizedValue> to,
            Optional<ParameterizedValue> exitStatus) {
        to.filter(ParameterizedValue::isLiteral).ifPresent(target -> referencedIds.add(target.writtenForm()));
        transitions.add(Transition.of(current, on, kind, to, exitStatus));
    }

    /** Declares {@code node}; whether it is new. */
    private boolean declare(Node node) {
        Node known = nodes.putIfAbsent(node.id(), node);
        if (known != null && known != node) {
            duplicates.add(node.id());
        }
        return known == null;
    }
}
