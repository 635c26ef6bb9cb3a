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
import io.quarkus.agroal.DataSource;
import io.quarkus.arc.Arc;

/** Wires the repository's SQL layer to the configured datasource and the JTA transaction manager. */
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
    @RepositoryDataSource
    AgroalDataSource repositoryDataSource(DurableBatchConfig config) {
        return dataSource(config);
    }

    @Produces
    @Singleton
    MetadataSql metadataSql(@RepositoryDataSource AgroalDataSource dataSource, TransactionGuard transactions,
            DurableBatchConfig config) {
        return new MetadataSql(dataSource, transactions, config.statements().timeout());
    }

    /** The datasource named by {@code quarkus.durable-batch.datasource}, or the default one. */
    static AgroalDataSource dataSource(DurableBatchConfig config) {
        var candidates = config.datasource()
                .map(name -> Arc.container().select(AgroalDataSource.class, new DataSource.DataSourceLiteral(name)))
                .orElseGet(() -> Arc.container().select(AgroalDataSource.class));
        if (!candidates.isResolvable()) {
            throw new IllegalStateException("Durable Batch needs the datasource "
                    + config.datasource().map(name -> "'" + name + "'").orElse("<default>")
                    + " (quarkus.durable-batch.datasource), which is not configured: configure it with "
                    + "quarkus.datasource" + config.datasource().map(name -> ".\"" + name + "\"").orElse("")
                    + ".db-kind=postgresql");
        }
        return candidates.get();
    }
}
