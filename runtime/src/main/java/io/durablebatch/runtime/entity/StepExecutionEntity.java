package io.durablebatch.runtime.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * A step's attempt within a job execution, with its checkpoint and counters. Its column
 * {@code trace_parent} is not mapped, as {@link JobExecutionEntity}'s is not.
 */
@Entity(name = "DurableBatchStepExecution")
@Table(name = "dbatch_step_execution")
public class StepExecutionEntity extends ExecutionColumns {

    @Column(name = "job_execution_id", nullable = false)
    public long jobExecutionId;

    @Column(name = "step_name", nullable = false, length = 100)
    public String stepName;

    /** The flow node the step ran as, if it ran in a flow. */
    @Column(name = "node_id", length = 100)
    public String nodeId;

    @Column
    public byte[] checkpoint;

    @Embedded
    public StepCountersColumns counters = new StepCountersColumns();
}
