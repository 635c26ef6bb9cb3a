package io.durablebatch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

/** Runs one task on several real threads released together, and times them from release to the last finish. */
final class Concurrently {

    private Concurrently() {
    }

    /** Returns the elapsed nanoseconds; rethrows the first failure that escaped a task. */
    static long run(int threads, Runnable task) {
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        AtomicReference<Throwable> escaped = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>(threads);
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(() -> {
                try {
                    start.await();
                    task.run();
                } catch (Throwable e) {
                    escaped.compareAndSet(null, e);
                }
            }, "bench-worker-" + i);
            workers.add(worker);
            worker.start();
        }
        try {
            start.await();
            long started = System.nanoTime();
            for (Thread worker : workers) {
                worker.join();
            }
            long elapsed = System.nanoTime() - started;
            if (escaped.get() != null) {
                throw new IllegalStateException("a benchmark thread failed", escaped.get());
            }
            return elapsed;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the benchmark threads", e);
        } catch (BrokenBarrierException e) {
            throw new IllegalStateException("a benchmark thread did not start", e);
        }
    }
}
