package io.durablebatch.runtime.observe;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.durablebatch.context.StepContext;
import io.durablebatch.execution.ExecutionFailure;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.runtime.metrics.KernelMetrics;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

/**
 * The kernel's spans: one per job execution (a trace of its own, linked to the span that launched it
 * and to the span of the attempt it restarts, whatever process ran that one: each job span's context
 * is kept with its execution, {@link TraceContextStore}), one per step attempt, one per partition
 * worker (its partitioned step's child, whatever process runs the worker: a partitioned step's span
 * context is kept with its attempt too), one per committed chunk (the step's child, from the end of the
 * previous chunk: its reads, then its transaction, whose start is the event
 * {@value #CHUNK_TRANSACTION}). A bean only where the application has OpenTelemetry's tracer
 * ({@code quarkus-opentelemetry}): the build adds it then, and no other class of the kernel names
 * OpenTelemetry's types.
 */
public class BatchTracing implements ExecutionObserver {

    static final String INSTRUMENTATION = "io.durablebatch";
    static final String CHUNK_TRANSACTION = "chunk.transaction";

    static final AttributeKey<String> JOB_NAME = AttributeKey.stringKey("durablebatch.job.name");
    static final AttributeKey<Long> JOB_INSTANCE = AttributeKey.longKey("durablebatch.job.instance.id");
    static final AttributeKey<Long> JOB_EXECUTION = AttributeKey.longKey("durablebatch.job.execution.id");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("durablebatch.job.attempt");
    static final AttributeKey<String> STEP_NAME = AttributeKey.stringKey("durablebatch.step.name");
    static final AttributeKey<Long> STEP_EXECUTION = AttributeKey.longKey("durablebatch.step.execution.id");
    static final AttributeKey<String> PARTITION_KEY = AttributeKey.stringKey("durablebatch.partition.key");
    static final AttributeKey<Long> PARTITION_ORDINAL = AttributeKey.longKey("durablebatch.partition.ordinal");
    static final AttributeKey<String> STATUS = AttributeKey.stringKey("durablebatch.status");
    static final AttributeKey<String> EXIT_CODE = AttributeKey.stringKey("durablebatch.exit_code");
    static final AttributeKey<String> LINK = AttributeKey.stringKey("durablebatch.link");
    static final AttributeKey<Long> READ = AttributeKey.longKey("durablebatch.items.read");
    static final AttributeKey<Long> WRITTEN = AttributeKey.longKey("durablebatch.items.written");
    static final AttributeKey<Long> FILTERED = AttributeKey.longKey("durablebatch.items.filtered");
    static final AttributeKey<Long> SKIPPED = AttributeKey.longKey("durablebatch.items.skipped");
    static final AttributeKey<Long> COMMITS = AttributeKey.longKey("durablebatch.commits");
    static final AttributeKey<Long> ROLLBACKS = AttributeKey.longKey("durablebatch.rollbacks");
    static final AttributeKey<Long> CHUNK = AttributeKey.longKey("durablebatch.chunk");
    static final AttributeKey<String> FAILURE_TYPE = AttributeKey.stringKey("exception.type");
    static final AttributeKey<String> FAILURE_MESSAGE = AttributeKey.stringKey("exception.message");

    private static final Logger LOG = Logger.getLogger(BatchTracing.class);

    private final Tracer tracer;
    /** Where each execution's span context is kept for the next attempt; {@code null}: nowhere. */
    private final TraceContextStore contexts;
    /** The open spans of job executions and step attempts, by id: the parents of their steps and workers. */
    private final ConcurrentMap<Long, Context> jobs = new ConcurrentHashMap<>();
    private final ConcurrentMap<Long, Context> steps = new ConcurrentHashMap<>();

    @Inject
    public BatchTracing(OpenTelemetry openTelemetry, TraceContextStore contexts) {
        this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
        this.contexts = contexts;
    }

    /** Without a repository (a benchmark of the spans alone): no execution links to another. */
    public BatchTracing(OpenTelemetry openTelemetry) {
        this(openTelemetry, null);
    }

    @Override
    public Object launching(JobExecution execution) {
        SpanContext launcher = Span.current().getSpanContext();
        return launcher.isValid() ? launcher : null;
    }

    @Override
    public Observation<JobExecution> job(JobExecution execution, Object launch) {
        var builder = tracer.spanBuilder("job " + execution.jobName().value()).setNoParent()
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(JOB_NAME, execution.jobName().value())
                .setAttribute(JOB_INSTANCE, execution.jobInstanceId().value())
                .setAttribute(JOB_EXECUTION, execution.id().value())
                .setAttribute(ATTEMPT, (long) execution.attempt());
        if (launch instanceof SpanContext launcher) {
            builder.addLink(launcher, Attributes.of(LINK, "launched-by"));
        }
        SpanContext replaced = execution.isRestart() ? replaced(execution) : null;
        if (replaced != null) {
            builder.addLink(replaced, Attributes.of(LINK, "restarts"));
        }
        Span span = builder.startSpan();
        keep(span.getSpanContext(), traceParent -> contexts.record(execution.id(), traceParent), "Job execution %s: "
                + "its trace context could not be recorded, a restart of it will not link to its span: %s",
                execution.id());
        Context context = Context.root().with(span);
        long id = execution.id().value();
        jobs.put(id, context);
        Scope scope = context.makeCurrent();
        return new Observation<>() {
            @Override
            public void ended(JobExecution recorded) {
                span.setAttribute(STATUS, recorded.status().name());
                span.setAttribute(EXIT_CODE, recorded.exitStatus().code());
                recorded.failure().ifPresent(failure -> recordFailure(span, failure));
                if (recorded.status() == ExecutionStatus.FAILED && recorded.failure().isEmpty()) {
                    span.setStatus(StatusCode.ERROR);
                }
            }

            @Override
            public void failed(Throwable failure) {
                span.recordException(failure);
                span.setStatus(StatusCode.ERROR, "its end could not be recorded: left to recovery");
            }

            @Override
            public void close() {
                jobs.remove(id, context);
                scope.close();
                span.end();
            }
        };
    }

    @Override
    public Observation<StepExecution> step(ObservedStep step) {
        StepContext context = step.context();
        Context parent = parentOf(context);
        var builder = tracer.spanBuilder((context.partition().isPresent() ? "partition " : "step ")
                + context.stepName().value())
                .setParent(parent != null ? parent : Context.current())
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(JOB_NAME, context.jobName().value())
                .setAttribute(JOB_EXECUTION, context.jobExecutionId().value())
                .setAttribute(STEP_NAME, context.stepName().value())
                .setAttribute(STEP_EXECUTION, context.stepExecutionId().value());
        context.partition().ifPresent(partition -> builder.setAttribute(PARTITION_KEY, partition.key())
                .setAttribute(PARTITION_ORDINAL, (long) partition.ordinal()));
        Span span = builder.startSpan();
        if (step.partitioned()) {
            // before its plan is published: no worker of another process looks for it earlier
            keep(span.getSpanContext(), traceParent -> contexts.recordStep(context.stepExecutionId(), traceParent),
                    "Step execution %s: its trace context could not be recorded, the partitions other processes run "
                            + "will start traces of their own: %s",
                    context.stepExecutionId());
        }
        Context opened = (parent != null ? parent : Context.current()).with(span);
        long id = context.stepExecutionId().value();
        steps.put(id, opened);
        Scope scope = opened.makeCurrent();
        return new Observation<>() {
            @Override
            public void ended(StepExecution recorded) {
                span.setAttribute(STATUS, recorded.status().name());
                span.setAttribute(EXIT_CODE, recorded.exitStatus().code());
                StepCounters counters = recorded.counters();
                span.setAttribute(READ, counters.readCount());
                span.setAttribute(WRITTEN, counters.writeCount());
                span.setAttribute(FILTERED, counters.filterCount());
                span.setAttribute(SKIPPED, counters.skipCount());
                span.setAttribute(COMMITS, counters.commitCount());
                span.setAttribute(ROLLBACKS, counters.rollbackCount());
                recorded.failure().ifPresent(failure -> recordFailure(span, failure));
            }

            @Override
            public void failed(Throwable failure) {
                span.recordException(failure);
                span.setStatus(StatusCode.ERROR);
            }

            @Override
            public void close() {
                steps.remove(id, opened);
                scope.close();
                span.end();
            }
        };
    }

    /**
     * A span per committed chunk, made once it committed (the loop is not entered for it): it starts
     * where the previous chunk ended (the first at the attempt's first read), so its reads, retried
     * reads and rolled-back tries are in it, and its transaction starts at its event.
     */
    @Override
    public KernelMetrics.ChunkMeter chunks(String job, String step) {
        Context parent = Context.current();
        if (!Span.fromContext(parent).getSpanContext().isValid()) {
            return null;
        }
        long epochNanos = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis());
        long offset = epochNanos - System.nanoTime();
        long[] previousEnd = { epochNanos };
        long[] chunk = { 0 };
        return (read, written, skipped, nanos) -> {
            long end = System.nanoTime() + offset;
            Span span = tracer.spanBuilder("chunk " + step).setParent(parent).setSpanKind(SpanKind.INTERNAL)
                    .setStartTimestamp(previousEnd[0], TimeUnit.NANOSECONDS)
                    .setAttribute(READ, read)
                    .setAttribute(WRITTEN, written)
                    .setAttribute(SKIPPED, skipped)
                    .setAttribute(CHUNK, ++chunk[0])
                    .startSpan();
            span.addEvent(CHUNK_TRANSACTION, end - nanos, TimeUnit.NANOSECONDS);
            span.end(end, TimeUnit.NANOSECONDS);
            previousEnd[0] = end;
        };
    }

    /**
     * The span of the attempt {@code execution} replaces (a restart by an operator, or after the loss
     * of its owner), as the process that ran it recorded it: any node, any time before.
     */
    private SpanContext replaced(JobExecution execution) {
        return stored(() -> contexts.ofAttempt(execution.jobInstanceId(), execution.attempt() - 1), "Job execution "
                + "%s: the trace context of the attempt it restarts could not be read, its span is not linked to it: %s",
                execution.id());
    }

    /**
     * What a step attempt's span is the child of: a partition worker's, its partitioned step's span,
     * open in this process or, for a worker of another process than the step's, as that process
     * recorded it; any other attempt's, its job's span. {@code null}: none known.
     */
    private Context parentOf(StepContext context) {
        if (context.partition().isEmpty()) {
            return jobs.get(context.jobExecutionId().value());
        }
        StepExecutionId partitioned = context.partition().get().parent();
        Context local = steps.get(partitioned.value());
        if (local != null) {
            return local;
        }
        SpanContext remote = stored(() -> contexts.ofStep(partitioned), "Step execution %s: the trace context of its "
                + "partitioned step could not be read, its span starts a trace of its own: %s", context.stepExecutionId());
        return remote == null ? null : Context.root().with(Span.wrap(remote));
    }

    /**
     * Keeps a span's context where another process finds it. A failure costs the execution nothing but
     * the link: it is logged with {@code failure} (of {@code id} and the cause).
     */
    private void keep(SpanContext span, Consumer<String> store, String failure, Object id) {
        if (contexts == null || !span.isSampled()) {
            return; // a span the sampler dropped is in no trace a link could lead to
        }
        try {
            store.accept(traceParent(span));
        } catch (RuntimeException e) {
            LOG.warnf(failure, id, e.toString());
        }
    }

    /**
     * A span context another process kept ({@link #keep}); {@code null} for none, or if it cannot be
     * read (logged with {@code failure}, of {@code id} and the cause).
     */
    private SpanContext stored(Supplier<Optional<String>> read, String failure, Object id) {
        if (contexts == null) {
            return null;
        }
        try {
            return read.get().map(BatchTracing::parse).filter(SpanContext::isValid).orElse(null);
        } catch (RuntimeException e) {
            LOG.warnf(failure, id, e.toString());
            return null;
        }
    }

    /** The W3C {@code traceparent} of {@code span} (version 00). */
    static String traceParent(SpanContext span) {
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getTraceFlags().asHex();
    }

    /** The span context a {@code traceparent} of version 00 names; an invalid one for anything else. */
    static SpanContext parse(String traceParent) {
        String[] parts = traceParent.split("-");
        if (parts.length != 4 || !parts[0].equals("00") || parts[3].length() != 2) {
            return SpanContext.getInvalid();
        }
        return SpanContext.createFromRemoteParent(parts[1], parts[2], TraceFlags.fromHex(parts[3], 0),
                TraceState.getDefault());
    }

    private static void recordFailure(Span span, ExecutionFailure failure) {
        span.addEvent("exception", Attributes.of(FAILURE_TYPE, failure.type(), FAILURE_MESSAGE, failure.message()));
        span.setStatus(StatusCode.ERROR, failure.message());
    }
}
