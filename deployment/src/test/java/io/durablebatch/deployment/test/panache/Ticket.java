package io.durablebatch.deployment.test.panache;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntity;

/** An active-record Panache entity: public fields, a generated id. */
@Entity
@Table(name = "items_panache_ticket")
public class Ticket extends PanacheEntity {

    public String queue;

    public String state;
}
