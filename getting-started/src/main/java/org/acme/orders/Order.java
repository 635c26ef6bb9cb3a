package org.acme.orders;

import java.math.BigDecimal;

/** One line of the orders file, one row of the {@code orders} table. */
public record Order(long id, String customer, BigDecimal amount) {
}
