package io.durablebatch.demo;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** One order of the demo's input files, imported into {@code demo_orders}: a Panache entity. */
@Entity(name = "DemoOrder")
@Table(name = "demo_orders")
@IdClass(Order.Key.class)
public class Order extends PanacheEntityBase {

    @Id
    @Column(name = "placed_on")
    public LocalDate placedOn;

    @Id
    public long id;

    @Column(nullable = false, length = 40)
    public String customer;

    @Column(nullable = false, precision = 12, scale = 2)
    public BigDecimal amount;

    public static Order of(long id, String customer, BigDecimal amount, LocalDate placedOn) {
        Order order = new Order();
        order.id = id;
        order.customer = customer;
        order.amount = amount;
        order.placedOn = placedOn;
        return order;
    }

    /** An order's key: the day it was placed on, and its number within the day. */
    public static class Key implements Serializable {

        public LocalDate placedOn;
        public long id;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && id == key.id && placedOn.equals(key.placedOn);
        }

        @Override
        public int hashCode() {
            return Objects.hash(placedOn, id);
        }
    }
}
