package io.durablebatch.item.file;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.durablebatch.Checks;

/**
 * The shape of a delimited file, shared by its reader and writer: field delimiter, quote character
 * (RFC 4180: a quoted field may contain delimiters, and a quote written twice) and charset.
 * <p>
 * Lines are found by byte, which is what lets a reader restart at a byte offset; the charset must
 * therefore encode CR and LF as the single ASCII bytes (UTF-8, US-ASCII, ISO-8859-*, windows-125*
 * do; UTF-16 and UTF-32 do not).
 */
public record DelimitedFormat(char delimiter, char quote, Charset charset) {

    /** Comma-separated, double-quoted, UTF-8. */
    public static final DelimitedFormat CSV = new DelimitedFormat(',', '"', StandardCharsets.UTF_8);

    /** Tab-separated, double-quoted, UTF-8. */
    public static final DelimitedFormat TSV = new DelimitedFormat('\t', '"', StandardCharsets.UTF_8);

    public DelimitedFormat {
        Checks.notNull(charset, "charset");
        if (delimiter == quote) {
            throw new IllegalArgumentException("delimiter and quote must differ, both are '" + delimiter + "'");
        }
        requireNotLineEnd(delimiter, "delimiter");
        requireNotLineEnd(quote, "quote");
        if (!Arrays.equals("\r\n".getBytes(charset), new byte[] { '\r', '\n' })) {
            throw new IllegalArgumentException("charset must encode CR and LF as single ASCII bytes, "
                    + charset.name() + " does not");
        }
    }

    public DelimitedFormat withDelimiter(char delimiter) {
        return new DelimitedFormat(delimiter, quote, charset);
    }

    public DelimitedFormat withQuote(char quote) {
        return new DelimitedFormat(delimiter, quote, charset);
    }

    public DelimitedFormat withCharset(Charset charset) {
        return new DelimitedFormat(delimiter, quote, charset);
    }

    private static void requireNotLineEnd(char c, String field) {
        if (c == '\r' || c == '\n') {
            throw new IllegalArgumentException(field + " must not be a line end character");
        }
    }
}
