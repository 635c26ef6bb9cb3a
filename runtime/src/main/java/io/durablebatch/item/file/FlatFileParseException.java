package io.durablebatch.item.file;

import java.nio.file.Path;

/**
 * A record of a flat file that cannot be read: wrong field count, a quote left open, bytes invalid
 * in the charset, a line that is too long, or a mapper failure. It names the file and line, and the
 * reader has already moved past the line, so a skip policy can skip it and read on.
 */
public final class FlatFileParseException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** How much of the raw line the message quotes. */
    private static final int QUOTED_LINE_LENGTH = 200;

    private final String path;
    private final long lineNumber;
    private final String rawLine;

    public FlatFileParseException(Path path, long lineNumber, String rawLine, String reason, Throwable cause) {
        super(path + ":" + lineNumber + ": " + reason + ": " + quote(rawLine), cause);
        this.path = path.toString();
        this.lineNumber = lineNumber;
        this.rawLine = rawLine;
    }

    public Path path() {
        return Path.of(path);
    }

    /** The number of the line, counting from 1 and including any header line. */
    public long lineNumber() {
        return lineNumber;
    }

    /** The line as read, without its line end. */
    public String rawLine() {
        return rawLine;
    }

    private static String quote(String line) {
        return line.length() <= QUOTED_LINE_LENGTH ? "[" + line + "]"
                : "[" + line.substring(0, QUOTED_LINE_LENGTH) + "...] (" + line.length() + " characters)";
    }
}
