/**
 * Listeners of jobs, steps, chunks, skips, retries and items, and the snapshots they are given.
 */
package io.durablebatch.listener;
