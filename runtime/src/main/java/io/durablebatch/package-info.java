/**
 * Durable Batch's public API: the packages below it hold the job DSL ({@code job}), what running code is given
 * ({@code context}), the operator ({@code operator}), the repository ({@code repository}) and the vocabulary
 * they share ({@code execution}). This package holds only the argument checks the public values share.
 */
package io.durablebatch;
