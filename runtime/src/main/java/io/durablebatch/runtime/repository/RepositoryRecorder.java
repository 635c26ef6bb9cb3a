package io.durablebatch.runtime.repository;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.function.Function;

import jakarta.enterprise.inject.Default;

import org.hibernate.StatelessSession;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.runtime.schema.RepositoryMapping;
import io.durablebatch.runtime.schema.SchemaMigrator;
import io.quarkus.agroal.DataSource;
import io.quarkus.arc.Arc;
import io.quarkus.arc.SyntheticCreationalContext;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.hibernate.orm.PersistenceUnit;
import io.quarkus.hibernate.orm.runtime.PersistenceUnitUtil;
import io.quarkus.hibernate.orm.runtime.integration.HibernateOrmIntegrationRuntimeInitListener;
import io.quarkus.hibernate.orm.runtime.integration.HibernateOrmIntegrationStaticInitListener;
import io.quarkus.runtime.annotations.Recorder;

/** What the build decided about the repository, carried into the running application. */
@Recorder
public class RepositoryRecorder {

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
