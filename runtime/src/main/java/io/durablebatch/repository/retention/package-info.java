/**
 * Retention: holds, purge plans and surveys, and the records of purges.
 */
package io.durablebatch.repository.retention;
