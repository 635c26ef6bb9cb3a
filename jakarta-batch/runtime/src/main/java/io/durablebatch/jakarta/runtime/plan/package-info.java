/**
 * The translation of a JSL job into a kernel job definition, and the rules of what this runtime can run as written.
 */
package io.durablebatch.jakarta.runtime.plan;
