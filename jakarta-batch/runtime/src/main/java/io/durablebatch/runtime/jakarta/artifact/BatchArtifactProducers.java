package io.durablebatch.runtime.jakarta.artifact;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.inject.Singleton;

/**
 * {@code @Inject JobContext}, {@code @Inject StepContext} and {@code @Inject @BatchProperty String}
 * for batch artifacts that are CDI beans: each gives what the {@link CurrentArtifact} has.
 * {@code @BatchProperty}'s {@code name} is {@code @Nonbinding}, so this one producer serves every name.
 */
@Singleton
public class BatchArtifactProducers {

    @Produces
    @Dependent
    JobContext jobContext() {
        return CurrentArtifact.require("JobContext").jobContext();
    }

    @Produces
    @Dependent
    StepContext stepContext() {
        return CurrentArtifact.require("StepContext").stepContext();
    }

    @Produces
    @Dependent
    @BatchProperty
    String batchProperty(InjectionPoint injectionPoint) {
        BatchProperty qualifier = injectionPoint.getQualifiers().stream().filter(BatchProperty.class::isInstance)
                .map(BatchProperty.class::cast).findFirst().orElseThrow();
        String name = BatchProperties.name(qualifier, injectionPoint.getMember().getName());
        return CurrentArtifact.require("@BatchProperty(name = \"" + name + "\")").property(name);
    }
}
