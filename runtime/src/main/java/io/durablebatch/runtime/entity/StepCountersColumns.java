package io.durablebatch.runtime.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/** The eight counters of a step's progress, which step executions and partitions share. */
@Embeddable
public class StepCountersColumns {

    @Column(name = "read_count", nullable = false)
    public long readCount;

    @Column(name = "write_count", nullable = false)
    public long writeCount;

    @Column(name = "filter_count", nullable = false)
    public long filterCount;

    @Column(name = "read_skip_count", nullable = false)
    public long readSkipCount;

    @Column(name = "process_skip_count", nullable = false)
    public long processSkipCount;

    @Column(name = "write_skip_count", nullable = false)
    public long writeSkipCount;

    @Column(name = "commit_count", nullable = false)
    public long commitCount;

    @Column(name = "rollback_count", nullable = false)
    public long rollbackCount;
}
