package io.durablebatch.benchmarks;

import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Explains a statement exactly as the repository ran it: its normalised text from
 * {@code pg_stat_statements}, prepared and explained as the generic plan, which is the plan a
 * server-prepared JDBC statement settles on for every value. So the check cannot drift from the
 * runtime's SQL.
 */
@ApplicationScoped
class QueryPlans {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$(\\d+)");

    /** The plan's node lines, outermost first, and whether an index serves it without a sequential scan. */
    record Plan(String nodes, boolean indexed) {
    }

    private final BenchDatabase database;

    QueryPlans(BenchDatabase database) {
        this.database = database;
    }

    /**
     * {@code $1} gets {@code firstParameter} (the value the repository binds); any later
     * placeholder is a constant that pg_stat_statements normalised (a {@code LIMIT 1}) and gets 1.
     * A generic plan does not depend on the values anyway.
     */
    Plan genericPlan(String normalizedQuery, long firstParameter) {
        return genericPlan(normalizedQuery, i -> i == 1 ? Long.toString(firstParameter) : "1");
    }

    /** The generic plan with every parameter NULL: for statements whose parameters are not all numbers. */
    Plan genericPlanOfAnyValues(String normalizedQuery) {
        return genericPlan(normalizedQuery, i -> "NULL");
    }

    private Plan genericPlan(String normalizedQuery, IntFunction<String> argument) {
        int placeholders = 0;
        Matcher matcher = PLACEHOLDER.matcher(normalizedQuery);
        while (matcher.find()) {
            placeholders = Math.max(placeholders, Integer.parseInt(matcher.group(1)));
        }
        List<String> arguments = new ArrayList<>();
        for (int i = 1; i <= placeholders; i++) {
            arguments.add(argument.apply(i));
        }
        String execute = "EXECUTE bench_explained" + (arguments.isEmpty() ? "" : "(" + String.join(", ", arguments) + ")");
        List<String> nodes = database.withConnection(connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET plan_cache_mode = force_generic_plan");
                statement.execute("PREPARE bench_explained AS " + normalizedQuery);
                try {
                    // The first line is the root node; every other node line starts with "->".
                    List<String> planNodes = new ArrayList<>();
                    try (ResultSet plan = statement.executeQuery("EXPLAIN (COSTS OFF) " + execute)) {
                        while (plan.next()) {
                            String line = plan.getString(1);
                            if (planNodes.isEmpty() || line.contains("->")) {
                                planNodes.add(line.replace("->", "").trim());
                            }
                        }
                    }
                    return planNodes;
                } finally {
                    statement.execute("DEALLOCATE bench_explained");
                    statement.execute("RESET plan_cache_mode");
                }
            }
        });
        boolean indexed = nodes.stream().anyMatch(node -> node.contains("Index Scan") || node.contains("Index Only Scan"))
                && nodes.stream().noneMatch(node -> node.startsWith("Seq Scan"));
        return new Plan(String.join(" > ", nodes), indexed);
    }
}
