package io.durablebatch.jakarta.runtime.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.durablebatch.jakarta.runtime.jsl.JslChunk;
import io.durablebatch.jakarta.runtime.jsl.JslExceptionFilter;
import io.durablebatch.jakarta.runtime.jsl.JslProblem;
import io.durablebatch.job.ExceptionFilter;

/**
 * A JSL exception filter ({@code <skippable-exception-classes>} and its siblings) as the kernel's
 * {@link ExceptionFilter}: each {@code class} is loaded by the application's class loader when the
 * plan is built, so a misspelt name or a class that is no exception is refused at start, with its
 * element, rather than never matching.
 */
final class ExceptionFilters {

    private ExceptionFilters() {
    }

    /** The kernel filter of {@code filter}, or empty with the reasons added to {@code problems}. */
    static Optional<ExceptionFilter> of(JslChunk chunk, String element, JslExceptionFilter filter,
            List<JslProblem> problems) {
        int before = problems.size();
        List<Class<? extends Throwable>> included = load(chunk, element, "include", filter.include(), problems);
        List<Class<? extends Throwable>> excluded = load(chunk, element, "exclude", filter.exclude(), problems);
        if (problems.size() > before) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ExceptionFilter(included, excluded));
        } catch (IllegalArgumentException e) {
            problems.add(new JslProblem(chunk.location(), "<" + element + ">: " + e.getMessage()));
            return Optional.empty();
        }
    }

    private static List<Class<? extends Throwable>> load(JslChunk chunk, String element, String kind,
            List<String> names, List<JslProblem> problems) {
        List<Class<? extends Throwable>> classes = new ArrayList<>(names.size());
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        for (String name : names) {
            String where = "<" + element + "><" + kind + " class=\"" + name + "\">";
            try {
                Class<?> type = Class.forName(name.trim(), false, loader);
                if (!Throwable.class.isAssignableFrom(type)) {
                    problems.add(new JslProblem(chunk.location(), where + " names a class that is not an exception"));
                    continue;
                }
                classes.add(type.asSubclass(Throwable.class));
            } catch (ClassNotFoundException | LinkageError e) {
                problems.add(new JslProblem(chunk.location(), where + " names no class the application can load: " + e));
            }
        }
        return classes;
    }
}
