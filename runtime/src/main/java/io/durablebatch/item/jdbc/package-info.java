/**
 * JDBC: a keyset-paged reader and a batched writer, both restartable.
 */
package io.durablebatch.item.jdbc;
