package io.durablebatch.deployment.test.entity;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An application's own entity, whose table Hibernate's schema management owns. */
@Entity
@Table(name = "filter_test_ledger")
public class Ledger {

    @Id
    public Long id;

    public String entry;
}
