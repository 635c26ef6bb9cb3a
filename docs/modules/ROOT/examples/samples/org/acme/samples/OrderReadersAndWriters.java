package org.acme.samples;

// tag::imports[]
import java.nio.file.Path;
import java.util.List;

import javax.sql.DataSource;

import io.durablebatch.item.file.DelimitedFileItemReader;
import io.durablebatch.item.file.DelimitedFileItemWriter;
import io.durablebatch.item.jdbc.JdbcBatchItemWriter;
import io.durablebatch.item.jdbc.JdbcPagingItemReader;
import io.durablebatch.item.jdbc.SortKey;

// end::imports[]
/**
 * The readers and writers of the page "Readers and writers", each built as a step would build it
 * for an attempt: the page includes each method with the imports above.
 */
public final class OrderReadersAndWriters {

    private OrderReadersAndWriters() {
    }

    // tag::file-reader[]
    static DelimitedFileItemReader<Order> ordersFile(Path file) {
        return DelimitedFileItemReader.<Order> builder()
                .path(file)
                .header(true) // field names come from line 1
                .mapper(fields -> new Order(fields.getLong("id"), fields.get("customer"), fields.getDecimal("amount")))
                .build();
    }
    // end::file-reader[]

    // tag::file-writer[]
    static DelimitedFileItemWriter<Order> exportFile(Path file) {
        return DelimitedFileItemWriter.<Order> builder()
                .path(file)
                .header("id", "customer", "amount")
                .extractor(order -> List.of(order.id(), order.customer(), order.amount()))
                .build();
    }
    // end::file-writer[]

    // tag::jdbc-reader[]
    static JdbcPagingItemReader<Order> openOrders(DataSource dataSource) {
        return JdbcPagingItemReader.<Order> builder()
                .dataSource(dataSource)
                .select("id, customer, amount")
                .from("orders")
                .where("status = ?", "OPEN")
                .sortKey(SortKey.longKey("id"))
                .pageSize(1000)
                .mapper(row -> new Order(row.getLong("id"), row.getString("customer"), row.getBigDecimal("amount")))
                .build();
    }
    // end::jdbc-reader[]

    // tag::jdbc-writer[]
    static JdbcBatchItemWriter<Order> orderCopies(DataSource dataSource) {
        return JdbcBatchItemWriter.<Order> builder()
                .dataSource(dataSource)
                .sql("INSERT INTO order_copy (id, customer, amount) VALUES (?, ?, ?)")
                .setter((statement, order) -> {
                    statement.setLong(1, order.id());
                    statement.setString(2, order.customer());
                    statement.setBigDecimal(3, order.amount());
                })
                .build();
    }
    // end::jdbc-writer[]
}
