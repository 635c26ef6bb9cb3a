package io.durablebatch.item.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Counts the non-blank lines of a file (the ones a reader returns as records) by one byte scan. */
final class RecordCounter {

    private static final int SAMPLE_BYTES = 64 * 1024;

    private RecordCounter() {
    }

    /** The exact number of non-blank lines. */
    static long count(Path path) throws IOException {
        return scan(path, Long.MAX_VALUE, true);
    }

    /** The number of non-blank lines, extrapolated to the file's size from its first 64 KiB. */
    static long estimate(Path path) throws IOException {
        return scan(path, SAMPLE_BYTES, false);
    }

    private static long scan(Path path, long maxBytes, boolean exact) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long fileSize = channel.size();
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(SAMPLE_BYTES, Math.max(1, fileSize)));
            long lines = 0;
            long scanned = 0;
            long throughLastLineEnd = 0;
            boolean content = false;
            while (scanned < maxBytes && channel.read(buffer.clear()) > 0) {
                buffer.flip();
                while (buffer.hasRemaining()) {
                    byte b = buffer.get();
                    scanned++;
                    if (b == '\n') {
                        lines += content ? 1 : 0;
                        content = false;
                        throughLastLineEnd = scanned;
                    } else if (b != '\r') {
                        content = true;
                    }
                }
            }
            if (exact || scanned >= fileSize || throughLastLineEnd == 0) {
                // all of it was scanned (or a first line longer than the sample leaves nothing to
                // extrapolate from)
                return lines + (content ? 1 : 0);
            }
            // the mean length of the complete lines sampled, spread over the whole file
            return Math.round(lines * ((double) fileSize / throughLastLineEnd));
        }
    }
}
