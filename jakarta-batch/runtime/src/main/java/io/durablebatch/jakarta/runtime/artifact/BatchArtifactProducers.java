package io.durablebatch.jakarta.runtime.artifact;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.InjectionPoint;
import jakarta.inject.Singleton;

/**
 * {@code @Inject JobContext}, {@code @Inject StepContext} and {@code @Inject @BatchProperty} of each
 * type {@link BatchPropertyTypes} lists, for batch artifacts that are CDI beans: each gives what the
 * {@link CurrentArtifact} has. {@code @BatchProperty}'s {@code name} is {@code @Nonbinding}, so one
 * producer a type serves every name.
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
    String stringProperty(InjectionPoint injectionPoint) {
        return (String) property(injectionPoint, String.class);
    }

    @Produces
    @Dependent
    @BatchProperty
    Boolean booleanProperty(InjectionPoint injectionPoint) {
        return (Boolean) property(injectionPoint, Boolean.class);
    }

    @Produces
    @Dependent
    @BatchProperty
    Double doubleProperty(InjectionPoint injectionPoint) {
        return (Double) property(injectionPoint, Double.class);
    }

    @Produces
    @Dependent
    @BatchProperty
    Float floatProperty(InjectionPoint injectionPoint) {
        return (Float) property(injectionPoint, Float.class);
    }

    @Produces
    @Dependent
    @BatchProperty
    Integer integerProperty(InjectionPoint injectionPoint) {
        return (Integer) property(injectionPoint, Integer.class);
    }

    @Produces
    @Dependent
    @BatchProperty
    Long longProperty(InjectionPoint injectionPoint) {
        return (Long) property(injectionPoint, Long.class);
    }

    @Produces
    @Dependent
    @BatchProperty
    Short shortProperty(InjectionPoint injectionPoint) {
        return (Short) property(injectionPoint, Short.class);
    }

    private static Object property(InjectionPoint injectionPoint, Class<?> type) {
        BatchProperty qualifier = injectionPoint.getQualifiers().stream().filter(BatchProperty.class::isInstance)
                .map(BatchProperty.class::cast).findFirst().orElseThrow();
        // a programmatic lookup (CDI.current().select(String.class, literal)) has no member: its literal names the property
        String name = injectionPoint.getMember() == null ? qualifier.name()
                : BatchProperties.name(qualifier, injectionPoint.getMember().getName());
        CurrentArtifact current = CurrentArtifact.require("@BatchProperty(name = \"" + name + "\")");
        return BatchPropertyTypes.convert(current.property(name), type, name, current.where());
    }
}
