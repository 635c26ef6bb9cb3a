/**
 * Job Specification Language (Jakarta Batch 2.1, {@code META-INF/batch-jobs/*.xml}): an immutable model
 * of a job XML as written, its parser and validator, and the property substitution its values use.
 * Attribute values stay unresolved here ({@code item-count="#{jobParameters['n']}"} is legal), so
 * the model is what the build reads; resolving is done per execution with {@link PropertyScope}.
 */
package io.durablebatch.jakarta.runtime.jsl;
