/**
 * The calls only an execution kernel makes on the repository: steps and their progress, flows,
 * partitions, ownership and control.
 */
package io.durablebatch.repository.spi;
