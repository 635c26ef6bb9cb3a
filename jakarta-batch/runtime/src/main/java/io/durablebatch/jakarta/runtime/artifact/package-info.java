/**
 * Batch artifacts: resolving a JSL ref to a CDI bean or a class, and injecting their contexts and {@code @BatchProperty}
 * values.
 */
package io.durablebatch.jakarta.runtime.artifact;
