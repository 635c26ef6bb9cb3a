/**
 * The job repository: finding and maintaining instances and executions, recovery, retention and
 * purge, with one error type whose codes name every refusal.
 */
package io.durablebatch.repository;
