/**
 * What the repository keeps of partitioned steps: the plan and each partition's state.
 */
package io.durablebatch.repository.partition;
