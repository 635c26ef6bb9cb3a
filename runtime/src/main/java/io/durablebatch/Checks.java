package io.durablebatch;

/**
 * Argument checks shared by the public value records and builders, so that every refusal of a bad
 * input names the field it came from in the same words. Part of the API, beside the values it
 * guards: code that builds such values (a reader, a step, a test) may use it too. Depends on nothing.
 */
public final class Checks {

    private Checks() {
    }

    public static <T> T notNull(T value, String field) {
        if (value == null) {
            throw new IllegalArgumentException(field + " must not be null");
        }
        return value;
    }

    /** A non-blank text, stripped; line breaks are fine (a query fragment in a text block). */
    public static String notBlank(String value, String field) {
        notNull(value, field);
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank");
        }
        return value.strip();
    }

    /**
     * A printable, non-blank text of at most {@code maxLength} characters, without leading or
     * trailing white space, without control characters and {@link #wellFormed well-formed}.
     */
    public static String text(String value, String field, int maxLength) {
        notNull(value, field);
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank");
        }
        if (value.length() > maxLength) {
            throw new IllegalArgumentException(
                    field + " must be at most " + maxLength + " characters, got " + value.length());
        }
        if (!value.strip().equals(value)) {
            throw new IllegalArgumentException(field + " must not start or end with white space: '" + value + "'");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new IllegalArgumentException(field + " must not contain control characters");
            }
        }
        return wellFormed(value, field);
    }

    /**
     * A string without unpaired surrogates. UTF-8 (the key encoding's and the database's) has no form
     * for them and substitutes '?', so two different strings would be stored, and compare, as one.
     */
    public static String wellFormed(String value, String field) {
        notNull(value, field);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(field + " must be well-formed Unicode: unpaired surrogate at index " + i);
            }
        }
        return value;
    }

    /** Like {@link #text} but restricted to the characters of an identifier-like token. */
    public static String token(String value, String field, int maxLength) {
        text(value, field, maxLength);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '-' || c == '.' || c == ':' || c == '/' || c == '@';
            if (!allowed) {
                throw new IllegalArgumentException(field + " may contain only letters, digits and _-.:/@, got '"
                        + value + "'");
            }
        }
        return value;
    }

    public static long positive(long value, String field) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " must be positive, got " + value);
        }
        return value;
    }

    public static long notNegative(long value, String field) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must not be negative, got " + value);
        }
        return value;
    }

    public static byte[] bytes(byte[] value, String field, int exactLength) {
        notNull(value, field);
        if (value.length != exactLength) {
            throw new IllegalArgumentException(
                    field + " must be exactly " + exactLength + " bytes, got " + value.length);
        }
        return value.clone();
    }

    public static byte[] boundedBytes(byte[] value, String field, int maxLength) {
        notNull(value, field);
        if (value.length > maxLength) {
            throw new IllegalArgumentException(
                    field + " must be at most " + maxLength + " bytes, got " + value.length);
        }
        return value.clone();
    }
}
