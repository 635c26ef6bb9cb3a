package io.durablebatch.jakarta.runtime.jsl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the schema cannot check in a parsed job XML: ids unique in the job, every transition target
 * an element of the same job or flow (not one inside another flow, nor the element itself), no loop
 * of transitions, no decision first, a step with work, and attribute values that are not
 * substitutions within their range. A value holding a substitution is checked only when it is
 * resolved at start.
 */
public final class JslValidator {

    /** A binary class name: dotted Java identifiers, nested classes after {@code $}. */
    private static final Pattern CLASS_NAME = Pattern.compile("[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*"
            + "(\\.[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}]*)*");

    private final List<JslProblem> problems = new ArrayList<>();
    /** Every execution element of the job by id, and the flow it is directly in ("" for the job). */
    private final Map<String, String> scopeOf = new HashMap<>();

    private JslValidator() {
    }

    /** Every problem found, in document order of the elements concerned; empty when the job can run. */
    public static List<JslProblem> validate(JslJob job) {
        JslValidator validator = new JslValidator();
        validator.check(job);
        return List.copyOf(validator.problems);
    }

    private void check(JslJob job) {
        indexIds(job.elements(), "", new HashMap<>(Map.of(job.id(), job.location())));
        bool(job.location(), "restartable", job.restartable());
        if (job.elements().isEmpty()) {
            problem(job.location(), "a job needs at least one step, flow, split or decision");
        }
        sequence(job.elements(), "");
    }

    private void indexIds(List<? extends JslExecutionElement> elements, String scope, Map<String, JslLocation> seen) {
        for (JslExecutionElement element : elements) {
            JslLocation first = seen.putIfAbsent(element.id(), element.location());
            if (first != null) {
                problem(element.location(), "id \"" + element.id() + "\" is already used at line " + first.line());
            }
            scopeOf.putIfAbsent(element.id(), scope);
            children(element).forEach(children -> indexIds(children, element.id(), seen));
        }
    }

    /** One job's or flow's elements: they transition among themselves. */
    private void sequence(List<JslExecutionElement> elements, String scope) {
        if (!elements.isEmpty() && elements.get(0) instanceof JslDecision decision) {
            problem(decision.location(), "a decision cannot be the first element of a "
                    + (scope.isEmpty() ? "job" : "flow") + ": it decides on what ran before it");
        }
        Map<String, List<String>> routes = new LinkedHashMap<>();
        for (JslExecutionElement element : elements) {
            List<String> targets = new ArrayList<>();
            literal(element.next()).ifPresent(next -> {
                if (target(element, "next=\"" + next + "\"", next, scope)) {
                    targets.add(next);
                }
            });
            for (JslTransition transition : element.transitions()) {
                literal(transition.to()).ifPresent(to -> {
                    if (target(element, "<next on=\"" + transition.on() + "\" to=\"" + to + "\">", to, scope)) {
                        targets.add(to);
                    }
                });
                // restarting at the stopped element itself is the common case, not a loop
                literal(transition.restart()).filter(restart -> !restart.equals(element.id())).ifPresent(
                        restart -> target(element, "<stop on=\"" + transition.on() + "\" restart=\"" + restart
                                + "\">", restart, scope));
            }
            routes.put(element.id(), targets);
            element(element);
        }
        loops(elements, routes);
    }

    /** Whether a literal target is a sibling; if not, says why. */
    private boolean target(JslExecutionElement from, String written, String target, String scope) {
        if (target.equals(from.id())) {
            problem(from.location(), written + " goes to the element itself");
            return false;
        }
        String targetScope = scopeOf.get(target);
        if (targetScope == null) {
            problem(from.location(), written + " names no element of the job");
            return false;
        }
        if (!targetScope.equals(scope)) {
            problem(from.location(), written + " leaves " + describe(scope) + ": \"" + target + "\" is in "
                    + describe(targetScope) + "; an element can only go to one beside it");
            return false;
        }
        return true;
    }

    private void loops(List<JslExecutionElement> elements, Map<String, List<String>> routes) {
        Set<String> done = new HashSet<>();
        for (JslExecutionElement element : elements) {
            List<String> path = new ArrayList<>();
            List<String> loop = findLoop(element.id(), routes, path, done);
            if (loop != null) {
                problem(element.location(), "transitions form a loop: " + String.join(" -> ", loop));
                return; // one loop is enough to refuse the job; the others would repeat it
            }
        }
    }

    private static List<String> findLoop(String id, Map<String, List<String>> routes, List<String> path,
            Set<String> done) {
        int seen = path.indexOf(id);
        if (seen >= 0) {
            List<String> loop = new ArrayList<>(path.subList(seen, path.size()));
            loop.add(id);
            return loop;
        }
        if (!done.add(id)) {
            return null;
        }
        path.add(id);
        for (String next : routes.getOrDefault(id, List.of())) {
            List<String> loop = findLoop(next, routes, path, done);
            if (loop != null) {
                return loop;
            }
        }
        path.remove(path.size() - 1);
        return null;
    }

    private void element(JslExecutionElement element) {
        if (element instanceof JslStep step) {
            step(step);
        } else if (element instanceof JslFlow flow) {
            sequence(flow.elements(), flow.id());
        } else if (element instanceof JslSplit split) {
            split.flows().forEach(flow -> sequence(flow.elements(), flow.id()));
        }
    }

    private void step(JslStep step) {
        count(step.location(), "start-limit", step.startLimit(), 0);
        bool(step.location(), "allow-start-if-complete", step.allowStartIfComplete());
        if (step.work().isEmpty()) {
            problem(step.location(), "a step needs a <batchlet> or a <chunk>");
        }
        step.work().filter(JslChunk.class::isInstance).map(JslChunk.class::cast).ifPresent(this::chunk);
        step.partition().ifPresent(this::partition);
    }

    private void chunk(JslChunk chunk) {
        literal(chunk.checkpointPolicy()).ifPresent(policy -> {
            if (!policy.equals("item") && !policy.equals("custom")) {
                problem(chunk.location(), "checkpoint-policy=\"" + policy + "\" must be item or custom");
            } else if (policy.equals("custom") && chunk.checkpointAlgorithm().isEmpty()) {
                problem(chunk.location(), "checkpoint-policy=\"custom\" needs a <checkpoint-algorithm>");
            }
        });
        count(chunk.location(), "item-count", chunk.itemCount(), 1);
        count(chunk.location(), "time-limit", chunk.timeLimit(), 0);
        count(chunk.location(), "skip-limit", chunk.skipLimit(), 0);
        count(chunk.location(), "retry-limit", chunk.retryLimit(), 0);
        Stream.of(chunk.skippable(), chunk.retryable(), chunk.noRollback())
                .flatMap(filter -> Stream.concat(filter.include().stream(), filter.exclude().stream()))
                .filter(name -> Substitution.parse(name).isLiteral() && !CLASS_NAME.matcher(name).matches())
                .forEach(name -> problem(chunk.location(), "class=\"" + name + "\" is not a class name"));
    }

    private void partition(JslPartition partition) {
        if (partition.mapper().isEmpty() && partition.plan().isEmpty()) {
            problem(partition.location(), "a partition needs a <mapper> or a <plan>");
        }
        partition.plan().ifPresent(plan -> {
            Optional<Integer> partitions = count(plan.location(), "partitions", plan.partitions(), 1);
            count(plan.location(), "threads", plan.threads(), 1);
            for (JslProperties properties : plan.partitionProperties()) {
                count(plan.location(), "partition", properties.partition(), 0).filter(
                        index -> partitions.isPresent() && index >= partitions.get()).ifPresent(
                                index -> problem(plan.location(), "<properties partition=\"" + index
                                        + "\"> is beyond the plan's " + partitions.get() + " partitions"));
            }
        });
    }

    /** A literal whole-number attribute, at least {@code min}. */
    private Optional<Integer> count(JslLocation where, String attribute, Optional<String> value, int min) {
        Optional<String> literal = literal(value);
        if (literal.isEmpty()) {
            return Optional.empty();
        }
        try {
            int count = Integer.parseInt(literal.get().strip());
            if (count >= min) {
                return Optional.of(count);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        problem(where, attribute + "=\"" + literal.get() + "\" must be a whole number of at least " + min);
        return Optional.empty();
    }

    private void bool(JslLocation where, String attribute, Optional<String> value) {
        literal(value).filter(literal -> !Set.of("true", "false").contains(literal.strip().toLowerCase(Locale.ROOT)))
                .ifPresent(literal -> problem(where, attribute + "=\"" + literal + "\" must be true or false"));
    }

    /** The value when it is given and holds no substitution, so it can be checked now. */
    private static Optional<String> literal(Optional<String> value) {
        return value.filter(written -> Substitution.parse(written).isLiteral());
    }

    private static Stream<List<? extends JslExecutionElement>> children(JslExecutionElement element) {
        if (element instanceof JslFlow flow) {
            return Stream.of(flow.elements());
        }
        if (element instanceof JslSplit split) {
            return Stream.of(split.flows());
        }
        return Stream.empty();
    }

    private static String describe(String scope) {
        return scope.isEmpty() ? "the job's top level" : "\"" + scope + "\"";
    }

    private void problem(JslLocation where, String reason) {
        problems.add(new JslProblem(where, reason));
    }
}
