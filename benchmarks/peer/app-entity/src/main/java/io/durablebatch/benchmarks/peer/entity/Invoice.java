package io.durablebatch.benchmarks.peer.entity;

import java.math.BigDecimal;
import java.time.LocalDate;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The application's own entity. No job uses it: it is there for what it costs at the start, the persistence
 * unit Quarkus boots for it (the one Durable Batch's repository entities join when the application has it).
 */
@Entity
@Table(name = "peer_invoice")
public class Invoice {

    @Id
    @GeneratedValue
    public Long id;

    public String customer;

    public BigDecimal amount;

    public LocalDate issuedOn;
}
