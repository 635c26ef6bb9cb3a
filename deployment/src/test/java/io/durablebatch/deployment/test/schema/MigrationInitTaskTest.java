package io.durablebatch.deployment.test.schema;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryTestSupport;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.InitTaskBuildItem;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The schema's migration is offered as an init task, as Quarkus' own schema tools offer theirs: the
 * task migrates and exits, the application's replicas only validate.
 */
class MigrationInitTaskTest {

    /**
     * The build step below runs in the build's class loader, the test in the application's: what the
     * build saw crosses over as a system property.
     */
    static final String SEEN = "durable-batch.test.init-tasks";

    @RegisterExtension
    static final QuarkusUnitTest APP = RepositoryTestSupport.repositoryApp()
            .addBuildChainCustomizer(chain -> chain.addBuildStep(context -> {
                System.setProperty(SEEN, context.consumeMulti(InitTaskBuildItem.class).stream()
                        .map(task -> task.getName() + " " + new TreeMap<>(task.getTaskEnvVars()) + " "
                                + new TreeMap<>(task.getAppEnvVars()))
                        .collect(Collectors.joining("\n")));
                context.produce(new FeatureBuildItem("init-task-probe"));
            }).consumes(InitTaskBuildItem.class).produces(FeatureBuildItem.class).build());

    @Test
    void theTaskMigratesAndTheApplicationValidates() {
        String task = Arrays.stream(System.getProperty(SEEN, "").split("\n"))
                .filter(line -> line.contains("-durable-batch-init ")).findFirst()
                .orElseThrow(() -> new AssertionError("no durable-batch init task among: " + System.getProperty(SEEN)));
        assertTrue(task.endsWith(" {QUARKUS_DURABLE_BATCH_SCHEMA_MIGRATE_AT_START=true, QUARKUS_INIT_AND_EXIT=true}"
                + " {QUARKUS_DURABLE_BATCH_SCHEMA_MIGRATE_AT_START=false}"), task);
    }
}
