package io.durablebatch.runtime.jakarta.plan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

import io.durablebatch.execution.ExitStatus;
import io.durablebatch.job.ExitCodePattern;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobDefinitionException;
import io.durablebatch.job.Step;
import io.durablebatch.runtime.jakarta.execution.ExecutionContexts;
import io.durablebatch.runtime.jakarta.execution.JslJobListener;
import io.durablebatch.runtime.jakarta.jsl.JslDecision;
import io.durablebatch.runtime.jakarta.jsl.JslException;
import io.durablebatch.runtime.jakarta.jsl.JslExecutionElement;
import io.durablebatch.runtime.jakarta.jsl.JslFlow;
import io.durablebatch.runtime.jakarta.jsl.JslJob;
import io.durablebatch.runtime.jakarta.jsl.JslLocation;
import io.durablebatch.runtime.jakarta.jsl.JslProblem;
import io.durablebatch.runtime.jakarta.jsl.JslSplit;
import io.durablebatch.runtime.jakarta.jsl.JslStep;
import io.durablebatch.runtime.jakarta.jsl.JslTransition;
import io.durablebatch.runtime.jakarta.jsl.PropertyScope;

/**
 * A JSL job as a kernel {@link JobDefinition}, or the reasons it cannot be one yet.
 * <p>
 * <b>Plan identity.</b> The plan is built once, when the application starts, from the job XML as
 * written, not per execution from the resolved XML: the kernel fingerprints a fixed plan and binds
 * every execution of an instance to it, which is what makes a restart safe (the restart must find
 * the steps, transitions and start limits its checkpoints were made under). Only what cannot change
 * the plan is resolved per execution: artifact refs and {@code <properties>}. An attribute that
 * shapes the plan ({@code next}, {@code on}, {@code to}, {@code restart}, {@code start-limit},
 * {@code allow-start-if-complete}, {@code restartable}) must therefore be written out here, or refer
 * only to job and step properties that are ({@link PropertyScope#ofJobXml}); any other substitution in one
 * is refused at start. So the fingerprint is the job XML's structure, and
 * editing an artifact or property between a failure and its restart is allowed, while changing the
 * structure makes the restart refused as incompatible.
 * <p>
 * <b>Transitions.</b> JSL takes the first transition element whose {@code on} matches the exit
 * status, in document order; the kernel takes the most specific pattern. The translation keeps
 * document order and refuses a step where the two could disagree: an earlier pattern that overlaps a
 * later, more specific one. It also writes out what JSL leaves implicit: after the transition
 * elements, a step that failed (its exit status is {@code FAILED}) fails the job, and any other exit
 * status takes {@code next="s"}, or else ends the job COMPLETED. A failed step does take a transition
 * element that matches {@code FAILED} (as the JSL implementations do), but never {@code next=}. A
 * batchlet that completes with the exit status {@code FAILED} is taken as failed.
 */
public final class JslPlans {

    /** The revision every translated job records; the plan fingerprint tells its versions apart. */
    public static final String REVISION = "jsl";

    /** The exit status of a failed step, which fails the job before any transition is looked at. */
    private static final String FAILED = "FAILED";

    private JslPlans() {
    }

    /** One transition as the kernel gets it, with the element it comes from (none when implicit). */
    private record Edge(JslTransition.Kind kind, String on, Optional<String> target, Optional<String> exitStatus,
            Optional<JslTransition> written) {

        String describe() {
            return written.map(t -> "<" + t.kind().element() + " on=\"" + t.on() + "\">")
                    .orElse(kind == JslTransition.Kind.NEXT ? "next=\"" + target.orElseThrow() + "\""
                            : on.equals(FAILED) ? "the failure of the step" : "the end of the job on any other exit status");
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
        Map<String, Step> nodes = new LinkedHashMap<>();
        Map<String, List<Edge>> edges = new LinkedHashMap<>();
        for (JslExecutionElement element : job.elements()) {
            if (element instanceof JslStep step) {
                PropertyScope stepProperties = jobProperties.enter(step.properties());
                StepPlans.node(job, step, stepProperties, problems).ifPresent(node -> {
                    nodes.put(step.id(), node);
                    edges.put(step.id(), edges(step, stepProperties, problems));
                });
            } else {
                problems.add(unsupported(element.location(), "<" + elementName(element) + ">"));
            }
        }
        checkStopTargets(job, edges, problems);
        if (!problems.isEmpty()) {
            throw new JslException(problems);
        }
        try {
            return definition(job, nodes, edges);
        } catch (JobDefinitionException | IllegalArgumentException e) {
            throw new JslException(new JslProblem(job.location(), e.getMessage()));
        }
    }

    private static JobDefinition definition(JslJob job, Map<String, Step> written, Map<String, List<Edge>> edges) {
        // a step no transition leads to is legal JSL and never runs; the kernel refuses unreachable nodes
        Set<String> reachable = reachable(written.keySet().iterator().next(), edges);
        Map<String, Step> nodes = new LinkedHashMap<>(written);
        nodes.keySet().retainAll(reachable);
        edges = new LinkedHashMap<>(edges);
        edges.keySet().retainAll(reachable);
        Job.Builder builder = Job.named(job.name()).revision(REVISION).listener(new ExecutionContexts.Cleanup());
        if (!job.listeners().isEmpty()) {
            builder.listener(new JslJobListener(job));
        }
        Job.Flow flow = builder.start(nodes.values().iterator().next());
        nodes.values().forEach(flow::from);
        edges.forEach((from, list) -> {
            for (Edge edge : list) {
                Job.TransitionBuilder on = flow.from(from).on(edge.on());
                switch (edge.kind()) {
                    case NEXT -> on.to(edge.target().orElseThrow());
                    case END -> edge.exitStatus().map(on::end).orElseGet(on::end);
                    case FAIL -> edge.exitStatus().map(on::fail).orElseGet(on::fail);
                    case STOP -> edge.exitStatus()
                            .map(exitStatus -> on.stopAndRestart(edge.target().orElseThrow(), exitStatus))
                            .orElseGet(() -> on.stopAndRestart(edge.target().orElseThrow()));
                }
            }
        });
        return flow.build();
    }

    /**
     * The step's transitions as JSL takes them: the transition elements in document order; then, for a
     * step that failed and matched none of them, the job fails; for any other exit status the
     * {@code next} attribute, or else the end of the job.
     */
    private static List<Edge> edges(JslStep step, PropertyScope properties, List<JslProblem> problems) {
        List<Edge> edges = new ArrayList<>();
        Optional<String> next = step.next().flatMap(v -> literal(step.location(), "next", v, properties, problems));
        for (JslTransition transition : step.transitions()) {
            edge(transition, properties, problems).ifPresent(edges::add);
        }
        // a failed step's exit status is FAILED: only a transition element matching it goes on
        if (edges.stream().noneMatch(edge -> ExitCodePattern.of(edge.on()).matches(FAILED))) {
            edges.add(new Edge(JslTransition.Kind.FAIL, FAILED, Optional.empty(), Optional.empty(), Optional.empty()));
        }
        if (edges.stream().noneMatch(edge -> edge.on().equals("*"))) {
            edges.add(next.map(target -> new Edge(JslTransition.Kind.NEXT, "*", Optional.of(target), Optional.empty(),
                    Optional.empty()))
                    .orElse(new Edge(JslTransition.Kind.END, "*", Optional.empty(), Optional.empty(), Optional.empty())));
        }
        checkOrder(step, edges, problems);
        return edges;
    }

    private static Optional<Edge> edge(JslTransition transition, PropertyScope properties, List<JslProblem> problems) {
        JslLocation at = transition.location();
        int before = problems.size();
        Optional<String> on = literal(at, "on", transition.on(), properties, problems);
        Optional<String> target = transition.kind() == JslTransition.Kind.STOP
                ? transition.restart().flatMap(v -> literal(at, "restart", v, properties, problems))
                : transition.to().flatMap(v -> literal(at, "to", v, properties, problems));
        Optional<String> exitStatus = transition.exitStatus()
                .flatMap(v -> literal(at, "exit-status", v, properties, problems));
        if (exitStatus.isPresent()) {
            try {
                ExitStatus.of(exitStatus.get());
            } catch (IllegalArgumentException e) {
                problems.add(new JslProblem(at, "exit-status=\"" + exitStatus.get() + "\": " + e.getMessage()));
            }
        }
        if (transition.kind() == JslTransition.Kind.STOP && transition.restart().isEmpty()) {
            problems.add(new JslProblem(at, "a <stop> needs restart=\"...\" here: the step a restart continues with"));
        }
        if (on.isPresent()) {
            try {
                ExitCodePattern.of(on.get());
            } catch (IllegalArgumentException e) {
                problems.add(new JslProblem(at, "on=\"" + on.get() + "\": " + e.getMessage()));
            }
        }
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new Edge(transition.kind(), on.orElseThrow(), target, exitStatus, Optional.of(transition)));
    }

    /**
     * Refuses the step if the kernel, which takes the most specific pattern, could take another
     * transition than JSL, which takes the first one written: a later pattern it ranks first and an
     * earlier one both match some exit status.
     */
    private static void checkOrder(JslStep step, List<Edge> edges, List<JslProblem> problems) {
        List<Integer> kernelOrder = IntStream.range(0, edges.size()).boxed()
                .sorted(Comparator.comparing(i -> ExitCodePattern.of(edges.get(i).on()))).toList();
        for (int first = 0; first < edges.size(); first++) {
            for (int later = first + 1; later < edges.size(); later++) {
                Edge written = edges.get(first);
                Edge ranked = edges.get(later);
                if (kernelOrder.indexOf(later) < kernelOrder.indexOf(first)
                        && PatternOverlap.overlap(written.on(), ranked.on())) {
                    problems.add(new JslProblem(step.location(), written.describe() + " comes first, but "
                            + ranked.describe() + " is more specific and matches some of the same exit statuses: "
                            + "this runtime takes the most specific pattern, so put the more specific transition first"));
                }
            }
        }
    }

    /**
     * Refuses a {@code <stop restart>} at the stopping step or at a step that leads to it: the kernel
     * records a stop's target as the next node of the execution, and refuses a node the execution may
     * have run already. A step that cannot lead to the stopping one cannot have run before it.
     */
    private static void checkStopTargets(JslJob job, Map<String, List<Edge>> edges, List<JslProblem> problems) {
        for (JslExecutionElement element : job.elements()) {
            for (Edge edge : edges.getOrDefault(element.id(), List.of())) {
                if (edge.kind() == JslTransition.Kind.STOP && leadsTo(edge.target().orElseThrow(), element.id(), edges)) {
                    problems.add(new JslProblem(edge.written().orElseThrow().location(), "restart=\""
                            + edge.target().orElseThrow() + "\" is not supported yet: it names a step this execution "
                            + "may have run (the stopping step or one before it), and a stop continues at a step "
                            + "the execution has not run"));
                }
            }
        }
    }

    /** The nodes a run from {@code start} can reach: along next transitions and a stop's restart target. */
    private static Set<String> reachable(String start, Map<String, List<Edge>> edges) {
        Set<String> seen = new HashSet<>();
        Deque<String> pending = new ArrayDeque<>(List.of(start));
        while (!pending.isEmpty()) {
            String node = pending.pop();
            if (seen.add(node)) {
                edges.getOrDefault(node, List.of()).forEach(edge -> edge.target().ifPresent(pending::push));
            }
        }
        return seen;
    }

    /** Whether {@code from} is {@code to} or reaches it along the job's next transitions. */
    private static boolean leadsTo(String from, String to, Map<String, List<Edge>> edges) {
        Set<String> seen = new HashSet<>();
        Deque<String> pending = new ArrayDeque<>(List.of(from));
        while (!pending.isEmpty()) {
            String node = pending.pop();
            if (node.equals(to)) {
                return true;
            }
            if (seen.add(node)) {
                edges.getOrDefault(node, List.of()).stream().filter(e -> e.kind() == JslTransition.Kind.NEXT)
                        .forEach(e -> pending.push(e.target().orElseThrow()));
            }
        }
        return false;
    }

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
        return new JslProblem(at, what + " is not supported yet: this runtime runs jobs of <step>s that each hold a "
                + "<batchlet>");
    }

    static boolean isId(String id) {
        return !id.isEmpty() && id.length() <= 100 && id.chars()
                .allMatch(c -> (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                        || "_-.:/@".indexOf(c) >= 0);
    }

    private static String elementName(JslExecutionElement element) {
        if (element instanceof JslFlow) {
            return "flow";
        }
        if (element instanceof JslSplit) {
            return "split";
        }
        return element instanceof JslDecision ? "decision" : "step";
    }
}
