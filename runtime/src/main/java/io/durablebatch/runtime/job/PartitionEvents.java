package io.durablebatch.runtime.job;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.durablebatch.context.PartitionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.ExitStatus;
import io.durablebatch.job.PartitionAnalyzer;

/**
 * What the local workers of a partitioned step with a {@link PartitionAnalyzer} tell its parent: the
 * data they collect and how each partition ended, queued in the order it happened, and handed to the
 * analyzer on the parent's thread only. A worker queues its end after its data, before the parent can
 * see its partition ended, so once no local worker runs every event is queued.
 */
final class PartitionEvents {

    private interface Event {
        void deliver(PartitionAnalyzer analyzer, StepContext parent) throws Exception;
    }

    private final PartitionAnalyzer analyzer;
    private final Queue<Event> queued = new ConcurrentLinkedQueue<>();

    PartitionEvents(PartitionAnalyzer analyzer) {
        this.analyzer = analyzer;
    }

    /** On a worker's thread. */
    void collected(PartitionContext partition, Object data) {
        queued.add((analyzer, parent) -> analyzer.collected(parent, partition, data));
    }

    /** On a worker's thread. */
    void ended(PartitionContext partition, ExecutionStatus status, ExitStatus exitStatus) {
        queued.add((analyzer, parent) -> analyzer.ended(parent, partition, status, exitStatus));
    }

    /** On the parent's thread: hands every queued event to the analyzer, in order; stops at its first throw. */
    void deliver(StepContext parent) throws Exception {
        for (Event event = queued.poll(); event != null; event = queued.poll()) {
            event.deliver(analyzer, parent);
        }
    }

    /** On the parent's thread, once every partition has ended. */
    void allEnded(StepContext parent, ExecutionStatus status) throws Exception {
        deliver(parent);
        analyzer.allEnded(parent, status);
    }
}
