package io.durablebatch.deployment.test.entity;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertCausedBy;
import static io.durablebatch.deployment.test.RepositoryTestSupport.assertRefused;
import static io.durablebatch.deployment.test.RepositoryTestSupport.dropTablesWithPrefix;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.deployment.test.RepositoryTestSupport.txRun;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import org.hibernate.SessionFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.persister.entity.AbstractEntityPersister;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.entity.JobExecutionEntity;
import io.durablebatch.runtime.entity.JobInstanceEntity;
import io.durablebatch.runtime.entity.RepositoryEntities;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The repository's tables as JPA entities: Hibernate validates the mapping against the schema Flyway
 * migrated (under a build-time table prefix), a version-checked entity update that finds the row
 * changed is a {@code VERSION_CONFLICT} at the call, and an application reads the metadata through
 * Hibernate but cannot change it.
 */
class RepositoryEntitiesTest {

    private static final String PREFIX = "mapped_";

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.durable-batch.schema.table-prefix", PREFIX)
            // Hibernate validates every entity against the tables once the migration made them.
            .overrideConfigKey("quarkus.hibernate-orm.schema-management.strategy", "validate")
            .setBeforeAllCustomizer(() -> dropTablesWithPrefix(PREFIX));

    @Inject
    KernelRepository repository;

    @Inject
    MetadataSql sql;

    @Inject
    EntityManager entityManager;

    @Inject
    SessionFactory sessionFactory;

    @Test
    void everyTableIsAnEntityUnderTheBuildsPrefixWithItsVersionMapped() {
        Map<String, String> tables = new TreeMap<>();
        Map<String, Boolean> versioned = new TreeMap<>();
        for (Class<?> entity : RepositoryEntities.CLASSES) {
            var persister = (AbstractEntityPersister) sessionFactory.unwrap(SessionFactoryImplementor.class)
                    .getMappingMetamodel().getEntityDescriptor(entity);
            tables.put(entity.getSimpleName(), persister.getTableName());
            versioned.put(persister.getTableName(), persister.isVersioned());
        }
        assertEquals(14, tables.size());
        tables.values().forEach(table -> assertEquals(PREFIX, table.substring(0, PREFIX.length()), table));
        assertEquals(Map.of("mapped_job_execution", true, "mapped_step_execution", true,
                "mapped_step_partition", true), filterTrue(versioned), "the tables with a version column");
    }

    @Test
    void aStaleEntityUpdateIsAVersionConflictAtTheCallAndWritesNothing() {
        JobExecution execution = launch();
        JobExecutionEntity read = tx(() -> entity(execution));
        JobExecution started = tx(() -> repository.transitionJobExecution(execution.id(), execution.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, now())));

        read.exitDescription = "written from a stale read";
        assertRefused(RepositoryError.VERSION_CONFLICT, () -> sql.update(read));

        JobExecution stored = tx(() -> repository.getJobExecution(execution.id()).orElseThrow());
        assertEquals(started.version(), stored.version());
        assertEquals(started.exitStatus(), stored.exitStatus());
    }

    @Test
    void aCurrentEntityUpdateIncrementsTheVersion() {
        JobExecution execution = launch();
        JobExecutionEntity read = tx(() -> entity(execution));
        JobExecutionEntity written = tx(() -> sql.update(read));
        assertEquals(execution.version().value() + 1, written.version);
        assertEquals(written.version, tx(() -> repository.getJobExecution(execution.id()).orElseThrow())
                .version().value());
    }

    @Test
    void anApplicationReadsTheMetadataThroughHibernate() {
        JobExecution execution = launch();
        assertEquals(execution.jobInstanceId().value(), tx(() -> entityManager.createQuery("""
                select e.jobInstanceId from DurableBatchJobExecution e where e.id = :id""", Long.class)
                .setParameter("id", execution.id().value()).getSingleResult()));
    }

    @Test
    void anApplicationCannotChangeTheMetadata() {
        JobExecution execution = launch();
        String refusal = "is job metadata, written by the job repository only";
        assertCausedBy(assertThrows(RuntimeException.class, () -> txRun(() -> {
            JobInstanceEntity instance = new JobInstanceEntity();
            instance.jobName = "forged";
            entityManager.persist(instance);
            entityManager.flush();
        })), refusal);
        // the entities' fields are read by the repository, not tracked for the application: a change
        // to a managed instance is never written
        txRun(() -> {
            entityManager.find(JobExecutionEntity.class, execution.id().value()).status = ExecutionStatus.COMPLETED;
            entityManager.flush();
        });
        assertCausedBy(assertThrows(RuntimeException.class, () -> txRun(() -> {
            entityManager.remove(entityManager.find(JobExecutionEntity.class, execution.id().value()));
            entityManager.flush();
        })), refusal);
        JobExecution stored = tx(() -> repository.getJobExecution(execution.id()).orElseThrow());
        assertEquals(execution.status(), stored.status());
        assertEquals(execution.version(), stored.version());
    }

    private JobExecution launch() {
        JobInstance instance = tx(() -> repository.selectOrCreateJobInstance(freshKey("entities")).instance());
        return tx(() -> repository.createJobExecution(JobExecutionRequest.of(instance.id())));
    }

    /** The execution's entity as read in a transaction now ended: detached, as a stale read would be. */
    private JobExecutionEntity entity(JobExecution execution) {
        return entityManager.find(JobExecutionEntity.class, execution.id().value());
    }

    private static Map<String, Boolean> filterTrue(Map<String, Boolean> flags) {
        Map<String, Boolean> kept = new TreeMap<>();
        flags.forEach((key, value) -> {
            if (value) {
                kept.put(key, true);
            }
        });
        return kept;
    }
}
