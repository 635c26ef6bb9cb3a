package io.durablebatch.jakarta.runtime.execution;

import java.util.ArrayList;
import java.util.List;

import jakarta.batch.api.listener.JobListener;
import jakarta.batch.runtime.BatchStatus;
import jakarta.inject.Singleton;

import io.durablebatch.context.JobContext;
import io.durablebatch.jakarta.runtime.JakartaJobs;
import io.durablebatch.jakarta.runtime.artifact.BatchArtifacts;
import io.durablebatch.jakarta.runtime.artifact.CurrentArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.listener.JobEnding;

/**
 * Runs the job-level {@code <listeners>} of one execution: before its first step each artifact is
 * resolved, with its properties as the execution resolves them, and its {@code beforeJob} called, in
 * document order; once the flow ended, before the end is recorded, the same instances'
 * {@code afterJob}, in the same order, so that an exit status {@code afterJob} sets is the one the
 * end records.
 */
@Singleton
public class JobListenerRuns {

    private final JakartaJobs jobs;
    private final ExecutionContexts contexts;

    JobListenerRuns(JakartaJobs jobs, ExecutionContexts contexts) {
        this.jobs = jobs;
        this.contexts = contexts;
    }

    /** Resolves the listeners and calls their {@code beforeJob}; the first that throws fails the execution. */
    void beforeJob(JslJob job, JobContext kernel) throws Exception {
        JakartaJobContext jobContext = contexts.job(job, kernel);
        List<BatchArtifacts.Resolved<JobListener>> resolved = new ArrayList<>();
        // registered before any is called: those resolved get their afterJob, even if a beforeJob throws
        contexts.listenedBy(kernel.jobExecutionId().value(), resolved);
        for (JslArtifact listener : job.listeners()) {
            CurrentArtifact current = current(jobContext, listener);
            BatchArtifacts.Resolved<JobListener> artifact = jobs.artifacts()
                    .resolve(jobContext.scope().resolve(listener.ref()), JobListener.class, current);
            resolved.add(artifact);
            current.call(() -> {
                artifact.get().beforeJob();
                return null;
            });
        }
    }

    /**
     * Calls the {@code afterJob} of every listener {@code beforeJob} resolved, and closes them; the
     * first failure is thrown once all were called, and fails the execution.
     */
    void afterJob(JslJob job, JobEnding ending) throws Exception {
        JakartaJobContext jobContext = contexts.job(job, ending.context());
        jobContext.ending(BatchStatus.valueOf(ending.status().name()));
        List<BatchArtifacts.Resolved<JobListener>> resolved = contexts.listenersOf(ending.execution().id().value());
        Exception first = null;
        for (int i = 0; i < resolved.size(); i++) {
            BatchArtifacts.Resolved<JobListener> artifact = resolved.get(i);
            try (artifact) {
                current(jobContext, job.listeners().get(i)).call(() -> {
                    artifact.get().afterJob();
                    return null;
                });
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static CurrentArtifact current(JakartaJobContext jobContext, JslArtifact listener) {
        return new CurrentArtifact(listener.location().toString(), jobContext, null,
                jobContext.scope().enter(listener.properties()).properties());
    }
}
