package io.durablebatch.runtime.metrics;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import io.durablebatch.runtime.sql.StatementTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The time of repository statements by statement name ({@value #NAME}, tag {@code statement}), in
 * the application's Micrometer registry. Registered by the build only where the application has
 * Micrometer; each name's timer is looked up once.
 */
public class MicrometerStatementTimer implements StatementTimer {

    static final String NAME = MicrometerKernelMetrics.PREFIX + "repository.statement";

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Timer> timers = new ConcurrentHashMap<>();

    public MicrometerStatementTimer(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void record(String statement, long nanos) {
        timers.computeIfAbsent(statement, name -> Timer.builder(NAME).tag("statement", name)
                .description("The time of a repository statement, to its result or failure, by its name in the "
                        + "statement catalogue")
                .register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }
}
