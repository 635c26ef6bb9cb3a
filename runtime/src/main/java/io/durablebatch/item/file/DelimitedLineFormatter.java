package io.durablebatch.item.file;

import java.util.List;

/**
 * Writes fields as one RFC 4180 line: a field is quoted only when it contains the delimiter or the
 * quote character, and a quote inside it is written twice. A record is one line (that is what lets
 * the reader restart at a line's byte offset), so a value holding a line break is refused.
 */
final class DelimitedLineFormatter {

    private final char delimiter;
    private final char quote;

    DelimitedLineFormatter(DelimitedFormat format) {
        this.delimiter = format.delimiter();
        this.quote = format.quote();
    }

    void append(StringBuilder out, List<?> values) {
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.append(delimiter);
            }
            Object value = values.get(i);
            if (value != null) {
                appendField(out, value.toString(), i);
            }
        }
    }

    private void appendField(StringBuilder out, String value, int index) {
        if (!needsQuotes(value, index)) {
            out.append(value);
            return;
        }
        out.append(quote);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == quote) {
                out.append(quote);
            }
            out.append(c);
        }
        out.append(quote);
    }

    private boolean needsQuotes(String value, int index) {
        boolean needed = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n') {
                throw new IllegalArgumentException("field " + (index + 1) + " contains a line break, "
                        + "which a record of a delimited file cannot hold");
            }
            needed |= c == delimiter || c == quote;
        }
        return needed;
    }
}
