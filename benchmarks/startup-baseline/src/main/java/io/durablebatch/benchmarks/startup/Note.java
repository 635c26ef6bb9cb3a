package io.durablebatch.benchmarks.startup;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/** The application's one entity, so that Hibernate ORM starts its persistence unit as in a real application. */
@Entity
public class Note {

    @Id
    public Long id;

    public String text;
}
