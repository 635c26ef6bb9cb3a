package org.acme.samples;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;

import io.durablebatch.context.StepContext;
import io.durablebatch.execution.JobName;
import io.durablebatch.listener.SkipListener;

/** Keeps every order the import skipped, with the reason, in the chunk's own transaction. */
@ApplicationScoped
@Priority(100)
class RejectedOrders implements SkipListener {

    private final EntityManager em;

    RejectedOrders(EntityManager em) {
        this.em = em;
    }

    @Override
    public boolean appliesTo(JobName job) {
        return job.value().equals("importOrders");
    }

    @Override
    public void onSkipInProcess(StepContext step, Object item, Exception failure) {
        em.persist(new Rejected(step.jobExecutionId().value(), item.toString(), failure.getMessage())); // <1>
    }
}
