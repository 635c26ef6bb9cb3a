/**
 * Running JSL steps on the kernel: the batchlet tasklet, the Jakarta job and step contexts, and the parameters a start is
 * given.
 */
package io.durablebatch.jakarta.runtime.execution;
