/**
 * An execution's ownership (its lease's owner token) and control (stop and abandon requests), and
 * the audited records of operators' actions.
 */
package io.durablebatch.repository.control;
