package io.durablebatch.deployment.test.entity;

import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.logging.LogRecord;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.runtime.repository.RepositoryRecorder;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A persistence unit that manages no schema (the default) is built on a thread of its own while the
 * repository's schema migrates and the kernel starts, so that Hibernate's boot overlaps them;
 * {@link SchemaManagementLeavesRepositoryTablesTest} holds that a unit that does manage its schema
 * is not.
 */
class PersistenceUnitBuiltAheadTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .overrideConfigKey("quarkus.log.category.\"" + RepositoryRecorder.class.getName() + "\".level", "DEBUG")
            .setLogRecordPredicate(record -> RepositoryRecorder.class.getName().equals(record.getLoggerName()))
            .assertLogRecords(records -> {
                List<String> built = records.stream().map(LogRecord::getMessage)
                        .filter(message -> message.contains("built ahead")).toList();
                assertEquals(1, built.size(), "built ahead once: " + records.stream().map(LogRecord::getMessage).toList());
                assertTrue(records.stream().noneMatch(record -> record.getMessage().contains("failed")));
            });

    @Inject
    EntityManager entityManager;

    @Test
    void theUnitBuiltAheadIsTheOneTheApplicationUses() {
        long instances = tx(() -> entityManager.createQuery("select count(i) from DurableBatchJobInstance i", Long.class)
                .getSingleResult());
        assertTrue(instances >= 0);
    }
}
