package io.durablebatch.runtime.entity;

import java.io.Serializable;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityListeners;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/** How often a flow node of a job instance was started, across its executions (start limits). */
@Entity(name = "DurableBatchFlowNode")
@Table(name = "dbatch_flow_node")
@IdClass(FlowNodeEntity.Key.class)
@EntityListeners(RepositoryOwned.class)
public class FlowNodeEntity {

    @Id
    @Column(name = "job_instance_id")
    public long jobInstanceId;

    @Id
    @Column(name = "node_id", length = 100)
    public String nodeId;

    @Column(nullable = false)
    public int starts;

    /** The primary key: instance and node. */
    public static class Key implements Serializable {

        public long jobInstanceId;
        public String nodeId;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && jobInstanceId == key.jobInstanceId && nodeId.equals(key.nodeId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(jobInstanceId, nodeId);
        }
    }
}
