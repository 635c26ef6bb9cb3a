package io.durablebatch.deployment.test.devui;

import static io.durablebatch.deployment.test.RepositoryTestSupport.assertStatements;
import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.durablebatch.execution.ExecutionStatus.COMPLETED;
import static io.durablebatch.execution.ExecutionStatus.FAILED;
import static io.durablebatch.execution.ExecutionStatus.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.deployment.test.RepositoryFixtures;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobInstance;
import io.durablebatch.execution.StepCounters;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.runtime.dev.DurableBatchJsonRPCService;
import io.durablebatch.runtime.dev.ExecutionDetail;
import io.durablebatch.runtime.dev.ExecutionDetail.StepView;
import io.durablebatch.runtime.dev.ExecutionView;
import io.durablebatch.runtime.dev.Listing;
import io.durablebatch.runtime.sql.MetadataSql;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The Dev UI's executions page costs two statements whatever its size: the page, then the steps of
 * all its executions (each row's counters are its own steps'), never one more statement a row; the
 * drill-down of one execution costs the same statements whatever the number of its step attempts. The
 * JSON-RPC service is a bean of dev mode only: here it is added to a plain test application, so that
 * its statements can be counted on the calling thread.
 */
class DevUIExecutionsPageCostTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp()
            .addBuildChainCustomizer(chain -> chain.addBuildStep(context -> context
                    .produce(AdditionalBeanBuildItem.unremovableOf(DurableBatchJsonRPCService.class)))
                    .produces(AdditionalBeanBuildItem.class).build());

    private static final int PAGE = 50;
    private static final int WORKERS = 300;

    @Inject
    DurableBatchJsonRPCService devUi;

    @Inject
    RepositoryFixtures given;

    @Inject
    MetadataSql sql;

    /**
     * The drill-down marks the partitioned steps of the execution with one statement: eight in all for
     * an execution of one step, and for one whose partitioned step has 300 workers (the old loop asked
     * each step attempt for a page of partitions: 309 statements).
     */
    @Test
    void theDrillDownOfAnExecutionIsEightStatementsWhateverItsPartitions() {
        JobExecution small = given.jobExecutionIn("devui-detail", STARTED);
        StepExecution alone = given.stepIn(small.id(), "alone", STARTED);

        JobExecution large = given.jobExecutionIn("devui-detail", STARTED);
        StepExecution before = given.endStep(given.stepIn(large.id(), "before", STARTED), COMPLETED, "COMPLETED",
                new StepCounters(1, 1, 0, 0, 0, 0, 1, 0));
        StepExecution parent = given.stepIn(large.id(), "spread", STARTED);
        tx(() -> given.repository().createStepPartitionPlan(parent.id(), IntStream.range(0, WORKERS)
                .mapToObj(i -> PartitionPlanEntry.of("p" + i, new byte[0])).toList()));
        List<Long> workers = new ArrayList<>();
        for (int i = 0; i < WORKERS; i++) {
            workers.add(given.stepIn(large.id(), "spreadWorker", STARTED).id().value());
        }

        ExecutionDetail one = assertStatements(sql, 8, () -> devUi.execution(small.id().value()));
        ExecutionDetail many = assertStatements(sql, 8, () -> devUi.execution(large.id().value()));

        assertEquals(List.of(alone.id().value()), one.steps().stream().map(StepView::id).toList());
        assertEquals(List.of(), one.steps().stream().filter(StepView::partitioned).toList(), "no partitioned step");
        assertEquals(WORKERS + 2, many.steps().size());
        assertEquals(List.of(parent.id().value()), many.steps().stream().filter(StepView::partitioned)
                .map(StepView::id).toList(), "the parent only: neither the step before it nor its workers");
        assertEquals(before.id().value(), many.steps().get(0).id());
        assertEquals(workers, many.steps().subList(2, WORKERS + 2).stream().map(StepView::id).toList());
    }

    @Test
    void aPageOfFiftyExecutionsIsTwoStatementsAndEachRowCountsItsOwnSteps() {
        // one instance whose attempts fail in turn, each with two steps that read as many items as its
        // attempt number and ten times as many: a step counted in another row would show
        JobInstance instance = given.newInstance("devui-page");
        List<JobExecution> attempts = new ArrayList<>();
        for (int attempt = 1; attempt <= PAGE + 1; attempt++) {
            JobExecution execution = given.attemptIn(instance.id(), STARTED);
            for (long read : new long[] { attempt, 10L * attempt }) {
                given.endStep(given.stepIn(execution.id(), "step-" + read, STARTED), COMPLETED, "COMPLETED",
                        new StepCounters(read, 0, 0, 0, 0, 0, 0, 0));
            }
            attempts.add(given.move(execution, FAILED));
        }

        Listing<ExecutionView> page = assertStatements(sql, 2,
                () -> devUi.executions(instance.jobName().value(), "", PAGE));

        Map<Long, Long> readCounts = page.items().stream()
                .collect(Collectors.toMap(ExecutionView::id, ExecutionView::readCount));
        Map<Long, Long> expected = attempts.subList(1, PAGE + 1).stream()
                .collect(Collectors.toMap(execution -> execution.id().value(), execution -> 11L * execution.attempt()));
        assertEquals(expected, readCounts, "the newest 50 attempts, each with the sum of its own steps' reads");
        assertEquals(1, assertStatements(sql, 2, () -> devUi.executions(instance.jobName().value(), page.next(), PAGE))
                .items().size(), "the next page: the oldest attempt");
        assertEquals(0, assertStatements(sql, 1, () -> devUi.executions(freshKey("devui-none").jobName().value(), "",
                PAGE)).items().size(), "an empty page reads no steps");
    }
}
