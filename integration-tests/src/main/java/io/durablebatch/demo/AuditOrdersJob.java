package io.durablebatch.demo;

import static io.durablebatch.job.Steps.chunk;

import java.time.LocalDate;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.durablebatch.item.jdbc.SortKey;
import io.durablebatch.item.jpa.JpaItemWriter;
import io.durablebatch.item.jpa.JpaKeysetItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;

/**
 * The demo job {@code auditOrders}: reads a day's imported orders back, as Panache entities in keyset
 * pages of 500 ({@link JpaKeysetItemReader}), and records each in {@code demo_order_audit} through
 * the JPA writer, in chunks of 500. Restarted, the reader resumes after the last order its committed
 * chunks audited. Parameter: {@code day} (ISO date).
 */
@Singleton
public class AuditOrdersJob {

    @Produces
    JobDefinition auditOrders() {
        return Job.named("auditOrders").revision("1")
                .start(chunk("audit", 500)
                        .reader(context -> JpaKeysetItemReader.builder(Order.class)
                                .entityManager(Order.getEntityManager())
                                .select("o").from("DemoOrder o").where("o.placedOn = :day")
                                .parameter("day", LocalDate.parse(context.parameters().string("day")))
                                .sortKey(SortKey.longKey("o.id")).build())
                        .processor(OrderAudit::of)
                        .writer(context -> JpaItemWriter.<OrderAudit> persisting(OrderAudit.getEntityManager())
                                .clearAfterFlush(true))
                        .build())
                .build();
    }
}
