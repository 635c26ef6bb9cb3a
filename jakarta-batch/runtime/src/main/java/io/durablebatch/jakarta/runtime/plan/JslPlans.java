package io.durablebatch.jakarta.runtime.plan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.jakarta.runtime.execution.ExecutionContexts;
import io.durablebatch.jakarta.runtime.execution.JakartaParameters;
import io.durablebatch.jakarta.runtime.execution.JslDecider;
import io.durablebatch.jakarta.runtime.execution.JslJobListener;
import io.durablebatch.jakarta.runtime.jsl.JslDecision;
import io.durablebatch.jakarta.runtime.jsl.JslException;
import io.durablebatch.jakarta.runtime.jsl.JslExecutionElement;
import io.durablebatch.jakarta.runtime.jsl.JslFlow;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslLocation;
import io.durablebatch.jakarta.runtime.jsl.JslProblem;
import io.durablebatch.jakarta.runtime.jsl.JslSplit;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.jakarta.runtime.jsl.JslTransition;
import io.durablebatch.jakarta.runtime.jsl.PropertyScope;
import io.durablebatch.job.ExitCodePattern;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobDefinitionException;
import io.durablebatch.job.Node;
import io.durablebatch.job.ParameterizedValue;
import io.durablebatch.job.SplitFlow;
import io.durablebatch.job.Steps;

/**
 * A JSL job as a kernel {@link JobDefinition}, or the reasons it cannot be one yet.
 * <p>
 * <b>Plan identity.</b> The plan is built once, when the application starts, from the job XML as
 * written, not per execution from the resolved XML: the kernel fingerprints a fixed plan and binds
 * every execution of an instance to it, which is what makes a restart safe (the restart must find
 * the steps, transitions and start limits its checkpoints were made under). An attribute that
 * shapes the plan ({@code next}, {@code on}, {@code to}, {@code restart}, {@code exit-status},
 * {@code start-limit}, {@code allow-start-if-complete}) is the plan's value where the job XML fixes
 * it (written out, or referring only to job and step properties that are, {@link PropertyScope#ofJobXml});
 * otherwise it is a {@link ParameterizedValue} ({@link #planValue}): the plan records it as written
 * and each execution resolves it from its own job parameters, in the scope of its element, before
 * its first node. So the fingerprint is the job XML's structure, the same whatever the parameters
 * of a restart; editing an artifact or property between a failure and its restart is allowed,
 * while changing the structure makes the restart refused as incompatible. {@code restartable}
 * must be the same in every execution ({@link #literal}).
 * <p>
 * <b>Transitions.</b> JSL takes the first transition element whose {@code on} matches the exit
 * status, in document order; so does the kernel plan, built with
 * {@link Job.Builder#transitionsInDeclarationOrder()}. The translation writes out what JSL leaves
 * implicit: after the transition elements, a step that failed (its exit status is {@code FAILED})
 * fails the job, and any other exit status takes {@code next="s"}, or else ends the job COMPLETED. A failed step does take a
 * transition
 * element that matches {@code FAILED} (as the JSL implementations do), but never {@code next=}. A
 * batchlet that completes with the exit status {@code FAILED} is taken as failed.
 * <p>
 * <b>Decisions and flows.</b> A {@code <decision>} is a kernel decision asked again on restart, its
 * transitions kept like a step's; a {@code <flow>} is flattened into the job's graph (see
 * {@code Translation}). A {@code <split>} is a kernel split: each of its flows is flattened the same
 * way into a flow of the split, whose end (where the job's own flow would end) ends that flow; the
 * split then goes on to its {@code next}, or ends the job.
 */
public final class JslPlans {

    /** The revision every translated job records; the plan fingerprint tells its versions apart. */
    public static final String REVISION = "jsl";

    /** The exit status of a failed step, which fails the job before any transition is looked at. */
    private static final String FAILED = "FAILED";

    /** What ends the job's own sequence of elements: the end of the job, COMPLETED, on any exit status. */
    private static final Edge END_OF_JOB = new Edge(JslTransition.Kind.END, ParameterizedValue.literal("*"),
            Optional.empty(), Optional.empty(), Optional.empty());

    private JslPlans() {
    }

    /** One transition as the kernel gets it, with the element it comes from (none when implicit). */
    private record Edge(JslTransition.Kind kind, ParameterizedValue on, Optional<ParameterizedValue> target,
            Optional<ParameterizedValue> exitStatus, Optional<JslTransition> written) {

        /** This edge with its target, an element id, as the kernel node a transition to it goes to. */
        Edge to(Translation translation) {
            return new Edge(kind, on, target.map(id -> id.map(translation::entry)), exitStatus, written);
        }

        /** Whether the edge is taken on the pattern {@code pattern} in every execution. */
        boolean isOn(String pattern) {
            return on.isLiteral() && on.writtenForm().equals(pattern);
        }
    }

    /**
     * The kernel definition of {@code job}.
     *
     * @throws JslException naming file, line and element of everything this slice cannot run
     */
    public static JobDefinition plan(JslJob job) {
        List<JslProblem> problems = new ArrayList<>();
        PropertyScope jobProperties = PropertyScope.ofJobXml().enter(job.properties());
        job.restartable().ifPresent(value -> literal(job.location(), "restartable", value, jobProperties, problems));
        Translation translation = new Translation(job, jobProperties, problems);
        translation.sequence(job.elements(), List.of(END_OF_JOB));
        if (!problems.isEmpty()) {
            throw new JslException(problems);
        }
        translation.leaveOutUnreachable();
        try {
            return definition(job, translation);
        } catch (JobDefinitionException | IllegalArgumentException e) {
            throw new JslException(new JslProblem(job.location(), e.getMessage()));
        }
    }

    private static JobDefinition definition(JslJob job, Translation translation) {
        // JSL takes the first transition element that matches, in document order
        Job.Builder builder = Job.named(job.name()).revision(REVISION).transitionsInDeclarationOrder()
                .listener(new ExecutionContexts.Cleanup());
        if (!job.listeners().isEmpty()) {
            builder.listener(new JslJobListener(job));
        }
        translation.buildSplits();
        Job.Flow flow = builder.start(translation.nodes.get(translation.entry(job.elements().get(0).id())));
        translation.inFlow(Translation.TOP).forEach(id -> flow.from(translation.nodes.get(id)));
        translation.edges.forEach((from, list) -> {
            if (!translation.inFlow(Translation.TOP).contains(from)) {
                return; // a node of a split's flow: its edges are the flow's
            }
            for (Edge edge : list) {
                Job.TransitionBuilder on = flow.from(from).on(edge.on());
                switch (edge.kind()) {
                    case NEXT -> on.to(edge.target().orElseThrow());
                    case END -> edge.exitStatus().map(on::end).orElseGet(on::end);
                    case FAIL -> edge.exitStatus().map(on::fail).orElseGet(on::fail);
                    case STOP -> stop(on, edge);
                }
            }
        });
        return flow.build();
    }

    /**
     * A {@code <stop>}: its {@code restart} is the restart position, which the kernel records as
     * where the next execution begins, so it may name any step (the stopping one, or one before it);
     * without one a restart begins at the job's first step (JSL 2.1, "Execution Sequence on Restart").
     */
    private static Job.Flow stop(Job.TransitionBuilder on, Edge edge) {
        if (edge.target().isPresent()) {
            return edge.exitStatus().map(exitStatus -> on.stopAndRestart(edge.target().get(), exitStatus))
                    .orElseGet(() -> on.stopAndRestart(edge.target().get()));
        }
        return edge.exitStatus().map(on::stop).orElseGet(on::stop);
    }

    /**
     * The job's elements as one kernel graph. A {@code <flow>} is flattened into it: its steps and
     * decisions are nodes with their own ids, a transition to the flow goes to its first element,
     * and where one of its elements would end the flow (no {@code next}, no transition element
     * matching) the flow's own transition elements and {@code next} follow, matching that element's
     * exit status. Transitions inside a flow stay inside it (the validator refuses the others), so
     * flattening keeps every route JSL takes.
     */
    private static final class Translation {
        private final JslJob job;
        private final PropertyScope jobProperties;
        private final List<JslProblem> problems;
        private final Map<String, Node> nodes = new LinkedHashMap<>();
        private final Map<String, List<Edge>> edges = new LinkedHashMap<>();
        /** The kernel node each element starts at: its own, or its first element's for a flow. */
        private final Map<String, String> entries = new HashMap<>();
        /** The scope of the job's own flow; a split's flow is {@code <split id>#<index>}. */
        static final String TOP = "";
        /** The scope each node is in. */
        private final Map<String, String> scopes = new HashMap<>();
        /** The splits, inner ones before the splits they are nested in, so that they are built first. */
        private final List<JslSplit> splits = new ArrayList<>();
        private String scope = TOP;

        Translation(JslJob job, PropertyScope jobProperties, List<JslProblem> problems) {
            this.job = job;
            this.jobProperties = jobProperties;
            this.problems = problems;
            job.elements().forEach(this::enter);
        }

        private String enter(JslExecutionElement element) {
            String entry = element instanceof JslFlow flow && !flow.elements().isEmpty()
                    ? enter(flow.elements().get(0))
                    : element.id();
            if (element instanceof JslFlow flow) {
                flow.elements().stream().skip(1).forEach(this::enter);
            }
            if (element instanceof JslSplit split) {
                split.flows().forEach(this::enter);
            }
            entries.put(element.id(), entry);
            return entry;
        }

        /** The kernel node a transition to the element {@code id} goes to. */
        String entry(String id) {
            return entries.getOrDefault(id, id);
        }

        /**
         * Translates one job's or flow's elements; {@code sequenceEnd} are the transitions taken where
         * one of them ends the sequence.
         */
        void sequence(List<JslExecutionElement> elements, List<Edge> sequenceEnd) {
            for (JslExecutionElement element : elements) {
                if (element instanceof JslStep step) {
                    PropertyScope stepProperties = jobProperties.enter(step.properties());
                    StepPlans.node(job, step, stepProperties, problems).ifPresent(node -> {
                        put(step.id(), node);
                        edges.put(step.id(), edges(step, stepProperties, sequenceEnd));
                    });
                } else if (element instanceof JslDecision decision) {
                    decision(decision, sequenceEnd);
                } else if (element instanceof JslFlow flow) {
                    sequence(flow.elements(), exits(flow, jobProperties, sequenceEnd));
                } else if (element instanceof JslSplit split) {
                    split(split, sequenceEnd);
                }
            }
        }

        private void put(String id, Node node) {
            nodes.put(id, node);
            scopes.put(id, scope);
        }

        /**
         * A split: each flow a sequence of its own, whose end ends the flow (the kernel's end of a
         * split's flow); the split itself goes on to its {@code next}, or to the end of the sequence it
         * is in. Its node is built once all are translated ({@link #buildSplits()}).
         */
        private void split(JslSplit split, List<Edge> sequenceEnd) {
            String enclosing = scope;
            for (int i = 0; i < split.flows().size(); i++) {
                scope = split.id() + "#" + i;
                JslFlow flow = split.flows().get(i);
                sequence(flow.elements(), exits(flow, jobProperties, List.of(END_OF_JOB)));
            }
            scope = enclosing;
            for (int i = 0; i < split.flows().size(); i++) {
                for (String id : inFlow(split.id() + "#" + i)) {
                    edges.getOrDefault(id, List.of()).stream().filter(Translation::endsJobHere)
                            .forEach(edge -> problems.add(unsupported(edge.written().map(JslTransition::location)
                                    .orElse(split.location()),
                                    "an exit-status on <end> or a restart on <stop> inside "
                                            + "a split's flow")));
                }
            }
            scopes.put(split.id(), scope);
            splits.add(split);
            List<Edge> edges = new ArrayList<>();
            continueWith(split, jobProperties, edges, sequenceEnd);
            this.edges.put(split.id(), edges);
        }

        /**
         * Whether {@code edge} says something of the job's end or restart that the end of a split's
         * flow cannot: the flow's end is not the job's, and its restart is the job's.
         */
        private static boolean endsJobHere(Edge edge) {
            return edge.kind() == JslTransition.Kind.END && edge.exitStatus().isPresent()
                    || edge.kind() == JslTransition.Kind.STOP && edge.target().isPresent();
        }

        /** The ids of the nodes in {@code flowScope}, in declaration order. */
        List<String> inFlow(String flowScope) {
            return nodes.keySet().stream().filter(id -> flowScope.equals(scopes.get(id))).toList();
        }

        /** Builds the kernel node of every split (inner ones first), from the nodes and edges of its flows. */
        void buildSplits() {
            for (JslSplit split : splits) {
                if (!nodes.containsKey(split.id()) && edges.containsKey(split.id())) {
                    List<SplitFlow> flows = new ArrayList<>();
                    for (int i = 0; i < split.flows().size(); i++) {
                        flows.add(flow(split.id() + "#" + i, split.flows().get(i)));
                    }
                    nodes.put(split.id(), Steps.split(split.id(), flows.toArray(SplitFlow[]::new)));
                }
            }
        }

        private SplitFlow flow(String flowScope, JslFlow jsl) {
            SplitFlow.Builder flow = Steps.flow(nodes.get(entry(jsl.id())));
            inFlow(flowScope).forEach(id -> flow.from(nodes.get(id)));
            for (String from : inFlow(flowScope)) {
                for (Edge edge : edges.getOrDefault(from, List.of())) {
                    SplitFlow.TransitionBuilder on = flow.from(from).on(edge.on());
                    switch (edge.kind()) {
                        case NEXT -> on.to(edge.target().orElseThrow());
                        case END -> on.end();
                        case FAIL -> edge.exitStatus().map(on::fail).orElseGet(on::fail);
                        case STOP -> edge.exitStatus().map(on::stop).orElseGet(on::stop);
                    }
                }
            }
            return flow.build();
        }

        /**
         * A decision is a kernel decision asked again on restart: the specification has a restart
         * run its decider again, on the step executions the restart sees, instead of replaying the
         * route an earlier execution took.
         */
        private void decision(JslDecision decision, List<Edge> sequenceEnd) {
            if (!isId(decision.id())) {
                problems.add(new JslProblem(decision.location(),
                        "the decision id may contain only letters, digits and _-.:/@ here"));
                return;
            }
            put(decision.id(), Steps.decision(decision.id(), new JslDecider(job, decision)).askedAgainOnRestart());
            edges.put(decision.id(), edges(decision, jobProperties, sequenceEnd));
        }

        /**
         * The element's transitions as JSL takes them: the transition elements in document order;
         * then, for a step that failed and matched none of them, the job fails; for any other exit
         * status the {@code next} attribute, or else the end of the sequence the element is in.
         */
        private List<Edge> edges(JslExecutionElement element, PropertyScope properties, List<Edge> sequenceEnd) {
            List<Edge> edges = written(element, properties);
            // a failed step's exit status is FAILED: only a transition element matching it goes on
            // (one whose pattern is resolved per execution, when it resolves to one matching FAILED:
            // it comes first)
            if (element instanceof JslStep && edges.stream().noneMatch(edge -> edge.on().isLiteral()
                    && ExitCodePattern.of(edge.on().writtenForm()).matches(FAILED))) {
                edges.add(new Edge(JslTransition.Kind.FAIL, ParameterizedValue.literal(FAILED), Optional.empty(),
                        Optional.empty(), Optional.empty()));
            }
            continueWith(element, properties, edges, sequenceEnd);
            return edges;
        }

        /** Where a flow's element that ends the flow goes: the flow's transition elements, its {@code next}, or on. */
        private List<Edge> exits(JslFlow flow, PropertyScope properties, List<Edge> sequenceEnd) {
            List<Edge> edges = written(flow, properties);
            continueWith(flow, properties, edges, sequenceEnd);
            return List.copyOf(edges);
        }

        private List<Edge> written(JslExecutionElement element, PropertyScope properties) {
            List<Edge> edges = new ArrayList<>();
            for (JslTransition transition : element.transitions()) {
                edge(transition, properties, problems).map(edge -> edge.to(this)).ifPresent(edges::add);
            }
            return edges;
        }

        /** Unless an edge takes any exit status already: {@code next=}, or else the sequence's end (patterns not taken yet). */
        private void continueWith(JslExecutionElement element, PropertyScope properties, List<Edge> edges,
                List<Edge> sequenceEnd) {
            Optional<ParameterizedValue> next = element.next()
                    .flatMap(v -> planValue(element.location(), "next", v, properties, problems));
            if (edges.stream().anyMatch(edge -> edge.isOn("*"))) {
                return;
            }
            if (next.isPresent()) {
                edges.add(new Edge(JslTransition.Kind.NEXT, ParameterizedValue.literal("*"),
                        Optional.of(next.get().map(this::entry)), Optional.empty(), Optional.empty()));
                return;
            }
            for (Edge end : sequenceEnd) {
                if (edges.stream().noneMatch(edge -> end.on().isLiteral() && edge.isOn(end.on().writtenForm()))) {
                    edges.add(end);
                }
            }
        }

        /**
         * Leaves out of the plan the nodes no transition leads to from the job's first element (a
         * restart position counts): JSL runs them never, and the kernel refuses a node it cannot
         * reach. So editing such a step changes no fingerprint. A target resolved per execution may
         * lead to any node: then every node stays.
         */
        void leaveOutUnreachable() {
            if (job.elements().isEmpty() || edges.values().stream().flatMap(List::stream)
                    .anyMatch(edge -> edge.target().filter(target -> !target.isLiteral()).isPresent())) {
                return;
            }
            Set<String> reachable = new HashSet<>();
            Deque<String> pending = new ArrayDeque<>(List.of(entry(job.elements().get(0).id())));
            while (!pending.isEmpty()) {
                String node = pending.pop();
                if (reachable.add(node)) {
                    edges.getOrDefault(node, List.of())
                            .forEach(edge -> edge.target().map(ParameterizedValue::writtenForm).ifPresent(pending::push));
                    splits.stream().filter(split -> split.id().equals(node))
                            .forEach(split -> split.flows().forEach(flow -> pending.push(entry(flow.id()))));
                }
            }
            nodes.keySet().retainAll(reachable);
            edges.keySet().retainAll(reachable);
            splits.removeIf(split -> !reachable.contains(split.id()));
        }
    }

    private static Optional<Edge> edge(JslTransition transition, PropertyScope properties, List<JslProblem> problems) {
        JslLocation at = transition.location();
        int before = problems.size();
        Optional<ParameterizedValue> on = planValue(at, "on", transition.on(), properties, problems);
        Optional<ParameterizedValue> target = transition.kind() == JslTransition.Kind.STOP
                ? transition.restart().flatMap(v -> planValue(at, "restart", v, properties, problems))
                : transition.to().flatMap(v -> planValue(at, "to", v, properties, problems));
        Optional<ParameterizedValue> exitStatus = transition.exitStatus()
                .flatMap(v -> planValue(at, "exit-status", v, properties, problems));
        // what each execution resolves, it checks itself (the kernel fails one it cannot resolve)
        Optional<String> fixedStatus = exitStatus.filter(ParameterizedValue::isLiteral).map(ParameterizedValue::writtenForm);
        if (fixedStatus.isPresent()) {
            try {
                ExitStatus.of(fixedStatus.get());
            } catch (IllegalArgumentException e) {
                problems.add(new JslProblem(at, "exit-status=\"" + fixedStatus.get() + "\": " + e.getMessage()));
            }
        }
        Optional<String> fixedOn = on.filter(ParameterizedValue::isLiteral).map(ParameterizedValue::writtenForm);
        if (fixedOn.isPresent()) {
            try {
                ExitCodePattern.of(fixedOn.get());
            } catch (IllegalArgumentException e) {
                problems.add(new JslProblem(at, "on=\"" + fixedOn.get() + "\": " + e.getMessage()));
            }
        }
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new Edge(transition.kind(), on.orElseThrow(), target, exitStatus, Optional.of(transition)));
    }

    /**
     * An attribute that shapes the plan: its value where the job XML fixes it, else the value each
     * execution resolves it to, from its own job parameters (and the system properties), in the
     * scope of {@code properties}. The plan records the attribute as written; empty when it is no
     * valid substitution or reads a partition plan (the problem added).
     */
    static Optional<ParameterizedValue> planValue(JslLocation at, String attribute, String value,
            PropertyScope properties, List<JslProblem> problems) {
        try {
            if (properties.readsPartitionPlan(value)) {
                problems.add(new JslProblem(at, attribute + "=\"" + value + "\" reads a partition plan, which only "
                        + "the properties inside a partition can: the plan is the same for all of a step's partitions"));
                return Optional.empty();
            }
            return Optional.of(properties.resolveFixed(value).map(ParameterizedValue::literal)
                    .orElseGet(() -> ParameterizedValue.of(value, parameters -> properties
                            .inExecution(JakartaParameters.strings(parameters)).resolve(value))));
        } catch (IllegalArgumentException e) {
            problems.add(new JslProblem(at, attribute + "=\"" + value + "\": " + e.getMessage()));
            return Optional.empty();
        }
    }

    /**
     * An attribute that must be the same in every execution ({@code restartable}, a chunk's
     * policies): its value, or empty with the problem added when it reads what only an execution knows.
     */
    static Optional<String> literal(JslLocation at, String attribute, String value, PropertyScope properties,
            List<JslProblem> problems) {
        Optional<String> fixed;
        try {
            fixed = properties.resolveFixed(value);
        } catch (IllegalArgumentException e) {
            problems.add(new JslProblem(at, attribute + "=\"" + value + "\": " + e.getMessage()));
            return Optional.empty();
        }
        if (fixed.isEmpty()) {
            problems.add(new JslProblem(at, attribute + "=\"" + value + "\" is a substitution; it shapes the job's "
                    + "plan, which is fixed when the application starts, so it must be written out here (or refer "
                    + "only to job and step properties that are)"));
        }
        return fixed;
    }

    static JslProblem unsupported(JslLocation at, String what) {
        return new JslProblem(at, what + " is not supported yet (the Jakarta Batch guide lists what is refused at start)");
    }

    static boolean isId(String id) {
        return !id.isEmpty() && id.length() <= 100 && id.chars()
                .allMatch(c -> (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                        || "_-.:/@".indexOf(c) >= 0);
    }
}
