package org.acme.orders;

import static io.durablebatch.job.Steps.chunk;

import java.nio.file.Path;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.item.file.DelimitedFileItemReader;
import io.durablebatch.item.file.FlatFileParseException;
import io.durablebatch.item.jdbc.JdbcBatchItemWriter;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;

/** The job {@code importOrders}: reads the CSV file named by the parameter {@code file} into {@code orders}. */
@Singleton
public class ImportOrdersJob {

    private final AgroalDataSource dataSource;

    ImportOrdersJob(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Produces
    JobDefinition importOrders() {
        return Job.named("importOrders").revision("1")
                .restartOnOwnerLoss(3) // <1>
                .start(chunk("import", 1000) // <2>
                        .reader(context -> DelimitedFileItemReader.<Order> builder() // <3>
                                .path(Path.of(context.parameters().string("file")))
                                .header(true)
                                .mapper(fields -> new Order(fields.getLong("id"), fields.get("customer"),
                                        fields.getDecimal("amount")))
                                .build())
                        .writer(context -> JdbcBatchItemWriter.<Order> builder() // <4>
                                .dataSource(dataSource)
                                .sql("INSERT INTO orders (id, customer, amount) VALUES (?, ?, ?)")
                                .setter((statement, order) -> {
                                    statement.setLong(1, order.id());
                                    statement.setString(2, order.customer());
                                    statement.setBigDecimal(3, order.amount());
                                })
                                .build())
                        .skipLimit(FlatFileParseException.class, 10) // <5>
                        .build())
                .build();
    }
}
