/**
 * Delimited flat files: a restartable reader and writer, with their tokenizer and formatter.
 */
package io.durablebatch.item.file;
