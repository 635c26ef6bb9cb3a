package io.durablebatch.deployment.test.panache;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A plain entity, read and written through a Panache repository ({@link Parcels}). */
@Entity
@Table(name = "items_panache_parcel")
public class Parcel {

    @Id
    public Long id;

    public String route;

    public int weight;
}
