package io.durablebatch.benchmarks.peer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;

import javax.sql.DataSource;

import jakarta.batch.api.chunk.AbstractItemWriter;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/** Inserts a chunk in one JDBC batch, on the connection of the chunk's transaction. */
@Named
public class PeerItemWriter extends AbstractItemWriter {

    @Inject
    DataSource dataSource;

    @Override
    public void writeItems(List<Object> items) throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection
                        .prepareStatement("INSERT INTO peer_item (id, name, amount) VALUES (?, ?, ?)")) {
            for (Object item : items) {
                PeerItem row = (PeerItem) item;
                insert.setLong(1, row.id());
                insert.setString(2, row.name());
                insert.setLong(3, row.amount());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }
}
