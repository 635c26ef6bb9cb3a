package io.durablebatch.jakarta.runtime.jsl;

/** What a step does: a {@code <batchlet>} or a {@code <chunk>}. */
public sealed interface JslStepWork permits JslBatchlet, JslChunk {
}
