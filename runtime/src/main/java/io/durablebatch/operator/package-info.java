/**
 * Launching and controlling jobs: {@link io.durablebatch.operator.JobOperator} (start, restart, stop,
 * abandon, await), the parameters of a launch and the caller's identity for the audit.
 */
package io.durablebatch.operator;
