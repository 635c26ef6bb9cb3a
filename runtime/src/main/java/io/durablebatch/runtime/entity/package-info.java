/**
 * The repository's tables as JPA entities, in the persistence unit of the repository's datasource.
 * <p>
 * Flyway owns the tables (Hibernate never creates, drops or alters them: {@code RepositorySchemaFilter});
 * Hibernate maps them: results of the repository's statements, the entity operations of the
 * stores, and the mapping validation. The entities are internal, not API: an application reads job
 * metadata through {@code JobRepository} and never changes it through an entity
 * ({@link RepositoryOwned} refuses it).
 */
package io.durablebatch.runtime.entity;
