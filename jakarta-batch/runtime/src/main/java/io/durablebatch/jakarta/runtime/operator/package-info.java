/**
 * The Jakarta Batch {@code JobOperator}: its CDI bean over the kernel, the {@code BatchRuntime} entry point, and the snapshots
 * it returns.
 */
package io.durablebatch.jakarta.runtime.operator;
