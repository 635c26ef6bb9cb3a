package io.durablebatch.execution;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

import io.durablebatch.Checks;

/**
 * A typed job parameter value. The type is part of the identity: the string {@code "1"} and the
 * long {@code 1} make different job instances. A value is constructed as long as it can be encoded;
 * whether the repository takes it in a new key or attempt is its {@link ParameterDomain}, checked
 * apart so that a value stored before a bound was set is still read back.
 */
public sealed interface ParameterValue {

    /** The tag that identifies the type in the canonical key encoding. Never reuse a tag. */
    byte tag();

    /**
     * The value as a user writes it: a decimal in plain notation (in scientific notation outside
     * the {@link ParameterDomain}, so a stored {@code 1E+999999999} never becomes a billion digits).
     */
    String text();

    static ParameterValue of(Object value) {
        Checks.notNull(value, "parameter value");
        if (value instanceof ParameterValue parameterValue) {
            return parameterValue;
        } else if (value instanceof String s) {
            return new OfString(s);
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short) {
            return new OfLong(((Number) value).longValue());
        } else if (value instanceof Double || value instanceof Float) {
            return new OfDouble(((Number) value).doubleValue());
        } else if (value instanceof BigDecimal d) {
            return new OfDecimal(d);
        } else if (value instanceof Boolean b) {
            return new OfBoolean(b);
        } else if (value instanceof LocalDate d) {
            return new OfDate(d);
        } else if (value instanceof Instant i) {
            return new OfInstant(i);
        }
        throw new IllegalArgumentException("parameter value of type " + value.getClass().getName()
                + " is not supported: use string, long, double, BigDecimal, boolean, LocalDate or Instant");
    }

    record OfString(String value) implements ParameterValue {
        public static final int MAX_LENGTH = 1000;

        public OfString {
            Checks.wellFormed(value, "parameter value");
            if (value.length() > MAX_LENGTH) {
                throw new IllegalArgumentException("parameter value must be at most " + MAX_LENGTH + " characters");
            }
        }

        @Override
        public byte tag() {
            return 1;
        }

        @Override
        public String text() {
            return value;
        }
    }

    record OfLong(long value) implements ParameterValue {
        @Override
        public byte tag() {
            return 2;
        }

        @Override
        public String text() {
            return Long.toString(value);
        }
    }

    record OfDouble(double value) implements ParameterValue {
        public OfDouble {
            if (Double.isNaN(value)) {
                throw new IllegalArgumentException("parameter value must not be NaN");
            }
        }

        @Override
        public byte tag() {
            return 3;
        }

        @Override
        public String text() {
            return Double.toString(value);
        }
    }

    /** A decimal, compared by numeric value: {@code 1.50} and {@code 1.5} are the same parameter. */
    record OfDecimal(BigDecimal value) implements ParameterValue {
        public OfDecimal {
            Checks.notNull(value, "parameter value");
            value = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
        }

        @Override
        public byte tag() {
            return 4;
        }

        @Override
        public String text() {
            return ParameterDomain.violation(this).isEmpty() ? value.toPlainString() : value.toString();
        }
    }

    record OfBoolean(boolean value) implements ParameterValue {
        @Override
        public byte tag() {
            return 5;
        }

        @Override
        public String text() {
            return Boolean.toString(value);
        }
    }

    record OfDate(LocalDate value) implements ParameterValue {
        public OfDate {
            Checks.notNull(value, "parameter value");
        }

        @Override
        public byte tag() {
            return 6;
        }

        @Override
        public String text() {
            return value.toString();
        }
    }

    record OfInstant(Instant value) implements ParameterValue {
        public OfInstant {
            Checks.notNull(value, "parameter value");
        }

        @Override
        public byte tag() {
            return 7;
        }

        @Override
        public String text() {
            return value.toString();
        }
    }
}
