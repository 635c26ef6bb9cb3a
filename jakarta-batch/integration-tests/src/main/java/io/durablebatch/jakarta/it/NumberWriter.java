package io.durablebatch.jakarta.it;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;

import javax.sql.DataSource;

import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Inserts a chunk of numbers in one batch. The connection joins the chunk's transaction, so the rows
 * commit with the chunk's checkpoint or not at all; the primary key would refuse a number twice.
 */
@Named
public class NumberWriter extends AbstractItemWriter {

    @Inject
    DataSource dataSource;

    @Override
    public void writeItems(List<Object> items) throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO numbers (n) VALUES (?)")) {
            for (Object item : items) {
                insert.setLong(1, (Long) item);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }
}
