package io.durablebatch.deployment.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

import io.durablebatch.repository.RepositoryException;

/**
 * Runs tasks on real threads released together by a latch, so they race for real. Each task opens
 * its own transactions (usually with {@link RepositoryTestSupport#tx}). The outcome of each task is
 * its result or what it threw, assertion errors included.
 */
public final class Race {

    private Race() {
    }

    /** One racer's outcome: exactly one of {@code result} and {@code failure} is set. */
    public record Outcome<T>(T result, Throwable failure) {

        public boolean succeeded() {
            return failure == null;
        }

        /**
         * What the racer ended with: {@code "ok"}, the error code of a refusal, or the type and message
         * of anything else (a raw SQL failure, say), so that an unexpected failure reads clearly.
         */
        public String code() {
            if (failure == null) {
                return "ok";
            }
            return failure instanceof RepositoryException refusal ? refusal.error().name()
                    : failure.getClass().getName() + ": " + failure.getMessage();
        }
    }

    /** Runs {@code task(racer)} for racers {@code 0 .. racers - 1} at once; their outcomes in racer order. */
    public static <T> List<Outcome<T>> run(int racers, IntFunction<T> task) {
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        CountDownLatch ready = new CountDownLatch(racers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Outcome<T>>> futures = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                int racer = i;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    start.await();
                    try {
                        return new Outcome<>(task.apply(racer), null);
                    } catch (RuntimeException | Error e) {
                        return new Outcome<T>(null, e);
                    }
                }));
            }
            if (!ready.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the racers did not get ready");
            }
            start.countDown();
            List<Outcome<T>> outcomes = new ArrayList<>();
            for (Future<Outcome<T>> future : futures) {
                outcomes.add(future.get(5, TimeUnit.MINUTES));
            }
            return outcomes;
        } catch (TimeoutException e) {
            throw new AssertionError("a racer did not finish: deadlock?", e);
        } catch (Exception e) {
            throw new IllegalStateException("the race did not finish", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The results of the racers that succeeded, in racer order. */
    public static <T> List<T> results(List<Outcome<T>> outcomes) {
        return outcomes.stream().filter(Outcome::succeeded).map(Outcome::result).toList();
    }

    /** How many racers ended with each {@link Outcome#code()}. */
    public static Map<String, Long> codes(List<? extends Outcome<?>> outcomes) {
        Map<String, Long> codes = new TreeMap<>();
        outcomes.forEach(outcome -> codes.merge(outcome.code(), 1L, Long::sum));
        return codes;
    }
}
