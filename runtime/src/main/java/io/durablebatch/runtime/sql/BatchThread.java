package io.durablebatch.runtime.sql;

/**
 * A thread of the kernel (an execution, a split, a partition worker, the heartbeat, the sweeper):
 * the repository sessions it takes from the pool carry this process's mark ({@link ProcessSessions}),
 * those of the application's own threads do not.
 */
public final class BatchThread extends Thread {

    public BatchThread(Runnable task, String name, ClassLoader classLoader, boolean daemon) {
        super(task, name);
        setContextClassLoader(classLoader);
        setDaemon(daemon);
    }

    /** Whether the calling thread runs batch work. */
    public static boolean isCurrent() {
        return Thread.currentThread() instanceof BatchThread;
    }
}
