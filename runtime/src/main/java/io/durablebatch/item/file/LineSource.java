package io.durablebatch.item.file;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The lines of a file as byte ranges, each with the byte offset just after its line end. Lines end
 * at LF; a CR before the LF is dropped, so LF and CRLF files read the same. Finding lines by byte
 * (rather than through a {@code Reader}) is what makes the offsets exact for any charset that
 * encodes CR and LF as single bytes, and lets a reader reopen at an offset without re-reading.
 * <p>
 * A line longer than the limit is consumed to its end and returned {@link #truncated()}, so the
 * caller can report it and read on. The returned bytes are valid until the next call to {@link #next()}.
 */
final class LineSource implements Closeable {

    private static final int INITIAL_BUFFER_BYTES = 64 * 1024;
    private static final int PREVIEW_BYTES = 1024;
    private static final byte[] UTF8_BOM = { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF };

    private final FileChannel channel;
    private final int maxBufferBytes;
    private byte[] buffer;
    private int pos;
    private int limit;
    /** The file offset of {@code buffer[pos]}. */
    private long offset;
    private long lineNumber;

    private byte[] lineBytes;
    private int lineStart;
    private int lineEnd;
    private boolean truncated;

    private LineSource(FileChannel channel, long offset, long lineNumber, int maxLineBytes) {
        this.channel = channel;
        // room for the longest line plus its CR LF, so a line of exactly the limit is still found
        this.maxBufferBytes = maxLineBytes + 2;
        this.buffer = new byte[Math.min(INITIAL_BUFFER_BYTES, maxBufferBytes)];
        this.offset = offset;
        this.lineNumber = lineNumber;
    }

    /** A source positioned at {@code offset}, whose next line is number {@code lineNumber + 1}. */
    static LineSource open(Path path, long offset, long lineNumber, int maxLineBytes) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            channel.position(offset);
            return new LineSource(channel, offset, lineNumber, maxLineBytes);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Whether the byte just before the current offset is a line end (true at offset 0). */
    boolean atLineStart() throws IOException {
        if (offset == 0) {
            return true;
        }
        ByteBuffer previous = ByteBuffer.allocate(1);
        return channel.read(previous, offset - 1) == 1 && previous.get(0) == '\n';
    }

    /** Skips a UTF-8 byte order mark at the current position, if there is one. */
    void skipUtf8Bom() throws IOException {
        while (limit - pos < UTF8_BOM.length) {
            if (!fill()) {
                break;
            }
        }
        if (limit - pos >= UTF8_BOM.length
                && Arrays.equals(buffer, pos, pos + UTF8_BOM.length, UTF8_BOM, 0, UTF8_BOM.length)) {
            pos += UTF8_BOM.length;
            offset += UTF8_BOM.length;
        }
    }

    /** Advances to the next line; false at the end of the file. */
    boolean next() throws IOException {
        truncated = false;
        int scanned = 0;
        while (true) {
            for (int i = pos + scanned; i < limit; i++) {
                if (buffer[i] == '\n') {
                    take(i, i + 1);
                    return true;
                }
            }
            scanned = limit - pos;
            if (scanned == maxBufferBytes) {
                skipOverlongLine();
                return true;
            }
            if (!fill()) {
                if (pos == limit) {
                    return false;
                }
                take(limit, limit);
                return true;
            }
        }
    }

    /** The bytes of the current line: {@link #start()} to {@link #start()} + {@link #length()}. */
    byte[] bytes() {
        return lineBytes;
    }

    int start() {
        return lineStart;
    }

    int length() {
        return lineEnd - lineStart;
    }

    /** Whether the line was longer than the limit; then only its first bytes are available. */
    boolean truncated() {
        return truncated;
    }

    /** The number of the current line, counting from 1. */
    long lineNumber() {
        return lineNumber;
    }

    /** The byte offset just after the current line's line end. */
    long position() {
        return offset;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private void take(int end, int next) {
        lineBytes = buffer;
        lineStart = pos;
        lineEnd = end > pos && buffer[end - 1] == '\r' ? end - 1 : end;
        offset += next - pos;
        pos = next;
        lineNumber++;
    }

    private void skipOverlongLine() throws IOException {
        byte[] preview = Arrays.copyOfRange(buffer, pos, pos + Math.min(PREVIEW_BYTES, limit - pos));
        boolean found = false;
        while (!found) {
            int i = pos;
            while (i < limit && buffer[i] != '\n') {
                i++;
            }
            found = i < limit;
            int next = found ? i + 1 : limit;
            offset += next - pos;
            pos = next;
            if (!found && !fill()) {
                break;
            }
        }
        lineNumber++;
        lineBytes = preview;
        lineStart = 0;
        lineEnd = preview.length;
        truncated = true;
    }

    /** Reads more bytes after {@code limit}, moving or growing the buffer if needed; false at end of file. */
    private boolean fill() throws IOException {
        if (pos > 0) {
            System.arraycopy(buffer, pos, buffer, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        if (limit == buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.min(buffer.length * 2, maxBufferBytes));
        }
        int read = channel.read(ByteBuffer.wrap(buffer, limit, buffer.length - limit));
        if (read <= 0) {
            return false;
        }
        limit += read;
        return true;
    }
}
