package io.durablebatch.benchmarks.peer;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;

/**
 * Launches the peer benchmark's jobs through Spring Batch's {@link JobOperator}. With the default
 * synchronous task executor of {@code JdbcDefaultBatchConfiguration}, {@code start} returns when the job
 * ended: there is nothing to poll.
 */
public class SpringLaunches implements PeerLaunches {

    private final JobOperator operator;
    private final JobRepository repository;
    private final Map<String, Job> jobs;

    SpringLaunches(JobOperator operator, JobRepository repository, List<Job> jobs) {
        this.operator = operator;
        this.repository = repository;
        this.jobs = jobs.stream().collect(Collectors.toMap(Job::getName, Function.identity()));
    }

    @Override
    public long launchAndAwait(String job, Properties parameters) throws Exception {
        // every Jakarta start is a new instance: a unique identifying parameter makes each Spring one new too
        JobParametersBuilder values = new JobParametersBuilder().addString("run", UUID.randomUUID().toString());
        for (String name : parameters.stringPropertyNames()) {
            values.addLong(name, Long.parseLong(parameters.getProperty(name)));
        }
        JobExecution execution = operator.start(jobs.get(job), values.toJobParameters());
        if (execution.isRunning()) {
            throw new IllegalStateException("the benchmark expects Spring Batch's synchronous task executor");
        }
        return execution.getId();
    }

    @Override
    public boolean completed(long execution) {
        return repository.getJobExecution(execution).getStatus() == BatchStatus.COMPLETED;
    }
}
