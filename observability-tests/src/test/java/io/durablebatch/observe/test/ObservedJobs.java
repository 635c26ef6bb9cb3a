package io.durablebatch.observe.test;

import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.partitioned;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.item.support.ListItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.repository.partition.PartitionPlanEntry;

/**
 * The jobs the observability tests run: a chunk step of 25 items in chunks of 10 followed by a
 * partitioned step of two partitions, and a job whose writer fails the first time a run asks it to.
 * Their processors log a line of the application's own, which the log context must name.
 */
@Singleton
public class ObservedJobs {

    static final Logger APP_LOG = Logger.getLogger("org.acme.orders");
    /** Runs whose writer has failed once: their restart succeeds. */
    static final Set<String> FAILED_ONCE = ConcurrentHashMap.newKeySet();

    @Produces
    JobDefinition observed() {
        return Job.named("observed")
                .start(chunk("load", 10)
                        .reader(context -> ListItemReader.of(LongStream.rangeClosed(1, 25).boxed().toList()))
                        .processor((Long item) -> {
                            if (item == 7) {
                                APP_LOG.infof("processing order %d", item);
                            }
                            return item;
                        })
                        .writer(context -> items -> {
                        })
                        .build())
                .next(partitioned("spread",
                        context -> IntStream.range(0, 2).mapToObj(i -> PartitionPlanEntry.of("p" + i,
                                ("part" + i).getBytes(StandardCharsets.UTF_8))).toList(),
                        chunk("spreadWorker", 5)
                                .reader(context -> ListItemReader.of(List.of(1L, 2L, 3L)))
                                .processor((Long item) -> {
                                    if (item == 2) {
                                        APP_LOG.infof("partition item %d", item);
                                    }
                                    return item;
                                })
                                .writer(context -> items -> {
                                })
                                .build()))
                .build();
    }

    @Produces
    JobDefinition failingOnce() {
        return Job.named("failingOnce")
                .start(chunk("write", 5)
                        .reader(context -> ListItemReader.of(LongStream.rangeClosed(1, 12).boxed().toList()))
                        .writer(context -> items -> {
                            String run = context.parameters().string("run");
                            if (items.contains(8L) && FAILED_ONCE.add(run)) {
                                throw new IllegalStateException("the ledger refused item 8");
                            }
                        })
                        .build())
                .build();
    }
}
