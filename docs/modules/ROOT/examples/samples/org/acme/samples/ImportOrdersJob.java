package org.acme.samples;

import static io.durablebatch.job.Steps.chunk;

import java.nio.file.Path;
import java.sql.SQLTransientException;
import java.time.Duration;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.item.ItemWriter;
import io.durablebatch.item.file.DelimitedFileItemReader;
import io.durablebatch.item.file.FlatFileParseException;
import io.durablebatch.item.jdbc.JdbcBatchItemWriter;
import io.durablebatch.job.ExceptionFilter;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.operator.JobParameters;

/**
 * A chunk step: reads the CSV file named by the identifying parameter {@code file}, drops the orders
 * without an amount, and inserts the rest into {@code orders}, in chunks of the non-identifying
 * parameter {@code chunkSize} (1,000 when the launch names none).
 */
@Singleton
public class ImportOrdersJob {

    private final ItemWriter<Order> writer;

    ImportOrdersJob(AgroalDataSource dataSource) {
        // stateless: one writer serves every step attempt
        this.writer = JdbcBatchItemWriter.<Order> builder()
                .dataSource(dataSource)
                .sql("INSERT INTO orders (id, customer, amount) VALUES (?, ?, ?)")
                .setter((statement, order) -> {
                    statement.setLong(1, order.id());
                    statement.setString(2, order.customer());
                    statement.setBigDecimal(3, order.amount());
                })
                .build();
    }

    @Produces
    JobDefinition importOrders() {
        return Job.named("importOrders").revision("1")
                .start(chunk("import", 1000)
                        .reader(context -> DelimitedFileItemReader.<Order> builder() // a new reader for each attempt
                                .path(Path.of(context.parameters().string("file")))
                                .header(true)
                                .mapper(fields -> new Order(fields.getLong("id"), fields.get("customer"),
                                        fields.getDecimal("amount")))
                                .build())
                        .processor(order -> order.amount().signum() > 0 ? order : null) // null filters the item out
                        .writer(context -> writer)
                        .commitInterval(context -> chunkSize(context.parameters()))
                        .skipLimit(FlatFileParseException.class, 10)
                        .retryable(ExceptionFilter.including(SQLTransientException.class))
                        .retry(3, Duration.ofMillis(50), Duration.ofSeconds(2))
                        .build())
                .build();
    }

    /** Tuning, not identity: a restart may be given another size and still resumes the same import. */
    private static int chunkSize(JobParameters parameters) {
        return parameters.get("chunkSize").isPresent() ? Math.toIntExact(parameters.longValue("chunkSize")) : 1000;
    }
}
