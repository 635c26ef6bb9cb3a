package io.durablebatch.benchmarks;

import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.partitioned;
import static io.durablebatch.job.Steps.tasklet;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.LongStream;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.context.StepContext;
import io.durablebatch.item.jdbc.JdbcBatchItemWriter;
import io.durablebatch.job.ChunkStep;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.repository.partition.PartitionPlanEntry;
import io.durablebatch.runtime.sql.RepositoryDataSource;

/**
 * The jobs the kernel benchmarks run: a chunk ETL into {@code etl_target} with a JDBC batch writer,
 * the same split into partitions for 1, 2 and 4 local workers, and a one-step job for launch rates.
 * Sizes come from the job parameters {@code items}, {@code chunk} and {@code partitions}.
 */
@Singleton
public class BenchmarkJobs {

    static final String ETL = "bench-etl";
    static final String LAUNCH = "bench-one-step";
    static final List<Integer> WORKERS = List.of(1, 2, 4);

    private final AgroalDataSource dataSource;

    BenchmarkJobs(@RepositoryDataSource AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    static String partitionedEtl(int workers) {
        return "bench-etl-partitioned-" + workers;
    }

    @Produces
    JobDefinition etl() {
        return Job.named(ETL).start(etlStep("load")).build();
    }

    @Produces
    JobDefinition partitionedEtl1() {
        return partitionedEtl(1, "load");
    }

    @Produces
    JobDefinition partitionedEtl2() {
        return partitionedEtl(2, "load");
    }

    @Produces
    JobDefinition partitionedEtl4() {
        return partitionedEtl(4, "load");
    }

    @Produces
    JobDefinition oneStep() {
        return Job.named(LAUNCH).start(tasklet("noop", context -> RepeatStatus.FINISHED)).build();
    }

    private JobDefinition partitionedEtl(int workers, String name) {
        return Job.named(partitionedEtl(workers))
                .start(partitioned(name, BenchmarkJobs::ranges, etlStep("loadRange")).withWorkers(workers))
                .build();
    }

    /** The partitions: {@code partitions} equal ranges of {@code [0, items)}, input "from,to". */
    private static List<PartitionPlanEntry> ranges(StepContext context) {
        long items = context.parameters().longValue("items");
        long partitions = context.parameters().longValue("partitions");
        long size = (items + partitions - 1) / partitions;
        return LongStream.range(0, partitions).mapToObj(p -> PartitionPlanEntry.of("range-" + p,
                (p * size + "," + Math.min(items, (p + 1) * size)).getBytes(StandardCharsets.UTF_8))).toList();
    }

    private ChunkStep<EtlItems.Item, EtlItems.Item> etlStep(String name) {
        return chunk(name, 100)
                .reader(BenchmarkJobs::items)
                .writer(context -> JdbcBatchItemWriter.<EtlItems.Item> builder().dataSource(dataSource)
                        .sql("INSERT INTO etl_target (id, payload) VALUES (?, ?)")
                        .setter((statement, item) -> {
                            statement.setLong(1, item.id());
                            statement.setString(2, item.payload());
                        })
                        .build())
                .build();
    }

    private static EtlItems items(StepContext context) {
        if (context.partition().isPresent()) {
            String[] range = context.partition().get().input().split(",");
            return new EtlItems(Long.parseLong(range[0]), Long.parseLong(range[1]));
        }
        return new EtlItems(0, context.parameters().longValue("items"));
    }
}
