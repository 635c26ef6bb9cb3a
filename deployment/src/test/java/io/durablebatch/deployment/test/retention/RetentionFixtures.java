package io.durablebatch.deployment.test.retention;

import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import io.durablebatch.deployment.test.Rows;
import io.durablebatch.repository.ExecutionStatus;
import io.durablebatch.repository.JobExecution;
import io.durablebatch.repository.JobInstance;
import io.durablebatch.repository.JobInstanceId;
import io.durablebatch.repository.JobInstanceKey;
import io.durablebatch.repository.JobName;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.StepExecution;
import io.durablebatch.repository.StepName;

/** Instances with a given history, each built and committed in one unit of work. */
final class RetentionFixtures {

    /** The paths after STARTED that end an execution in each status. */
    private static final Map<ExecutionStatus, List<ExecutionStatus>> ENDINGS = Map.of(
            ExecutionStatus.COMPLETED, List.of(ExecutionStatus.COMPLETED),
            ExecutionStatus.FAILED, List.of(ExecutionStatus.FAILED),
            ExecutionStatus.STOPPED, List.of(ExecutionStatus.STOPPING, ExecutionStatus.STOPPED),
            ExecutionStatus.ABANDONED, List.of(ExecutionStatus.FAILED, ExecutionStatus.ABANDONED),
            ExecutionStatus.STARTED, List.of(),
            ExecutionStatus.UNKNOWN, List.of(ExecutionStatus.UNKNOWN));

    private RetentionFixtures() {
    }

    /** A job name no other test uses. */
    static JobName freshJob(String prefix) {
        return JobName.of(prefix + "-" + UUID.randomUUID());
    }

    /**
     * A new instance of {@code job} with one execution per status in {@code outcomes}, in that order,
     * each with {@code steps} completed steps.
     */
    static JobInstance instance(JobRepository repository, JobName job, int steps, ExecutionStatus... outcomes) {
        return tx(() -> {
            JobInstance instance = repository.selectOrCreateJobInstance(
                    JobInstanceKey.of(job, Map.of("run", UUID.randomUUID().toString()))).instance();
            for (ExecutionStatus outcome : outcomes) {
                JobExecution execution = repository.createJobExecution(instance.id());
                execution = repository.transitionJobExecution(execution.id(), execution.version(),
                        LifecycleTransition.to(ExecutionStatus.STARTED, now()));
                for (int s = 0; s < steps; s++) {
                    StepExecution step = repository.createStepExecution(execution.id(), StepName.of("step-" + s));
                    step = repository.transitionStepExecution(step.id(), step.version(),
                            LifecycleTransition.to(ExecutionStatus.STARTED, now()));
                    repository.transitionStepExecution(step.id(), step.version(),
                            LifecycleTransition.to(ExecutionStatus.COMPLETED, now()));
                }
                for (ExecutionStatus next : ENDINGS.get(outcome)) {
                    execution = repository.transitionJobExecution(execution.id(), execution.version(),
                            LifecycleTransition.to(next, now()));
                }
            }
            return instance;
        });
    }

    /** How many rows each instance-owned table holds for {@code instances}. */
    static Map<String, Long> storedRows(DataSource dataSource, List<JobInstanceId> instances) {
        long[] ids = instances.stream().mapToLong(JobInstanceId::value).toArray();
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("step_execution", Rows.number(dataSource,
                "SELECT count(*) FROM dbatch_step_execution WHERE job_instance_id = ANY (?)", ids));
        counts.put("job_execution", Rows.number(dataSource,
                "SELECT count(*) FROM dbatch_job_execution WHERE job_instance_id = ANY (?)", ids));
        counts.put("job_instance", Rows.number(dataSource,
                "SELECT count(*) FROM dbatch_job_instance WHERE id = ANY (?)", ids));
        counts.put("retention_hold", Rows.number(dataSource,
                "SELECT count(*) FROM dbatch_retention_hold WHERE job_instance_id = ANY (?)", ids));
        return counts;
    }

    /** Every stored row of {@code instances}, for comparing before and after a refusal. */
    static List<Map<String, Object>> everyRow(DataSource dataSource, List<JobInstanceId> instances) {
        long[] ids = instances.stream().mapToLong(JobInstanceId::value).toArray();
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.addAll(Rows.select(dataSource, "SELECT * FROM dbatch_job_instance WHERE id = ANY (?) ORDER BY id", ids));
        rows.addAll(Rows.select(dataSource,
                "SELECT * FROM dbatch_job_execution WHERE job_instance_id = ANY (?) ORDER BY id", ids));
        rows.addAll(Rows.select(dataSource,
                "SELECT * FROM dbatch_step_execution WHERE job_instance_id = ANY (?) ORDER BY id", ids));
        rows.addAll(Rows.select(dataSource,
                "SELECT * FROM dbatch_retention_hold WHERE job_instance_id = ANY (?) ORDER BY job_instance_id", ids));
        return rows;
    }
}
