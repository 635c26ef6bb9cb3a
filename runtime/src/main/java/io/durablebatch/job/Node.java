package io.durablebatch.job;

/**
 * A node of a job's flow. Its id is the logical, durable identity of the node: history (start
 * counts, checkpoints, decisions) attaches to the id, so a step can be renamed without losing it.
 */
public sealed interface Node permits Step, Decision, Split {

    /** The node id: unique in its job, letters, digits and {@code _-.:/@}. */
    String id();

    /** The kind of node as written in the canonical plan, e.g. {@code chunk}. */
    String kind();
}
