package io.durablebatch.runtime.repository;

import java.time.Duration;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.transaction.TransactionManager;

import org.hibernate.StatelessSession;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.runtime.DurableBatchBuildTimeConfig;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.RepositoryDataSource;
import io.durablebatch.runtime.sql.RepositoryPersistenceUnit;
import io.durablebatch.runtime.sql.StatementTimer;
import io.durablebatch.runtime.sql.TransactionGuard;

/**
 * Wires the repository's SQL layer to the stateless session of its persistence unit (the
 * synthetic {@link RepositoryPersistenceUnit} bean the build declares), the unit's datasource and the
 * JTA transaction manager.
 */
@Singleton
public class RepositoryProducers {

    @Produces
    @Singleton
    RepositoryTables tables(DurableBatchBuildTimeConfig buildConfig, DurableBatchConfig config) {
        return new RepositoryTables(buildConfig.schema().tablePrefix(), config.lease().duration());
    }

    @Produces
    @Singleton
    TransactionGuard transactionGuard(TransactionManager transactionManager) {
        return new TransactionGuard(transactionManager);
    }

    @Produces
    @Singleton
    MetadataSql metadataSql(@RepositoryPersistenceUnit StatelessSession session,
            @RepositoryDataSource AgroalDataSource dataSource, TransactionGuard transactions, DurableBatchConfig config,
            Instance<StatementTimer> timer) {
        return new MetadataSql(session, dataSource, transactions, statementTimeout(config),
                timer.isResolvable() ? timer.get() : StatementTimer.NONE);
    }

    /**
     * The repository statements' timeout: configured, or half the lease (at most 30 s), in whole
     * seconds; refused unless it is below the lease, which a renewal waiting that long would let run out.
     */
    static Duration statementTimeout(DurableBatchConfig config) {
        Duration lease = config.lease().duration();
        Duration configured = config.statements().timeout().orElseGet(() -> {
            Duration half = lease.dividedBy(2);
            return half.compareTo(Duration.ofSeconds(30)) > 0 ? Duration.ofSeconds(30) : half;
        });
        if (configured.isNegative() || configured.isZero()) {
            throw new IllegalArgumentException("quarkus.durable-batch.statements.timeout must be positive, got "
                    + configured);
        }
        Duration timeout = Duration.ofSeconds(Math.max(1, configured.toSeconds()));
        if (timeout.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("quarkus.durable-batch.statements.timeout (" + timeout.toSeconds()
                    + " s, whole seconds) must be below quarkus.durable-batch.lease.duration (" + lease
                    + "): a renewal waiting that long lets the lease it renews run out");
        }
        return timeout;
    }
}
