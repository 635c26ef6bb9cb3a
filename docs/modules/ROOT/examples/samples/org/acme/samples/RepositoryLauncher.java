package org.acme.samples;

import java.time.LocalDate;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.durablebatch.execution.ExecutionParameters;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.JobInstanceKey;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobRepository;

/** Records an attempt of a day's import straight in the repository, without the kernel. */
@ApplicationScoped
public class RepositoryLauncher {

    private final JobRepository repository;

    RepositoryLauncher(JobRepository repository) {
        this.repository = repository;
    }

    @Transactional
    public JobExecution launch(LocalDate day, String region) {
        JobInstanceKey key = JobInstanceKey.builder(JobName.of("importOrders")) // identifying: the instance
                .put("day", day)
                .put("region", region)
                .build();
        JobInstance instance = repository.selectOrCreateJobInstance(key).instance();
        // refused with EXECUTION_ACTIVE, INSTANCE_COMPLETE, ... if it is running or already ran
        return repository.createJobExecution(JobExecutionRequest.of(instance.id())
                .withParameters(ExecutionParameters.of(Map.of("chunkSize", 500L, "dryRun", false)))); // the attempt's own
    }
}
