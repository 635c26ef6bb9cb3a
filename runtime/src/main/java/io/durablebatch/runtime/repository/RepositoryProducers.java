package io.durablebatch.runtime.repository;

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
            @RepositoryDataSource AgroalDataSource dataSource, TransactionGuard transactions, DurableBatchConfig config) {
        return new MetadataSql(session, dataSource, transactions, config.statements().timeout());
    }
}
