package io.durablebatch.jakarta.runtime.partition;

/**
 * How the kernel's worker steps of a partitioned JSL step are named: {@code <id>:partition}. A JSL
 * step id cannot end so (JSL ids are XML IDs, which exclude ':' in the TCK's and in practice; the
 * translation refuses such an id), and the Jakarta operator hides them: Jakarta knows one step
 * execution per partitioned step.
 */
public final class PartitionWorkerSteps {

    static final String SUFFIX = ":partition";

    private PartitionWorkerSteps() {
    }

    public static String workerOf(String stepId) {
        return stepId + SUFFIX;
    }

    /** Whether {@code stepName} names the worker steps of a partitioned step. */
    public static boolean isWorker(String stepName) {
        return stepName.endsWith(SUFFIX);
    }
}
