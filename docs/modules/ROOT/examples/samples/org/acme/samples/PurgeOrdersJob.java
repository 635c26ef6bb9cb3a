package org.acme.samples;

import static io.durablebatch.job.Steps.tasklet;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.durablebatch.job.RepeatStatus;

/** A tasklet step: deletes the orders of the customer named by the parameter {@code customer}, 1,000 per call. */
@Singleton
public class PurgeOrdersJob {

    private final AgroalDataSource dataSource;

    PurgeOrdersJob(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Produces
    JobDefinition purgeOrders() {
        return Job.named("purgeOrders").revision("1")
                .start(tasklet("purge", context -> {
                    // runs in the call's transaction, which commits with the step's progress
                    int deleted = deleteBatch(context.parameters().string("customer"), 1000);
                    return deleted == 0 ? RepeatStatus.FINISHED : RepeatStatus.CONTINUABLE;
                }))
                .build();
    }

    private int deleteBatch(String customer, int size) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM orders WHERE id IN (SELECT id FROM orders WHERE customer = ? LIMIT ?)")) {
            delete.setString(1, customer);
            delete.setInt(2, size);
            return delete.executeUpdate();
        }
    }
}
