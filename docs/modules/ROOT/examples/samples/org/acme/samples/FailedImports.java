package org.acme.samples;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobName;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageCursor;
import io.durablebatch.repository.PageRequest;

/** Every failed import, read page by page: each page starts after the last execution of the one before. */
@ApplicationScoped
public class FailedImports {

    private final JobRepository repository;

    FailedImports(JobRepository repository) {
        this.repository = repository;
    }

    @Transactional
    public List<JobExecution> all() {
        ExecutionQuery query = ExecutionQuery.all()
                .job(JobName.of("importOrders"))
                .statuses(Set.of(ExecutionStatus.FAILED));
        List<JobExecution> failed = new ArrayList<>();
        Page<JobExecution> page = repository.findJobExecutions(query, PageRequest.first(50));
        failed.addAll(page.items());
        for (Optional<PageCursor> next = page.next(); next.isPresent(); next = page.next()) {
            page = repository.findJobExecutions(query, PageRequest.after(next.get(), 50));
            failed.addAll(page.items());
        }
        return failed;
    }
}
