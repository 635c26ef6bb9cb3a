package io.durablebatch.deployment.test.sql;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;

import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.SqlStatement;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ClientProxy;
import io.quarkus.arc.InjectableBean;

/** The statements the runtime's stores build, each store built first. */
final class BuiltStatements {

    private BuiltStatements() {
    }

    /** Builds every bean of the runtime, so every store has built its statements, and lists them by name. */
    static List<SqlStatement> every(RepositoryTables tables) {
        for (Bean<?> bean : Arc.container().beanManager().getBeans(Object.class, Any.Literal.INSTANCE)) {
            if (bean.getBeanClass().getName().startsWith("io.durablebatch.runtime.")) {
                Object instance = Arc.container().instance((InjectableBean<?>) bean).get();
                if (instance instanceof ClientProxy) {
                    ClientProxy.unwrap(instance);
                }
            }
        }
        List<SqlStatement> statements = new ArrayList<>(tables.statements());
        statements.sort(Comparator.comparing(SqlStatement::toString));
        return statements;
    }
}
