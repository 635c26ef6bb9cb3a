package io.durablebatch.jakarta.runtime.artifact;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.inject.Inject;

/**
 * Injection into a batch artifact that is no CDI bean, done by the batch runtime as the
 * specification asks: {@code @BatchProperty} fields, and {@code @Inject} {@link JobContext} and
 * {@link StepContext} fields, of the class and its superclasses.
 */
final class BatchProperties {

    private BatchProperties() {
    }

    /** The property a {@code @BatchProperty} names: its {@code name}, or else the field's. */
    static String name(BatchProperty qualifier, String fieldName) {
        return qualifier.name().isEmpty() ? fieldName : qualifier.name();
    }

    static void inject(Object artifact, CurrentArtifact current) throws IllegalAccessException {
        for (Class<?> type = artifact.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers())) {
                    continue;
                }
                Object value;
                BatchProperty property = field.getAnnotation(BatchProperty.class);
                if (property != null) {
                    String name = name(property, field.getName());
                    value = BatchPropertyTypes.convert(current.property(name), field.getType(), name, current.where());
                    if (value == null) {
                        // a property the element does not declare leaves the field as the class initialised it
                        continue;
                    }
                } else if (field.isAnnotationPresent(Inject.class) && field.getType() == JobContext.class) {
                    value = current.jobContext();
                } else if (field.isAnnotationPresent(Inject.class) && field.getType() == StepContext.class) {
                    value = current.stepContext();
                } else {
                    continue;
                }
                field.setAccessible(true);
                field.set(artifact, value);
            }
        }
    }
}
