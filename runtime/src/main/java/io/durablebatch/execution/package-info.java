/**
 * The vocabulary every other package speaks: names, identities, executions, statuses, parameters and
 * digests. It depends on nothing of Durable Batch but {@code io.durablebatch.Checks}.
 */
package io.durablebatch.execution;
