package io.durablebatch.runtime.job;

import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

/**
 * Failures a test armed at chosen chunks ({@code TestHooks.failChunk}). A bean only when the test
 * library is on the classpath; otherwise the chunk loop holds {@code null} and skips its one check.
 */
@Singleton
public class ChunkFaults {

    private static final Logger LOG = Logger.getLogger(ChunkFaults.class);

    /** One armed failure; {@code fired} is set by the one chunk that throws it. */
    private record Armed(Set<String> jobNames, String stepName, long chunk, Exception failure, AtomicBoolean fired) {
    }

    private final Queue<Armed> armed = new ConcurrentLinkedQueue<>();

    BooleanSupplier arm(Set<String> jobNames, String stepName, long chunk, Exception failure) {
        if (chunk < 1) {
            throw new IllegalArgumentException("chunks are counted from 1, got " + chunk);
        }
        Armed fault = new Armed(Set.copyOf(jobNames), stepName, chunk, failure, new AtomicBoolean());
        armed.add(fault);
        return fault.fired()::get;
    }

    void clear() {
        armed.clear();
    }

    /**
     * Called in a chunk's transaction once its writer wrote: throws the failure armed for this chunk
     * of this step attempt, if any, once.
     */
    void afterWrite(StepAttempt attempt) throws Exception {
        if (armed.isEmpty()) {
            return;
        }
        long chunk = attempt.counters().commitCount() + 1;
        String job = attempt.context().jobName().value();
        String step = attempt.step().name().value();
        for (Armed fault : armed) {
            if (fault.chunk() == chunk && fault.stepName().equals(step) && fault.jobNames().contains(job)
                    && armed.remove(fault)) {
                fault.fired().set(true);
                LOG.infof("Chunk %d of step '%s' of job '%s' fails as the test asked: %s", chunk, step, job,
                        fault.failure());
                throw fault.failure();
            }
        }
    }
}
