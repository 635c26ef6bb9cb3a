package io.durablebatch.runtime.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The last decision's sequence of an execution's flow: the row appends serialize on. */
@Entity(name = "DurableBatchFlowDecisionHead")
@Table(name = "dbatch_flow_decision_head")
@EntityListeners(RepositoryOwned.class)
public class FlowDecisionHeadEntity {

    @Id
    @Column(name = "job_execution_id")
    public long jobExecutionId;

    @Column(name = "last_sequence", nullable = false)
    public int lastSequence;
}
