package io.durablebatch.demo;

import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.decision;
import static io.durablebatch.job.Steps.partitioned;
import static io.durablebatch.job.Steps.tasklet;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.persistence.EntityManager;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.context.DecisionContext;
import io.durablebatch.context.StepContext;
import io.durablebatch.item.file.DelimitedFileItemReader;
import io.durablebatch.item.file.SizeMode;
import io.durablebatch.item.jpa.JpaItemWriter;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.repository.partition.PartitionPlanEntry;

/**
 * The demo job {@code importOrders}: a day's orders arrive as {@code files} CSV files. The job
 * <ol>
 * <li>{@code generate}s the files (the demo's stand-in for their arrival),</li>
 * <li>{@code import}s them: a partitioned step, one partition per file, whose workers read their
 * file and insert it into {@code demo_orders} in chunks of 1,000 rows, one transaction each
 * ({@code demo.import.workers} local workers, 4 by default; other nodes with remote partition
 * workers enabled take part too);</li>
 * <li>decides on the day's {@code volume}: a LARGE day refreshes the table's statistics first,</li>
 * <li>{@code summarize}s the day into {@code demo_daily_summary}.</li>
 * </ol>
 * Parameters: {@code day} (ISO date), {@code orders} and {@code files}.
 */
@Singleton
public class ImportOrdersJob {

    /** From this many orders on, a day is LARGE. */
    static final long LARGE_DAY = 500_000;

    private final AgroalDataSource dataSource;
    private final EntityManager entityManager;
    private final Path inputDirectory;
    private final int importWorkers;

    ImportOrdersJob(AgroalDataSource dataSource, EntityManager entityManager,
            @ConfigProperty(name = "demo.input-directory", defaultValue = "target/demo-input") Path inputDirectory,
            @ConfigProperty(name = "demo.import.workers", defaultValue = "4") int importWorkers) {
        this.dataSource = dataSource;
        this.entityManager = entityManager;
        this.inputDirectory = inputDirectory;
        this.importWorkers = importWorkers;
    }

    @Produces
    JobDefinition importOrders() {
        return Job.named("importOrders").revision("2")
                .start(tasklet("generate", this::generate))
                .next(partitioned("import", this::files,
                        chunk("importFile", 1000)
                                .reader(ImportOrdersJob::reader)
                                // the chunk's orders persisted in its transaction, then let go
                                .writer(context -> JpaItemWriter.<Order> persisting(entityManager).clearAfterFlush(true))
                                .build())
                        .withWorkers(importWorkers))
                .next(decision("volume", this::volume))
                .on("LARGE").to(tasklet("analyze", this::analyze))
                .next(tasklet("summarize", this::summarize))
                .from("volume").on("SMALL").to("summarize")
                .build();
    }

    static LocalDate day(JobParameters parameters) {
        return LocalDate.parse(parameters.string("day"));
    }

    private List<Path> inputOf(JobParameters parameters) throws java.io.IOException {
        return OrderFiles.ensure(inputDirectory, day(parameters), parameters.longValue("orders"),
                (int) parameters.longValue("files"));
    }

    private RepeatStatus generate(StepContext context) throws Exception {
        inputOf(context.parameters());
        return RepeatStatus.FINISHED;
    }

    /** One partition per file: the key is the file name, the input its path. */
    private List<PartitionPlanEntry> files(StepContext context) throws Exception {
        return inputOf(context.parameters()).stream().map(file -> PartitionPlanEntry.of(file.getFileName().toString(),
                file.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8))).toList();
    }

    private static DelimitedFileItemReader<Order> reader(StepContext context) {
        return DelimitedFileItemReader.<Order> builder().path(Path.of(context.partition().orElseThrow().input()))
                .header(true).size(SizeMode.ESTIMATED)
                .mapper(fields -> Order.of(fields.getLong("id"), fields.get("customer"), fields.getDecimal("amount"),
                        LocalDate.parse(fields.get("placed_on"))))
                .build();
    }

    private String volume(DecisionContext context) throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement count = connection.prepareStatement(
                        "SELECT count(*) FROM demo_orders WHERE placed_on = ?")) {
            count.setDate(1, Date.valueOf(day(context.parameters())));
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return row.getLong(1) >= LARGE_DAY ? "LARGE" : "SMALL";
            }
        }
    }

    private RepeatStatus analyze(StepContext context) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE demo_orders");
        }
        return RepeatStatus.FINISHED;
    }

    private RepeatStatus summarize(StepContext context) throws Exception {
        LocalDate day = day(context.parameters());
        try (Connection connection = dataSource.getConnection();
                PreparedStatement summary = connection.prepareStatement("INSERT INTO demo_daily_summary "
                        + "(placed_on, orders, customers, revenue, volume) SELECT placed_on, count(*), "
                        + "count(DISTINCT customer), sum(amount), CASE WHEN count(*) >= ? THEN 'LARGE' ELSE 'SMALL' END "
                        + "FROM demo_orders WHERE placed_on = ? GROUP BY placed_on ON CONFLICT (placed_on) DO UPDATE "
                        + "SET orders = excluded.orders, customers = excluded.customers, revenue = excluded.revenue, "
                        + "volume = excluded.volume")) {
            summary.setLong(1, LARGE_DAY);
            summary.setDate(2, Date.valueOf(day));
            summary.executeUpdate();
        }
        return RepeatStatus.FINISHED;
    }
}
