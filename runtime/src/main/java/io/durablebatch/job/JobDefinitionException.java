package io.durablebatch.job;

import java.util.Optional;

/** A job definition that cannot run: the message names the job and, where one is at fault, the node. */
public final class JobDefinitionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String jobName;
    private final String nodeId;

    JobDefinitionException(String jobName, String nodeId, String problem) {
        super("job '" + jobName + "'" + (nodeId == null ? "" : ", node '" + nodeId + "'") + ": " + problem);
        this.jobName = jobName;
        this.nodeId = nodeId;
    }

    public String jobName() {
        return jobName;
    }

    public Optional<String> nodeId() {
        return Optional.ofNullable(nodeId);
    }
}
