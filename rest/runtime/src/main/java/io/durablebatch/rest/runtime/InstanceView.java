package io.durablebatch.rest.runtime;

import java.time.Instant;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.durablebatch.execution.JobInstance;

/** A job instance: its job, its identifying parameters and when it was created. */
public record InstanceView(long id, String jobName, ObjectNode parameters, Instant createdAt) {

    static InstanceView of(JobInstance instance) {
        return new InstanceView(instance.id().value(), instance.jobName().value(),
                ParameterJson.write(instance.key().parameters()), instance.createdAt());
    }
}
