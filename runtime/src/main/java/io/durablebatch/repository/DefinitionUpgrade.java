package io.durablebatch.repository;

import io.durablebatch.Checks;
import io.durablebatch.execution.DefinitionIdentity;

/**
 * One explicit directed edge "a checkpoint made under {@code from} may be restarted under
 * {@code to}". Edges do not compose: A→B and B→C do not allow A→C.
 */
public record DefinitionUpgrade(DefinitionIdentity from, DefinitionIdentity to) {

    public DefinitionUpgrade {
        Checks.notNull(from, "upgrade.from");
        Checks.notNull(to, "upgrade.to");
        if (!from.jobName().equals(to.jobName())) {
            throw new IllegalArgumentException("upgrade.to must name the same job as upgrade.from: '"
                    + from.jobName() + "' vs '" + to.jobName() + "'");
        }
        if (from.equals(to)) {
            throw new IllegalArgumentException("upgrade.to must differ from upgrade.from");
        }
    }
}
