package io.durablebatch.runtime.repository;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.transaction.TransactionManager;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.runtime.DurableBatchConfig;
import io.durablebatch.runtime.schema.RepositoryTables;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.RepositoryDataSource;
import io.durablebatch.runtime.sql.TransactionGuard;

/**
 * Wires the repository's SQL layer to its datasource (the synthetic {@link RepositoryDataSource}
 * bean the build declares) and the JTA transaction manager.
 */
@Singleton
public class RepositoryProducers {

    @Produces
    @Singleton
    RepositoryTables tables(DurableBatchConfig config) {
        return new RepositoryTables(config.schema().tablePrefix(), config.lease().duration());
    }

    @Produces
    @Singleton
    TransactionGuard transactionGuard(TransactionManager transactionManager) {
        return new TransactionGuard(transactionManager);
    }

    @Produces
    @Singleton
    MetadataSql metadataSql(@RepositoryDataSource AgroalDataSource dataSource, TransactionGuard transactions,
            DurableBatchConfig config) {
        return new MetadataSql(dataSource, transactions, config.statements().timeout());
    }
}
