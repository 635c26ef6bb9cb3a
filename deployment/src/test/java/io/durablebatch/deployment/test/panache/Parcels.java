package io.durablebatch.deployment.test.panache;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.orm.panache.PanacheRepository;

/** The repository style of Panache. */
@ApplicationScoped
public class Parcels implements PanacheRepository<Parcel> {
}
