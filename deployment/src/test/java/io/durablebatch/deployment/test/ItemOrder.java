package io.durablebatch.deployment.test;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A tiny entity for the JPA item writer's tests. */
@Entity
@Table(name = "items_jpa_order")
public class ItemOrder {

    @Id
    private Long id;

    private String customer;

    protected ItemOrder() {
    }

    public ItemOrder(long id, String customer) {
        this.id = id;
        this.customer = customer;
    }

    public Long getId() {
        return id;
    }

    public String getCustomer() {
        return customer;
    }
}
