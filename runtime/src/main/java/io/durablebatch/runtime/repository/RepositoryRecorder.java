package io.durablebatch.runtime.repository;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.function.Function;

import jakarta.enterprise.inject.Default;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.hibernate.StatelessSession;
import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.runtime.schema.RepositoryMapping;
import io.durablebatch.runtime.schema.SchemaMigrator;
import io.quarkus.agroal.DataSource;
import io.quarkus.arc.Arc;
import io.quarkus.arc.SyntheticCreationalContext;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.hibernate.orm.PersistenceUnit;
import io.quarkus.hibernate.orm.runtime.HibernateOrmRuntimeConfig;
import io.quarkus.hibernate.orm.runtime.HibernateOrmRuntimeConfigPersistenceUnit;
import io.quarkus.hibernate.orm.runtime.HibernateOrmRuntimeConfigPersistenceUnit.HibernateGenerationStrategy;
import io.quarkus.hibernate.orm.runtime.JPAConfig;
import io.quarkus.hibernate.orm.runtime.PersistenceUnitUtil;
import io.quarkus.hibernate.orm.runtime.integration.HibernateOrmIntegrationRuntimeInitListener;
import io.quarkus.hibernate.orm.runtime.integration.HibernateOrmIntegrationStaticInitListener;
import io.quarkus.runtime.annotations.Recorder;
import io.smallrye.config.SmallRyeConfig;

/** What the build decided about the repository, carried into the running application. */
@Recorder
public class RepositoryRecorder {

    private static final Logger LOG = Logger.getLogger(RepositoryRecorder.class);

    /** The repository's datasource bean: the datasource of that name, chosen and checked at build time. */
    public Function<SyntheticCreationalContext<AgroalDataSource>, AgroalDataSource> repositoryDataSource(String name) {
        return context -> context.getInjectedReference(AgroalDataSource.class, qualifier(name));
    }

    /** The repository's stateless session: the JTA-bound one of the persistence unit chosen at build time. */
    public Function<SyntheticCreationalContext<StatelessSession>, StatelessSession> repositorySession(String unit) {
        return context -> context.getInjectedReference(StatelessSession.class, persistenceUnitQualifier(unit));
    }

    /** The entities' table names under the build's table prefix. */
    public HibernateOrmIntegrationStaticInitListener tablePrefix(String prefix) {
        return RepositoryMapping.tablePrefix(prefix);
    }

    /** Hibernate's schema management kept off the repository's tables. */
    public HibernateOrmIntegrationRuntimeInitListener schemaFilter(String prefix) {
        return RepositoryMapping.schemaFilter(prefix);
    }

    /** The qualifier of the persistence unit named {@code unit}, as Quarkus declares its session beans. */
    public static Annotation persistenceUnitQualifier(String unit) {
        return PersistenceUnitUtil.isDefaultPersistenceUnit(unit) ? Default.Literal.INSTANCE
                : new PersistenceUnit.PersistenceUnitLiteral(unit);
    }

    /**
     * Starts building the persistence unit that maps the repository on a thread of its own, so that
     * Hibernate's boot (the largest part of a start) runs while the schema migrates and the kernel
     * registers its jobs; Quarkus's own start of the unit, later in runtime init, then finds it built
     * (or waits for it, or builds it again after a failure and reports that failure as before). Only
     * when the unit manages no schema: a unit that validates or alters its tables must start after
     * the migration, as it does without this. Nothing in an init task, which only migrates.
     */
    public void buildPersistenceUnitAhead(String unit) {
        Config config = ConfigProvider.getConfig();
        if (config.getOptionalValue("quarkus.init-and-exit", Boolean.class).orElse(false)) {
            return;
        }
        HibernateOrmRuntimeConfigPersistenceUnit settings = config.unwrap(SmallRyeConfig.class)
                .getConfigMapping(HibernateOrmRuntimeConfig.class).persistenceUnits().get(unit);
        if (settings == null || settings.schemaManagement().strategy() != HibernateGenerationStrategy.NONE
                || settings.unsupportedProperties().keySet().stream().anyMatch(RepositoryRecorder::managesSchema)) {
            return;
        }
        JPAConfig units = Arc.container().instance(JPAConfig.class).get();
        if (!units.getPersistenceUnits().contains(unit)) {
            return; // deactivated: Quarkus reports it where the unit is used
        }
        Thread ahead = new Thread(() -> {
            long began = System.nanoTime();
            try {
                units.getEntityManagerFactory(unit, false);
                LOG.debugf("Persistence unit %s built ahead in %d ms", unit, (System.nanoTime() - began) / 1_000_000);
            } catch (RuntimeException e) {
                // Quarkus's own start of the unit builds it again and fails the start with this
                LOG.debugf(e, "Building the persistence unit %s ahead failed", unit);
            }
        }, "durable-batch-persistence-unit");
        ahead.setDaemon(true);
        ahead.start();
    }

    /** Whether an unsupported Hibernate property asks for schema management (which needs the migrated schema). */
    private static boolean managesSchema(String property) {
        return property.contains("hbm2ddl") || property.contains("schema-generation");
    }

    /**
     * Brings the repository's schema to this version's (or validates it), before anything reads it;
     * {@code checksums} are the migration scripts' as the build computed them.
     */
    public void migrate(List<Integer> checksums) {
        Arc.container().instance(SchemaMigrator.class).get().migrate(checksums);
    }

    /** The qualifier of the datasource named {@code name}, as Quarkus declares its datasource beans. */
    public static Annotation qualifier(String name) {
        return DataSourceUtil.isDefault(name) ? Default.Literal.INSTANCE : new DataSource.DataSourceLiteral(name);
    }
}
