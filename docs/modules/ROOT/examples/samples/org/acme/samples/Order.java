package org.acme.samples;

import java.math.BigDecimal;

/** One line of an orders file, one row of the {@code orders} table. */
public record Order(long id, String customer, BigDecimal amount) {
}
