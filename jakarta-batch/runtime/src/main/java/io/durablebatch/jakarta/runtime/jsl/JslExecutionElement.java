package io.durablebatch.jakarta.runtime.jsl;

import java.util.List;
import java.util.Optional;

/** An element a job or flow runs in turn: step, flow, split or decision. Its id is unique in the job XML. */
public sealed interface JslExecutionElement permits JslStep, JslFlow, JslSplit, JslDecision {

    String id();

    /** The {@code next} attribute; a decision has none. */
    Optional<String> next();

    /** The transition elements, in document order; a split has none. */
    List<JslTransition> transitions();

    JslLocation location();
}
