package io.durablebatch.item.jpa;

import java.util.List;

import jakarta.persistence.EntityManager;

import io.durablebatch.Checks;
import io.durablebatch.item.ItemWriter;

/**
 * Writes a chunk through JPA: persists or merges each item, then flushes once, so the chunk's SQL
 * runs (and a constraint violation surfaces) inside the chunk's transaction, before the step's
 * progress commits with it. By default the persistence context is then cleared, so its size stays
 * that of one chunk however many chunks the transaction-scoped entity manager sees.
 * <p>
 * The entity manager must join the chunk's JTA transaction: in Quarkus, inject it (it is
 * transaction-scoped) and pass it here.
 */
public final class JpaItemWriter<T> implements ItemWriter<T> {

    private final EntityManager entityManager;
    private final JpaWriteMode mode;
    private final boolean clear;

    private JpaItemWriter(EntityManager entityManager, JpaWriteMode mode, boolean clear) {
        this.entityManager = Checks.notNull(entityManager, "entityManager");
        this.mode = Checks.notNull(mode, "mode");
        this.clear = clear;
    }

    /** A writer that persists new entities and clears the persistence context after each chunk. */
    public static <T> JpaItemWriter<T> persisting(EntityManager entityManager) {
        return new JpaItemWriter<>(entityManager, JpaWriteMode.PERSIST, true);
    }

    /** A writer that merges entities and clears the persistence context after each chunk. */
    public static <T> JpaItemWriter<T> merging(EntityManager entityManager) {
        return new JpaItemWriter<>(entityManager, JpaWriteMode.MERGE, true);
    }

    /**
     * The same writer, clearing the persistence context after each flush or not. Keep it (false)
     * only when later steps of the same transaction need the written entities managed.
     */
    public JpaItemWriter<T> clearAfterFlush(boolean clear) {
        return new JpaItemWriter<>(entityManager, mode, clear);
    }

    public JpaWriteMode mode() {
        return mode;
    }

    @Override
    public void write(List<? extends T> items) {
        if (items.isEmpty()) {
            return;
        }
        for (T item : items) {
            if (mode == JpaWriteMode.PERSIST) {
                entityManager.persist(item);
            } else {
                entityManager.merge(item);
            }
        }
        entityManager.flush();
        if (clear) {
            entityManager.clear();
        }
    }
}
