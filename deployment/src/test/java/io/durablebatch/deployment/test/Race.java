package io.durablebatch.deployment.test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Runs tasks on real threads released together by a latch, so they race for real. Each task opens
 * its own transactions. The outcome of each task is its result or the exception it threw.
 */
public final class Race {

    private Race() {
    }

    /** One racer's outcome: exactly one of {@code result} and {@code failure} is set. */
    public record Outcome<T>(T result, RuntimeException failure) {
        public boolean succeeded() {
            return failure == null;
        }
    }

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
                    } catch (RuntimeException e) {
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
        } catch (Exception e) {
            throw new IllegalStateException("the race did not finish", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
