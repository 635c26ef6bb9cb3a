package io.durablebatch.item.jpa;

/** How a {@link JpaItemWriter} hands each item to the entity manager. */
public enum JpaWriteMode {

    /** {@code persist}: the items are new entities; the cheapest, no select before the insert. */
    PERSIST,
    /** {@code merge}: the items may exist already (detached or new); may select each one first. */
    MERGE
}
