package io.durablebatch.demo;

import java.math.BigDecimal;
import java.time.LocalDate;

/** One order of the demo's input files. */
public record Order(long id, String customer, BigDecimal amount, LocalDate placedOn) {
}
