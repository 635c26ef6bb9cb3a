package io.durablebatch.execution;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;

/**
 * The values the repository takes in a new job instance key or attempt: those PostgreSQL and the
 * canonical key hold exactly and every reader can print. A double is finite (JSON has no
 * {@code Infinity}: handed back as text it would come back as a string, another instance); a
 * decimal has at most {@value #MAX_DECIMAL_INTEGER_DIGITS} digits before its point and
 * {@value #MAX_DECIMAL_FRACTION_DIGITS} after it (a PostgreSQL {@code numeric} holds 131072 and
 * 16383; {@code 1e999999999} is a billion digits in plain notation); a date is within PostgreSQL's
 * {@code date} range and an instant within its {@code timestamptz} range.
 * <p>
 * Values are constructed outside the domain (a stored key is read back whatever bound a later
 * version sets); the repository refuses them, naming the parameter, before it writes anything.
 */
public final class ParameterDomain {

    public static final int MAX_DECIMAL_INTEGER_DIGITS = 1000;
    public static final int MAX_DECIMAL_FRACTION_DIGITS = 1000;
    /** 4713 BC, PostgreSQL's first date and timestamp. */
    public static final LocalDate MIN_DATE = LocalDate.of(-4712, 1, 1);
    /** PostgreSQL's last date. */
    public static final LocalDate MAX_DATE = LocalDate.of(5874897, 12, 31);
    public static final Instant MIN_INSTANT = Instant.parse("-4712-01-01T00:00:00Z");
    /** PostgreSQL's last timestamp (it keeps microseconds). */
    public static final Instant MAX_INSTANT = Instant.parse("+294276-12-31T23:59:59.999999Z");

    private ParameterDomain() {
    }

    /** Why {@code value} is outside the domain, or empty when it is inside. */
    public static Optional<String> violation(ParameterValue value) {
        if (value instanceof ParameterValue.OfDouble d && Double.isInfinite(d.value())) {
            return Optional.of("is an infinite double: a parameter is a finite number");
        } else if (value instanceof ParameterValue.OfDecimal d) {
            return decimal(d.value());
        } else if (value instanceof ParameterValue.OfDate d
                && (d.value().isBefore(MIN_DATE) || d.value().isAfter(MAX_DATE))) {
            return Optional.of("is a date outside " + MIN_DATE + " .. " + MAX_DATE + ", PostgreSQL's range");
        } else if (value instanceof ParameterValue.OfInstant i
                && (i.value().isBefore(MIN_INSTANT) || i.value().isAfter(MAX_INSTANT))) {
            return Optional.of("is an instant outside " + MIN_INSTANT + " .. " + MAX_INSTANT + ", PostgreSQL's range");
        }
        return Optional.empty();
    }

    /** The first parameter of {@code parameters} outside the domain, as {@code "parameter 'name' <why>"}. */
    public static Optional<String> violation(Map<String, ParameterValue> parameters) {
        for (Map.Entry<String, ParameterValue> parameter : parameters.entrySet()) {
            Optional<String> why = violation(parameter.getValue());
            if (why.isPresent()) {
                return Optional.of("parameter '" + parameter.getKey() + "' " + why.get());
            }
        }
        return Optional.empty();
    }

    private static Optional<String> decimal(BigDecimal value) {
        // precision and scale of the stripped value: no digit is expanded to find out
        long integerDigits = (long) value.precision() - value.scale();
        if (integerDigits > MAX_DECIMAL_INTEGER_DIGITS) {
            return Optional.of("is a decimal of " + integerDigits + " digits before its point: at most "
                    + MAX_DECIMAL_INTEGER_DIGITS);
        }
        if (value.scale() > MAX_DECIMAL_FRACTION_DIGITS) {
            return Optional.of("is a decimal of " + value.scale() + " digits after its point: at most "
                    + MAX_DECIMAL_FRACTION_DIGITS);
        }
        return Optional.empty();
    }
}
