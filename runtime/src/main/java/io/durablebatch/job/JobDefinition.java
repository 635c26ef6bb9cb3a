package io.durablebatch.job;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import io.durablebatch.Checks;
import io.durablebatch.execution.DefinitionIdentity;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.StepName;
import io.durablebatch.listener.Listeners;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.schedule.Schedule;

/**
 * A validated job: its nodes, its transitions, its canonical {@link JobPlan} and the
 * {@link DefinitionIdentity} every execution records. Built by {@link Job}; immutable.
 */
public final class JobDefinition {

    private final JobName name;
    private final String revision;
    private final String startNode;
    private final Map<String, Node> nodes;
    private final Map<String, List<Transition>> routes;
    private final JobPlan plan;
    private final DefinitionIdentity identity;
    private final List<DefinitionUpgrade> upgrades;
    private final OptionalInt restartOnOwnerLoss;
    private final Listeners listeners;
    private final boolean inDeclarationOrder;
    private final Optional<Schedule> schedule;
    /** Whether a node's setting or a transition is resolved per execution ({@link #forExecution}). */
    private final boolean perExecution;

    private JobDefinition(JobName name, String revision, String startNode, Map<String, Node> nodes,
            Map<String, List<Transition>> routes, List<DefinitionIdentity> upgradesFrom, OptionalInt restartOnOwnerLoss,
            Listeners listeners, boolean inDeclarationOrder, Optional<Schedule> schedule) {
        this.name = name;
        this.schedule = schedule;
        this.inDeclarationOrder = inDeclarationOrder;
        this.perExecution = nodes.values().stream().anyMatch(node -> node instanceof Step step
                && step.settings().isPerExecution())
                || routes.values().stream().flatMap(List::stream).anyMatch(t -> t.perExecution().isPresent());
        this.listeners = listeners;
        this.restartOnOwnerLoss = restartOnOwnerLoss;
        this.revision = revision;
        this.startNode = startNode;
        this.nodes = Collections.unmodifiableMap(nodes);
        this.routes = Collections.unmodifiableMap(routes);
        List<JobPlan.PlanNode> planNodes = nodes.values().stream().map(JobDefinition::planNode).toList();
        List<JobPlan.PlanFlow> planFlows = new ArrayList<>();
        for (Node node : nodes.values()) {
            if (node instanceof Split split) {
                for (int i = 0; i < split.flows().size(); i++) {
                    planFlows.add(new JobPlan.PlanFlow(split.id(), i, split.flows().get(i).startNode()));
                }
            }
        }
        this.plan = new JobPlan(name, startNode, planNodes, routes.values().stream().flatMap(List::stream).toList(),
                planFlows);
        this.identity = new DefinitionIdentity(name, revision, plan.fingerprint());
        this.upgrades = upgradesFrom.stream().map(from -> new DefinitionUpgrade(from, identity)).toList();
    }

    /** {@code written} as one execution runs it: {@code nodes} and {@code routes} resolved, the plan and identity its own. */
    private JobDefinition(JobDefinition written, Map<String, Node> nodes, Map<String, List<Transition>> routes) {
        this.name = written.name;
        this.revision = written.revision;
        this.startNode = written.startNode;
        this.nodes = Collections.unmodifiableMap(nodes);
        this.routes = Collections.unmodifiableMap(routes);
        this.plan = written.plan;
        this.identity = written.identity;
        this.upgrades = written.upgrades;
        this.restartOnOwnerLoss = written.restartOnOwnerLoss;
        this.listeners = written.listeners;
        this.inDeclarationOrder = written.inDeclarationOrder;
        this.schedule = written.schedule;
        this.perExecution = false;
    }

    /**
     * This definition as an execution with {@code parameters} runs it: every {@link ParameterizedValue}
     * of its transitions and step settings resolved. Its plan and identity are this definition's, so
     * every execution of an instance, whatever its parameters, runs under one fingerprint. A
     * definition without such values is returned as it is.
     *
     * @throws JobDefinitionException when a value does not resolve to a valid one: a pattern or exit
     *         code that is no valid one, a target that names no node of the job (or makes the flow
     *         loop), a start limit that is no number 0 or more, an allow-start-if-complete neither
     *         {@code true} nor {@code false}
     */
    public JobDefinition forExecution(JobParameters parameters) {
        Checks.notNull(parameters, "parameters");
        if (!perExecution) {
            return this;
        }
        Map<String, Node> resolvedNodes = new LinkedHashMap<>();
        nodes.forEach((id, node) -> resolvedNodes.put(id, node instanceof Step step && step.settings().isPerExecution()
                ? resolved(step, parameters)
                : node));
        Map<String, List<Transition>> resolvedRoutes = new LinkedHashMap<>();
        routes.forEach((from, list) -> {
            List<Transition> resolved = new ArrayList<>(list.size());
            for (Transition transition : list) {
                resolved.add(resolved(transition, parameters));
            }
            if (!inDeclarationOrder) {
                // the most specific resolved pattern first; ties keep declaration order
                resolved.sort(Comparator.comparing(Transition::on));
            }
            resolvedRoutes.put(from, List.copyOf(resolved));
        });
        // a target resolved per execution must keep to the rules the written ones were checked by
        staysInsideFlows(name.value(), resolvedRoutes.values().stream().flatMap(List::stream).toList(), resolvedNodes);
        String looping = firstLoop(startNode, resolvedRoutes, resolvedNodes);
        if (looping != null) {
            throw new JobDefinitionException(name.value(), looping, "the targets this execution's parameters resolve to "
                    + "make the flow loop back to this node: a node runs at most once per execution");
        }
        return new JobDefinition(this, resolvedNodes, resolvedRoutes);
    }

    private Step resolved(Step step, JobParameters parameters) {
        StepSettings settings;
        try {
            settings = step.settings().resolvedFor(parameters);
        } catch (IllegalArgumentException e) {
            throw new JobDefinitionException(name.value(), step.id(), e.getMessage());
        }
        return step.withStartLimit(settings.startLimit()).withAllowStartIfComplete(settings.allowStartIfComplete());
    }

    private Transition resolved(Transition transition, JobParameters parameters) {
        Transition resolved;
        try {
            resolved = transition.resolvedFor(parameters);
        } catch (IllegalArgumentException e) {
            throw new JobDefinitionException(name.value(), transition.from(), e.getMessage());
        }
        if (transition.perExecution().filter(Transition.PerExecution::resolvesTarget).isPresent()
                && !nodes.containsKey(resolved.to().orElseThrow())) {
            throw new JobDefinitionException(name.value(), transition.from(), "the transition's target "
                    + transition.perExecution().get().to().orElseThrow() + " resolved to '" + resolved.to().get()
                    + "', which names no node of the job");
        }
        return resolved;
    }

    public JobName name() {
        return name;
    }

    public String revision() {
        return revision;
    }

    public JobPlan plan() {
        return plan;
    }

    public DefinitionIdentity identity() {
        return identity;
    }

    /** The upgrade edges this definition declares, each leading to it. */
    public List<DefinitionUpgrade> upgrades() {
        return upgrades;
    }

    /**
     * How many times an execution whose owner was lost is restarted automatically, if the job says
     * so ({@code Job...restartOnOwnerLoss}); otherwise the configured default applies. An operational
     * setting: not part of the plan or its fingerprint.
     */
    public OptionalInt restartOnOwnerLoss() {
        return restartOnOwnerLoss;
    }

    /** The schedule the job declares ({@code Job.named(..).schedule(..)}); not part of the plan. */
    public Optional<Schedule> schedule() {
        return schedule;
    }

    /** The listeners declared on the job ({@code Job.named(..).listener(..)}); not part of the plan. */
    public Listeners listeners() {
        return listeners;
    }

    public Node startNode() {
        return nodes.get(startNode);
    }

    public Optional<Node> node(String nodeId) {
        return Optional.ofNullable(nodes.get(nodeId));
    }

    /** The nodes in declaration order. */
    public Map<String, Node> nodes() {
        return nodes;
    }

    /**
     * The transitions leaving {@code nodeId} in the order they are evaluated: most specific pattern
     * first, or as declared ({@link Job.Builder#transitionsInDeclarationOrder()}).
     */
    public List<Transition> transitionsFrom(String nodeId) {
        return routes.getOrDefault(nodeId, List.of());
    }

    /**
     * The transition a node takes for an exit code: the first matching one in evaluation order, if
     * any. Of a definition with values resolved per execution, only the one {@link #forExecution}
     * gives routes so.
     */
    public Optional<Transition> route(String nodeId, String exitCode) {
        return transitionsFrom(nodeId).stream().filter(t -> t.on().matches(exitCode)).findFirst();
    }

    @Override
    public String toString() {
        return "JobDefinition[" + name + " revision " + revision + ", plan " + plan.fingerprint() + "]";
    }

    static JobDefinition validated(JobName name, String revision, List<DefinitionIdentity> upgradesFrom, String start,
            Map<String, Node> nodes, List<String> duplicates, List<String> referencedIds, List<Transition> transitions,
            boolean inDeclarationOrder, OptionalInt restartOnOwnerLoss, Listeners listeners, Optional<Schedule> schedule) {
        String job = name.value();
        if (!duplicates.isEmpty()) {
            throw new JobDefinitionException(job, duplicates.get(0), "the node id is declared by two different nodes");
        }
        Map<StepName, String> stepNames = new HashMap<>();
        for (Node node : nodes.values()) {
            if (node instanceof Step step) {
                List<Step> named = step instanceof PartitionedStep partitioned ? List.of(step, partitioned.worker())
                        : List.of(step);
                for (Step each : named) {
                    String other = stepNames.putIfAbsent(each.name(), step.id());
                    if (other != null) {
                        throw new JobDefinitionException(job, step.id(), "step name '" + each.name()
                                + "' is already used by node '" + other + "'");
                    }
                }
            }
        }
        for (String id : referencedIds) {
            if (!nodes.containsKey(id)) {
                throw new JobDefinitionException(job, id, "the flow refers to this node id, but no node declares it");
            }
        }
        Map<String, List<Transition>> routes = new LinkedHashMap<>();
        for (Transition transition : transitions) {
            routes.computeIfAbsent(transition.from(), from -> new ArrayList<>()).add(transition);
        }
        if (!inDeclarationOrder) {
            routes.replaceAll((from, list) -> list.stream().sorted(Comparator.comparing(Transition::on)).toList());
        }
        staysInsideFlows(job, transitions, nodes);
        // a target resolved per execution may name any node: none is unreachable then
        boolean anyTarget = transitions.stream()
                .anyMatch(t -> t.perExecution().filter(Transition.PerExecution::resolvesTarget).isPresent());
        Set<String> reachable = anyTarget ? nodes.keySet() : reachable(start, routes, nodes);
        for (String id : nodes.keySet()) {
            if (!reachable.contains(id)) {
                throw new JobDefinitionException(job, id, "the node is unreachable from the start node '" + start + "'");
            }
        }
        String looping = firstLoop(start, routes, nodes);
        if (looping != null) {
            throw new JobDefinitionException(job, looping, "the flow loops back to this node: a node runs at most "
                    + "once per execution (its route is recorded before it starts); repeat work with a restart");
        }
        for (Node node : nodes.values()) {
            if (node instanceof Decision && !routes.containsKey(node.id())) {
                throw new JobDefinitionException(job, node.id(), "the flow has no end from this node: a decision "
                        + "needs transitions to a node or to end, fail or stop");
            }
        }
        return new JobDefinition(name, revision, start, new LinkedHashMap<>(nodes), routes, upgradesFrom,
                restartOnOwnerLoss, listeners, inDeclarationOrder, schedule);
    }

    /**
     * The flow of a split each of its nodes is directly in, by node id, named for messages; a node of
     * the job's own flow has none. A flow's nodes include those of the splits nested in it, which are
     * in the nested split's flows instead.
     */
    private static Map<String, String> flowOf(Map<String, Node> nodes) {
        Map<String, String> flowOf = new HashMap<>();
        for (Node node : nodes.values()) {
            if (node instanceof Split split) {
                for (int i = 0; i < split.flows().size(); i++) {
                    SplitFlow flow = split.flows().get(i);
                    Set<String> nested = new HashSet<>();
                    flow.nodes().values().stream().filter(Split.class::isInstance)
                            .flatMap(inner -> ((Split) inner).flows().stream())
                            .forEach(inner -> nested.addAll(inner.nodes().keySet()));
                    String name = "flow " + (i + 1) + " of split '" + split.id() + "'";
                    flow.nodes().keySet().stream().filter(id -> !nested.contains(id)).forEach(id -> flowOf.put(id, name));
                }
            }
        }
        return flowOf;
    }

    /** Where the flow may go from {@code node}: its transitions' targets, and a split's flows' start nodes. */
    private static List<String> successors(String node, Map<String, List<Transition>> routes, Map<String, Node> nodes,
            boolean stopTargets) {
        List<String> next = new ArrayList<>();
        if (nodes.get(node) instanceof Split split) {
            split.flows().forEach(flow -> next.add(flow.startNode()));
        }
        for (Transition transition : routes.getOrDefault(node, List.of())) {
            // a STOP's target is where the next execution starts: it is not a loop within this one
            if (stopTargets || transition.kind() == TransitionKind.NEXT) {
                transition.to().ifPresent(next::add);
            }
        }
        return next;
    }

    /**
     * Refuses a transition that leads out of its split's flow (or into one), and a stop inside a
     * flow that names a restart position.
     */
    private static void staysInsideFlows(String job, List<Transition> transitions, Map<String, Node> nodes) {
        Map<String, String> flowOf = flowOf(nodes);
        for (Transition transition : transitions) {
            Optional<String> target = transition.to();
            if (target.isEmpty() || !nodes.containsKey(target.get())) {
                continue;
            }
            String from = flowOf.getOrDefault(transition.from(), "the job's own flow");
            String to = flowOf.getOrDefault(target.get(), "the job's own flow");
            if (!from.equals(to)) {
                throw new JobDefinitionException(job, transition.from(), "a transition leads from " + from + " to node '"
                        + target.get() + "' in " + to + ": transitions stay inside their flow");
            }
            if (transition.kind() == TransitionKind.STOP && flowOf.containsKey(transition.from())) {
                throw new JobDefinitionException(job, transition.from(), "a stop inside " + from + " names a restart "
                        + "position: a restart begins where the job's begins, and reruns what did not complete");
            }
        }
    }

    private static Set<String> reachable(String start, Map<String, List<Transition>> routes, Map<String, Node> nodes) {
        Set<String> seen = new HashSet<>();
        Deque<String> pending = new ArrayDeque<>(List.of(start));
        while (!pending.isEmpty()) {
            String node = pending.pop();
            if (seen.add(node)) {
                successors(node, routes, nodes, true).forEach(pending::push);
            }
        }
        return seen;
    }

    /** The first node found on a cycle of the flow graph (depth-first from the start), or null. */
    private static String firstLoop(String start, Map<String, List<Transition>> routes, Map<String, Node> nodes) {
        return visit(start, routes, nodes, new HashSet<>(), new HashSet<>());
    }

    private static String visit(String node, Map<String, List<Transition>> routes, Map<String, Node> nodes,
            Set<String> onPath, Set<String> done) {
        if (onPath.contains(node)) {
            return node;
        }
        if (!done.add(node)) {
            return null;
        }
        onPath.add(node);
        for (String next : successors(node, routes, nodes, false)) {
            String loop = visit(next, routes, nodes, onPath, done);
            if (loop != null) {
                return loop;
            }
        }
        onPath.remove(node);
        return null;
    }

    private static JobPlan.PlanNode planNode(Node node) {
        if (node instanceof Step step) {
            StepSettings settings = step.settings();
            return new JobPlan.PlanNode(node.id(), node.kind(), settings.startLimit(), settings.allowStartIfComplete(),
                    settings.startLimitPerExecution().map(ParameterizedValue::writtenForm),
                    settings.allowStartIfCompletePerExecution().map(ParameterizedValue::writtenForm));
        }
        return new JobPlan.PlanNode(node.id(), node.kind(), 0, false);
    }
}
