/**
 * Readers, processors and writers of chunk steps, and how they checkpoint.
 */
package io.durablebatch.item;
