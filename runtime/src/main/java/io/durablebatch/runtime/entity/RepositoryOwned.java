package io.durablebatch.runtime.entity;

import jakarta.persistence.PrePersist;
import jakarta.persistence.PreRemove;
import jakarta.persistence.PreUpdate;

/**
 * Refuses any change of a repository entity that the repository does not make itself: job
 * metadata follows the SPEC's transitions, which only the repository's calls check. An
 * application's persist, change or removal of one fails before anything is written.
 */
public class RepositoryOwned {

    private static final ThreadLocal<Boolean> REPOSITORY_WRITING = ThreadLocal.withInitial(() -> false);

    /** Runs {@code write}, an entity operation of the repository itself. */
    public static <T> T write(java.util.function.Supplier<T> write) {
        boolean outer = REPOSITORY_WRITING.get();
        REPOSITORY_WRITING.set(true);
        try {
            return write.get();
        } finally {
            REPOSITORY_WRITING.set(outer);
        }
    }

    @PrePersist
    @PreUpdate
    @PreRemove
    void refuseOutsideTheRepository(Object entity) {
        if (!REPOSITORY_WRITING.get()) {
            throw new UnsupportedOperationException(entity.getClass().getSimpleName()
                    + " is job metadata, written by the job repository only: read it through JobRepository or a "
                    + "query, change it through JobRepository or JobOperator");
        }
    }
}
