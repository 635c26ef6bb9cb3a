package io.durablebatch.deployment;

import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Singleton;

import org.hibernate.StatelessSession;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.ClassType;

import io.durablebatch.runtime.DurableBatchBuildTimeConfig;
import io.durablebatch.runtime.entity.RepositoryEntities;
import io.durablebatch.runtime.repository.RepositoryRecorder;
import io.durablebatch.runtime.sql.RepositoryPersistenceUnit;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.hibernate.orm.PersistenceUnit;
import io.quarkus.hibernate.orm.deployment.HibernateOrmConfig;
import io.quarkus.hibernate.orm.deployment.PersistenceUnitDescriptorBuildItem;
import io.quarkus.hibernate.orm.deployment.integration.HibernateOrmIntegrationRuntimeConfiguredBuildItem;
import io.quarkus.hibernate.orm.deployment.integration.HibernateOrmIntegrationStaticConfiguredBuildItem;
import io.quarkus.hibernate.orm.deployment.spi.AdditionalJpaModelBuildItem;
import io.quarkus.hibernate.orm.runtime.PersistenceUnitUtil;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * The repository's tables as Hibernate ORM entities in the persistence unit of the repository's
 * datasource: the unit chosen and checked at build time, the entities added to it, their table
 * names under the build's prefix, Hibernate's DDL kept off them, and the unit's stateless session
 * as the repository's.
 */
class DurableBatchEntitiesProcessor {

    /**
     * The persistence unit that maps the repository: {@code quarkus.durable-batch.persistence-unit},
     * else the one unit that uses the repository's datasource. None, or several, fails the build.
     */
    @BuildStep
    RepositoryPersistenceUnitBuildItem persistenceUnit(DurableBatchBuildTimeConfig config, HibernateOrmConfig orm,
            RepositoryDataSourceBuildItem dataSource) {
        if (config.persistenceUnit().isPresent()) {
            return new RepositoryPersistenceUnitBuildItem(config.persistenceUnit().get());
        }
        List<String> units = orm.persistenceUnits().entrySet().stream()
                .filter(unit -> dataSource.name().equals(
                        unit.getValue().datasource().orElse(DataSourceUtil.DEFAULT_DATASOURCE_NAME)))
                .map(Map.Entry::getKey).sorted().toList();
        if (units.isEmpty() && dataSource.isDefault()) {
            // the default unit need not be configured to exist
            return new RepositoryPersistenceUnitBuildItem(PersistenceUnitUtil.DEFAULT_PERSISTENCE_UNIT_NAME);
        }
        if (units.size() != 1) {
            throw new ConfigurationException("Durable Batch maps the job repository with Hibernate ORM in the "
                    + "persistence unit of its datasource " + describe(dataSource.name()) + ", and "
                    + (units.isEmpty() ? "no persistence unit uses it. Configure one: "
                            + "quarkus.hibernate-orm.\"" + dataSource.name() + "\".datasource=" + dataSource.name()
                            + " and quarkus.hibernate-orm.\"" + dataSource.name() + "\".packages="
                            + RepositoryEntities.PACKAGE + " (with the packages of the application's entities there)"
                            : "the persistence units " + units + " use it. Choose one with "
                                    + "quarkus.durable-batch.persistence-unit"));
        }
        return new RepositoryPersistenceUnitBuildItem(units.get(0));
    }

    private static String describe(String dataSource) {
        return DataSourceUtil.isDefault(dataSource) ? "<default>" : "'" + dataSource + "'";
    }

    @BuildStep
    List<AdditionalJpaModelBuildItem> entities(RepositoryPersistenceUnitBuildItem unit) {
        return RepositoryEntities.MODEL.stream()
                .map(entity -> new AdditionalJpaModelBuildItem(entity.getName(), Set.of(unit.name())))
                .toList();
    }

    /** The entities' table names under {@code quarkus.durable-batch.schema.table-prefix}. */
    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    HibernateOrmIntegrationStaticConfiguredBuildItem tablePrefix(RepositoryRecorder recorder,
            RepositoryPersistenceUnitBuildItem unit, DurableBatchBuildTimeConfig config) {
        return new HibernateOrmIntegrationStaticConfiguredBuildItem(DurableBatchProcessor.FEATURE, unit.name())
                .setInitListener(recorder.tablePrefix(config.schema().tablePrefix()));
    }

    /** Flyway owns the repository's tables: Hibernate's schema management leaves them alone. */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    HibernateOrmIntegrationRuntimeConfiguredBuildItem schemaFilter(RepositoryRecorder recorder,
            RepositoryPersistenceUnitBuildItem unit, DurableBatchBuildTimeConfig config) {
        return new HibernateOrmIntegrationRuntimeConfiguredBuildItem(DurableBatchProcessor.FEATURE, unit.name())
                .setInitListener(recorder.schemaFilter(config.schema().tablePrefix()));
    }

    /**
     * The unit's JTA-bound stateless session as {@code @RepositoryPersistenceUnit StatelessSession},
     * once the unit is known to exist on the repository's datasource.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    SyntheticBeanBuildItem repositorySession(RepositoryPersistenceUnitBuildItem unit,
            RepositoryDataSourceBuildItem dataSource, List<PersistenceUnitDescriptorBuildItem> units,
            RepositoryRecorder recorder) {
        PersistenceUnitDescriptorBuildItem descriptor = units.stream()
                .filter(candidate -> candidate.getPersistenceUnitName().equals(unit.name())).findFirst()
                .orElseThrow(() -> new ConfigurationException("Durable Batch maps the job repository in the "
                        + "Hibernate ORM persistence unit " + describe(unit.name()) + " of the datasource "
                        + describe(dataSource.name()) + ", and there is no such persistence unit; the units are "
                        + units.stream().map(PersistenceUnitDescriptorBuildItem::getPersistenceUnitName).sorted()
                                .toList()
                        + ". Configure it with quarkus.hibernate-orm.\"" + unit.name() + "\".datasource="
                        + dataSource.name()));
        String unitDataSource = descriptor.getConfig().getDataSource().orElse(DataSourceUtil.DEFAULT_DATASOURCE_NAME);
        if (!unitDataSource.equals(dataSource.name())) {
            throw new ConfigurationException("Durable Batch maps the job repository in the Hibernate ORM persistence "
                    + "unit " + describe(unit.name()) + ", which uses the datasource " + describe(unitDataSource)
                    + ", not the repository's " + describe(dataSource.name())
                    + " (quarkus.durable-batch.datasource): the metadata would commit apart from it");
        }
        return SyntheticBeanBuildItem.configure(StatelessSession.class)
                .addQualifier(RepositoryPersistenceUnit.class)
                .scope(Singleton.class)
                .unremovable()
                .setRuntimeInit()
                .addInjectionPoint(ClassType.create(StatelessSession.class), qualifier(unit.name()))
                .createWith(recorder.repositorySession(unit.name()))
                .done();
    }

    private static AnnotationInstance qualifier(String unit) {
        return PersistenceUnitUtil.isDefaultPersistenceUnit(unit)
                ? AnnotationInstance.builder(jakarta.enterprise.inject.Default.class).build()
                : AnnotationInstance.builder(PersistenceUnit.class).value(unit).build();
    }
}
