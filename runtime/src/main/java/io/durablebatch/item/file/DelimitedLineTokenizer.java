package io.durablebatch.item.file;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line into fields by RFC 4180: a field is either unquoted (no quote character inside)
 * or enclosed in quotes, where it may contain delimiters and a quote written twice. Anything else
 * (a quote left open, text after a closing quote, a quote inside an unquoted field) is refused
 * rather than guessed at, since a guess silently shifts every following field.
 */
final class DelimitedLineTokenizer {

    /** A line that does not follow the format; the reader adds the file and line number. */
    static final class MalformedLineException extends Exception {

        private static final long serialVersionUID = 1L;

        MalformedLineException(String message) {
            // refusals are expected input, not bugs: skip the stack trace
            super(message, null, false, false);
        }
    }

    private final char delimiter;
    private final char quote;
    private final List<String> fields = new ArrayList<>();
    private final StringBuilder quoted = new StringBuilder();

    DelimitedLineTokenizer(DelimitedFormat format) {
        this.delimiter = format.delimiter();
        this.quote = format.quote();
    }

    /** The fields of {@code line[0..length)}; an empty line has one empty field. */
    String[] tokenize(char[] line, int length) throws MalformedLineException {
        fields.clear();
        int i = 0;
        while (true) {
            i = i < length && line[i] == quote ? quotedField(line, length, i) : plainField(line, length, i);
            if (i == length) {
                return fields.toArray(new String[0]);
            }
            i++; // the delimiter
        }
    }

    /** Adds the unquoted field starting at {@code start}; returns the index after it. */
    private int plainField(char[] line, int length, int start) throws MalformedLineException {
        int i = start;
        while (i < length && line[i] != delimiter) {
            if (line[i] == quote) {
                throw new MalformedLineException("quote character inside an unquoted field at column " + (i + 1));
            }
            i++;
        }
        fields.add(new String(line, start, i - start));
        return i;
    }

    /** Adds the quoted field whose opening quote is at {@code open}; returns the index after it. */
    private int quotedField(char[] line, int length, int open) throws MalformedLineException {
        quoted.setLength(0);
        int i = open + 1;
        while (true) {
            int run = i;
            while (i < length && line[i] != quote) {
                i++;
            }
            quoted.append(line, run, i - run);
            if (i == length) {
                throw new MalformedLineException("quote opened at column " + (open + 1) + " is not closed");
            }
            if (i + 1 < length && line[i + 1] == quote) {
                quoted.append(quote);
                i += 2;
                continue;
            }
            i++; // the closing quote
            if (i < length && line[i] != delimiter) {
                throw new MalformedLineException("unexpected character after the closing quote at column " + (i + 1));
            }
            fields.add(quoted.toString());
            return i;
        }
    }
}
