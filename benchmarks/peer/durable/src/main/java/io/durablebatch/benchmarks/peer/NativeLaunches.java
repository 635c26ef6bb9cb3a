package io.durablebatch.benchmarks.peer;

import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.tasklet;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.item.ItemReader;
import io.durablebatch.item.jdbc.JdbcBatchItemWriter;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.JobRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The peer benchmark's two jobs written with the native DSL (the same items, processing and batch
 * insert as the job XMLs), launched through the native operator and awaited.
 */
@Singleton
public class NativeLaunches implements PeerLaunches {

    private static final String SUFFIX = "-native";

    @Inject
    JobOperator operator;

    @Inject
    JobRepository repository;

    @Inject
    DataSource dataSource;

    @Produces
    JobDefinition chunkJob() {
        PeerItemProcessor processor = new PeerItemProcessor();
        return Job.named("peer-chunk" + SUFFIX).start(chunk("load", 1000)
                .reader(context -> new Items(context.parameters().longValue("items")))
                .processor(item -> (PeerItem) processor.processItem(item))
                .writer(context -> JdbcBatchItemWriter.<PeerItem> builder().dataSource(dataSource)
                        .sql("INSERT INTO peer_item (id, name, amount) VALUES (?, ?, ?)")
                        .setter((insert, row) -> {
                            insert.setLong(1, row.id());
                            insert.setString(2, row.name());
                            insert.setLong(3, row.amount());
                        })
                        .build())
                .build()).build();
    }

    @Produces
    JobDefinition batchletJob() {
        return Job.named("peer-batchlet" + SUFFIX).start(tasklet("only", context -> RepeatStatus.FINISHED)).build();
    }

    @Override
    public long launchAndAwait(String job, Properties parameters) {
        // every Jakarta start is a new instance: a unique parameter makes each native one new too
        JobParameters values = JobParameters.of("run", UUID.randomUUID().toString());
        for (String name : parameters.stringPropertyNames()) {
            values = values.with(name, Long.parseLong(parameters.getProperty(name)));
        }
        JobExecutionId id = operator.start(job + SUFFIX, values, OperatorCall.by("peer"));
        operator.await(id, Duration.ofHours(1));
        return id.value();
    }

    @Override
    public boolean completed(long execution) {
        return QuarkusTransaction.requiringNew().call(() -> repository.getJobExecution(JobExecutionId.of(execution))
                .map(e -> e.status()).orElse(null)) == ExecutionStatus.COMPLETED;
    }

    /** The items 1..count; the checkpoint is the last one read. */
    private static final class Items implements ItemReader<Long> {

        private final long count;
        private long last;

        Items(long count) {
            this.count = count;
        }

        @Override
        public void open(Optional<Checkpoint> checkpoint) {
            last = checkpoint.map(c -> ByteBuffer.wrap(c.bytes()).getLong()).orElse(0L);
        }

        @Override
        public Long read() {
            return last < count ? ++last : null;
        }

        @Override
        public Checkpoint checkpoint() {
            return Checkpoint.of(ByteBuffer.allocate(Long.BYTES).putLong(last).array());
        }
    }
}
