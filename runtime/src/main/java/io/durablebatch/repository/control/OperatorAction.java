package io.durablebatch.repository.control;

/** What an operator asked for. Together with an operation id it names one audited request. */
public enum OperatorAction {
    /** Launch a first attempt of an instance. */
    START,
    /** Launch a new attempt after a STOPPED or FAILED one. */
    RESTART,
    /** Ask the owner of an active execution to stop at its next chunk boundary. */
    STOP,
    /** Mark a STOPPED or FAILED execution as never to be restarted. */
    ABANDON,
    /** Resolve an orphaned or UNKNOWN execution (see {@code JobRepository.recoverJobExecution}). */
    RECOVER
}
