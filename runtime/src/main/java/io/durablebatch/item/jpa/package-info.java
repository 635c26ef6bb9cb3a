/**
 * JPA: a keyset-paged reader and a writer through the application's persistence unit.
 */
package io.durablebatch.item.jpa;
