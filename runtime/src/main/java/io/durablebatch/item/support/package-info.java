/**
 * In-memory readers and writers, and the checkpoint formats of the built-in readers.
 */
package io.durablebatch.item.support;
