package io.durablebatch.benchmarks.peer;

import java.util.Properties;

/**
 * Another API the application launches the peer benchmark's jobs through (the Jakarta Batch
 * {@code JobOperator} is the default): {@code peer.api=native} selects it.
 */
public interface PeerLaunches {

    /** Starts the job (named as in the job XMLs) and waits for its end; its execution id. */
    long launchAndAwait(String job, Properties parameters) throws Exception;

    /** Whether the execution ended COMPLETED. */
    boolean completed(long execution);
}
