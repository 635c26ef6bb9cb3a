package io.durablebatch.demo;

import java.io.Serializable;
import java.time.LocalDate;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** An order seen by the {@code auditOrders} job: one row per order, so a second sighting would fail. */
@Entity(name = "DemoOrderAudit")
@Table(name = "demo_order_audit")
@IdClass(OrderAudit.Key.class)
public class OrderAudit extends PanacheEntityBase {

    @Id
    @Column(name = "placed_on")
    public LocalDate placedOn;

    @Id
    @Column(name = "order_id")
    public long orderId;

    @Column(name = "amount_cents", nullable = false)
    public long amountCents;

    static OrderAudit of(Order order) {
        OrderAudit audit = new OrderAudit();
        audit.placedOn = order.placedOn;
        audit.orderId = order.id;
        audit.amountCents = order.amount.movePointRight(2).longValueExact();
        return audit;
    }

    /** An audit row's key: the audited order's. */
    public static class Key implements Serializable {

        public LocalDate placedOn;
        public long orderId;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && orderId == key.orderId && placedOn.equals(key.placedOn);
        }

        @Override
        public int hashCode() {
            return Objects.hash(placedOn, orderId);
        }
    }
}
