package io.durablebatch.benchmarks.peer;

import java.util.List;
import java.util.Objects;

import javax.sql.DataSource;

import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.configuration.support.JdbcDefaultBatchConfiguration;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamReader;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.jdbc.support.JdbcTransactionManager;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * Spring Batch as a user sets it up without Spring Boot: {@link JdbcDefaultBatchConfiguration}'s
 * defaults (the JDBC job repository, a synchronous task executor, {@code SERIALIZABLE} for creating an
 * execution) on a HikariCP pool of 16 with {@code reWriteBatchedInserts}, a {@link JdbcTransactionManager}
 * and Spring Batch's own {@code schema-postgresql.sql}; the peer benchmark's two jobs built from the
 * same batch artifacts as the job XMLs (adapted, not rewritten).
 */
@Configuration
public class SpringPeerConfiguration extends JdbcDefaultBatchConfiguration {

    private static final String SCHEMA = "org/springframework/batch/core/schema-postgresql.sql";

    @Bean(destroyMethod = "close")
    public HikariDataSource dataSource() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(Objects.requireNonNullElse(System.getenv("PEER_DB_URL"),
                "jdbc:postgresql://127.0.0.1:5432/peer"));
        config.setUsername(Objects.requireNonNullElse(System.getenv("PEER_DB_USER"), "postgres"));
        config.setPassword(Objects.requireNonNullElse(System.getenv("PEER_DB_PASSWORD"), "postgres"));
        config.setMaximumPoolSize(16);
        // one round trip for a chunk of inserts, as in the Quarkus applications
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        HikariDataSource dataSource = new HikariDataSource(config);
        // Spring Batch leaves its schema to the user (Spring Boot runs the same script): once per database
        Boolean present = new JdbcTemplate(dataSource)
                .queryForObject("SELECT to_regclass('batch_job_instance') IS NOT NULL", Boolean.class);
        if (!Boolean.TRUE.equals(present)) {
            new ResourceDatabasePopulator(new ClassPathResource(SCHEMA)).execute(dataSource);
        }
        return dataSource;
    }

    @Bean
    public JdbcTransactionManager transactionManager(DataSource dataSource) {
        return new JdbcTransactionManager(dataSource);
    }

    @Bean
    public SpringLaunches springLaunches(JobOperator jobOperator, JobRepository jobRepository, List<Job> jobs) {
        return new SpringLaunches(jobOperator, jobRepository, jobs);
    }

    /** The job of peer-batchlet.xml: one step whose tasklet is the batchlet. */
    @Bean
    public Job peerBatchlet(JobRepository jobRepository, JdbcTransactionManager transactionManager) {
        PeerBatchlet batchlet = new PeerBatchlet();
        return new JobBuilder("peer-batchlet", jobRepository)
                .start(new StepBuilder("only", jobRepository).tasklet((contribution, context) -> {
                    batchlet.process();
                    return RepeatStatus.FINISHED;
                }, transactionManager).build())
                .build();
    }

    /** The job of peer-chunk.xml: chunks of 1000 through the reader, processor and writer of the artifacts. */
    @Bean
    public Job peerChunk(JobRepository jobRepository, JdbcTransactionManager transactionManager,
            PeerItemStreamReader peerItemReader, DataSource dataSource) {
        PeerItemProcessor processor = new PeerItemProcessor();
        PeerItemWriter writer = new PeerItemWriter();
        // the writer asks the data source for a connection: the one of the chunk's transaction
        writer.dataSource = new TransactionAwareDataSourceProxy(dataSource);
        return new JobBuilder("peer-chunk", jobRepository)
                .start(new StepBuilder("load", jobRepository).<Long, PeerItem> chunk(1000)
                        .transactionManager(transactionManager)
                        .reader(peerItemReader)
                        .processor(item -> (PeerItem) processor.processItem(item))
                        .writer(chunk -> writer.writeItems(List.copyOf(chunk.getItems())))
                        .build())
                .build();
    }

    /** The artifacts' reader, its item count from the job parameter as the job XML passes it. */
    @Bean
    @StepScope
    public PeerItemStreamReader peerItemReader(@Value("#{jobParameters['items']}") Long items) {
        return new PeerItemStreamReader(items);
    }

    /** {@link PeerItemReader} as a Spring Batch reader: its checkpoint in the step's execution context. */
    public static class PeerItemStreamReader implements ItemStreamReader<Long> {

        private static final String LAST = "last";

        private final PeerItemReader reader = new PeerItemReader();

        PeerItemStreamReader(long items) {
            reader.items = Long.toString(items);
        }

        @Override
        public void open(ExecutionContext context) {
            reader.open(context.containsKey(LAST) ? context.getLong(LAST) : null);
        }

        @Override
        public Long read() {
            return (Long) reader.readItem();
        }

        @Override
        public void update(ExecutionContext context) {
            context.putLong(LAST, (Long) reader.checkpointInfo());
        }
    }
}
