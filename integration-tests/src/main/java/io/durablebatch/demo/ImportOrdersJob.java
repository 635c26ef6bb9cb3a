package io.durablebatch.demo;

import static io.durablebatch.job.Steps.chunk;
import static io.durablebatch.job.Steps.tasklet;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.time.LocalDate;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.item.file.DelimitedFileItemReader;
import io.durablebatch.item.file.SizeMode;
import io.durablebatch.item.jdbc.JdbcBatchItemWriter;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.JobParameters;
import io.durablebatch.job.RepeatStatus;
import io.durablebatch.job.StepContext;

/**
 * The demo job: generate a day's order file, import it into {@code demo_orders} in chunks of 1,000
 * (one transaction each, with the reader's checkpoint), then summarize the day.
 * <p>
 * Parameters: {@code day} (ISO date) and {@code orders} (how many to generate).
 */
@Singleton
public class ImportOrdersJob {

    private final AgroalDataSource dataSource;
    private final Path inputDirectory;

    ImportOrdersJob(AgroalDataSource dataSource,
            @ConfigProperty(name = "demo.input-directory", defaultValue = "target/demo-input") Path inputDirectory) {
        this.dataSource = dataSource;
        this.inputDirectory = inputDirectory;
    }

    @Produces
    JobDefinition importOrders() {
        return Job.named("importOrders").revision("1")
                .start(tasklet("generate", this::generate))
                .next(chunk("import", 1000)
                        .reader(this::reader)
                        .writer(JdbcBatchItemWriter.<Order>builder().dataSource(dataSource)
                                .sql("INSERT INTO demo_orders (placed_on, id, customer, amount) VALUES (?, ?, ?, ?)")
                                .setter((statement, order) -> {
                                    statement.setDate(1, Date.valueOf(order.placedOn()));
                                    statement.setLong(2, order.id());
                                    statement.setString(3, order.customer());
                                    statement.setBigDecimal(4, order.amount());
                                })
                                .build())
                        .build())
                .next(tasklet("summarize", this::summarize))
                .build();
    }

    static LocalDate day(JobParameters parameters) {
        return LocalDate.parse(parameters.string("day"));
    }

    private RepeatStatus generate(StepContext context) throws Exception {
        OrderFiles.ensure(inputDirectory, day(context.parameters()), context.parameters().longValue("orders"), 1);
        return RepeatStatus.FINISHED;
    }

    private DelimitedFileItemReader<Order> reader(StepContext context) {
        LocalDate day = day(context.parameters());
        Path file;
        try {
            file = OrderFiles.ensure(inputDirectory, day, context.parameters().longValue("orders"), 1).get(0);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return DelimitedFileItemReader.<Order>builder().path(file).header(true).size(SizeMode.ESTIMATED)
                .mapper(fields -> new Order(fields.getLong("id"), fields.get("customer"), fields.getDecimal("amount"),
                        LocalDate.parse(fields.get("placed_on"))))
                .build();
    }

    private RepeatStatus summarize(StepContext context) throws Exception {
        LocalDate day = day(context.parameters());
        try (Connection connection = dataSource.getConnection();
                PreparedStatement summary = connection.prepareStatement("INSERT INTO demo_daily_summary "
                        + "(placed_on, orders, customers, revenue, volume) SELECT placed_on, count(*), "
                        + "count(DISTINCT customer), sum(amount), 'ALL' FROM demo_orders WHERE placed_on = ? "
                        + "GROUP BY placed_on ON CONFLICT (placed_on) DO UPDATE SET orders = excluded.orders, "
                        + "customers = excluded.customers, revenue = excluded.revenue, volume = excluded.volume")) {
            summary.setDate(1, Date.valueOf(day));
            summary.executeUpdate();
        }
        return RepeatStatus.FINISHED;
    }
}
