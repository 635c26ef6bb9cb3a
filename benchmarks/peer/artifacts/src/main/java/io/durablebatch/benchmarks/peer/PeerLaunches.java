package io.durablebatch.benchmarks.peer;

import java.util.Properties;

/**
 * An API the peer benchmark launches its jobs through: the Jakarta Batch {@code JobOperator} (the
 * default), or another one the application provides ({@code peer.api=native} selects it).
 */
public interface PeerLaunches {

    /** Starts the job (named as in the job XMLs) and waits for its end; its execution id. */
    long launchAndAwait(String job, Properties parameters) throws Exception;

    /**
     * The same, for a caller that polls the execution every {@code pollMillis}: an API that awaits the end
     * itself has nothing to poll.
     */
    default long launchAndAwait(String job, Properties parameters, long pollMillis) throws Exception {
        return launchAndAwait(job, parameters);
    }

    /** Whether the execution ended COMPLETED. */
    boolean completed(long execution);
}
