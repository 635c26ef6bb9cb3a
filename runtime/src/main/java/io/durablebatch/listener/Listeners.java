package io.durablebatch.listener;

import java.util.ArrayList;
import java.util.List;

import io.durablebatch.Checks;

/**
 * The listeners declared on a job or a step, in declaration order; immutable. The job DSL builds
 * it ({@code Job.named(..).listener(..)}, {@code chunk(..).listener(..)}, ...); listeners are not
 * part of the job's plan or its fingerprint.
 */
public final class Listeners {

    /** No listener. */
    public static final Listeners NONE = new Listeners(List.of());

    private static final List<Class<? extends BatchListener>> KINDS = List.of(JobListener.class, JobEndListener.class,
            StepListener.class,
            ChunkListener.class, SkipListener.class, RetryListener.class, ItemReadListener.class, ItemProcessListener.class,
            ItemWriteListener.class);

    private final List<BatchListener> all;

    private Listeners(List<BatchListener> all) {
        this.all = all;
    }

    /**
     * These listeners and {@code listener} after them. Refused when {@code listener} implements
     * none of the kinds {@code where} calls: it would never be called.
     *
     * @param where what the listener is declared on, for the message ("step 'load'")
     * @param called the listener kinds called there
     */
    public Listeners with(BatchListener listener, String where, List<Class<? extends BatchListener>> called) {
        Checks.notNull(listener, "listener");
        if (called.stream().noneMatch(kind -> kind.isInstance(listener))) {
            throw new IllegalArgumentException("listener " + listener + " on " + where + " would never be called: "
                    + where + " calls " + called.stream().map(Class::getSimpleName).toList() + " only, it implements "
                    + KINDS.stream().filter(kind -> kind.isInstance(listener)).map(Class::getSimpleName).toList());
        }
        List<BatchListener> more = new ArrayList<>(all);
        more.add(listener);
        return new Listeners(List.copyOf(more));
    }

    /** The listeners that implement {@code kind}, in declaration order. */
    public <T extends BatchListener> List<T> of(Class<T> kind) {
        List<T> found = new ArrayList<>();
        for (BatchListener listener : all) {
            if (kind.isInstance(listener)) {
                found.add(kind.cast(listener));
            }
        }
        return found;
    }

    public boolean isEmpty() {
        return all.isEmpty();
    }

    @Override
    public String toString() {
        return "Listeners" + all;
    }
}
