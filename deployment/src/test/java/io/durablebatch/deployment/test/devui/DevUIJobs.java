package io.durablebatch.deployment.test.devui;

import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.decision;
import static io.durablebatch.job.Steps.partitioned;
import static io.durablebatch.job.Steps.tasklet;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.durablebatch.context.StepContext;
import io.durablebatch.item.ItemWriter;
import io.durablebatch.item.support.ListItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.partition.PartitionPlanEntry;

/**
 * The jobs of the Dev UI tests, driven only by their parameters (the test talks to the dev-mode
 * application through JSON-RPC alone): {@code routed}, a tasklet, a decider that reads the route
 * from the parameters and a chunk step over {@code items} numbers that pauses {@code pauseMs}
 * after each chunk and, with {@code failOnce}, fails the first attempt of its run; and
 * {@code spread}, a partitioned step of three partitions.
 */
@Singleton
public class DevUIJobs {

    /** The runs whose first attempt failed already: their restart goes through. */
    static final Set<String> FAILED_ONCE = ConcurrentHashMap.newKeySet();

    @Produces
    JobDefinition routed() {
        return Job.named("routed").revision("1")
                .start(tasklet("measure", context -> RepeatStatus.FINISHED))
                .next(decision("route", context -> context.parameters().string("route")))
                .on("LOAD").to(chunk("load", 10)
                        .reader(context -> ListItemReader.of(numbers(context.parameters())))
                        .writer(DevUIJobs::writer)
                        .build())
                .from("route").on("SKIP").end()
                .build();
    }

    @Produces
    JobDefinition spread() {
        return Job.named("spread")
                .start(partitioned("fan", context -> IntStream.rangeClosed(1, 3)
                        .mapToObj(i -> PartitionPlanEntry.of("part-" + i, "5".getBytes(StandardCharsets.UTF_8))).toList(),
                        chunk("slice", 2)
                                .reader(context -> ListItemReader.of(LongStream.range(0,
                                        Long.parseLong(context.partition().orElseThrow().input())).boxed().toList()))
                                .writer(context -> items -> {
                                })
                                .build()))
                .build();
    }

    private static List<Long> numbers(JobParameters parameters) {
        return LongStream.range(0, parameters.longValue("items")).boxed().toList();
    }

    private static ItemWriter<Long> writer(StepContext context) {
        JobParameters parameters = context.parameters();
        String run = parameters.string("run");
        long pause = parameters.get("pauseMs").isPresent() ? parameters.longValue("pauseMs") : 0;
        boolean failOnce = parameters.get("failOnce").isPresent() && parameters.booleanValue("failOnce");
        return items -> {
            if (failOnce && FAILED_ONCE.add(run)) {
                throw new IllegalStateException("the first attempt of run " + run + " fails");
            }
            Thread.sleep(pause);
        };
    }
}
