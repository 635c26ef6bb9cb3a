/**
 * JSL {@code <partition>}: the plan of a partitioned step (a static {@code <plan>} or a
 * {@code PartitionMapper}) as the kernel's durable partition plan, and the partitions' properties.
 */
package io.durablebatch.jakarta.runtime.partition;
