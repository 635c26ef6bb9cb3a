package io.durablebatch.item.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.RestartableItemWriter;
import io.durablebatch.item.support.CheckpointFormat;

/**
 * Writes items as the records of a delimited flat file, one line each, restartable by byte offset.
 * <p>
 * A first run replaces the file (and writes the header, if any). Each {@link #write} appends the
 * chunk's lines in one write; the checkpoint is the offset after them. Reopening from a checkpoint
 * truncates the file to that offset, dropping the lines of any chunk that did not commit, so every
 * item is in the file exactly once. With {@link Builder#force} each chunk also reaches the disk
 * before its transaction commits, which protects the file against a power loss, not only a crash.
 */
public final class DelimitedFileItemWriter<T> implements RestartableItemWriter<T> {

    private static final CheckpointFormat FORMAT = CheckpointFormat.DELIMITED_FILE_WRITER;

    private final Path path;
    private final DelimitedFormat format;
    private final List<String> header;
    private final FieldExtractor<T> extractor;
    private final String lineSeparator;
    private final boolean force;
    private final DelimitedLineFormatter formatter;
    private final CharsetEncoder encoder;
    private final StringBuilder lines = new StringBuilder();

    private FileChannel channel;
    private long offset;
    private long linesWritten;

    private DelimitedFileItemWriter(Builder<T> builder) {
        this.path = builder.path;
        this.format = builder.format;
        this.header = builder.header;
        this.extractor = builder.extractor;
        this.lineSeparator = builder.lineSeparator;
        this.force = builder.force;
        this.formatter = new DelimitedLineFormatter(format);
        // a character the charset cannot hold fails the chunk instead of becoming a '?'
        this.encoder = format.charset().newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    @Override
    public void open(Optional<Checkpoint> checkpoint) throws IOException {
        Checks.notNull(checkpoint, "checkpoint");
        close();
        if (checkpoint.isEmpty()) {
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            offset = 0;
            linesWritten = 0;
            if (header != null) {
                lines.setLength(0);
                formatter.append(lines, header);
                append(lines.append(lineSeparator));
            }
            return;
        }
        long[] position = FORMAT.decodeLongs(checkpoint.get(), 2);
        FileChannel reopened = FileChannel.open(path, StandardOpenOption.WRITE);
        try {
            if (reopened.size() < position[0]) {
                throw FORMAT.refused(checkpoint.get(), path + " has " + reopened.size() + " bytes, fewer than the "
                        + position[0] + " written: was the file modified?");
            }
            // drops the lines of chunks written after the checkpoint whose transaction did not commit
            reopened.truncate(position[0]);
            reopened.position(position[0]);
        } catch (IOException | RuntimeException e) {
            reopened.close();
            throw e;
        }
        channel = reopened;
        offset = position[0];
        linesWritten = position[1];
    }

    @Override
    public void write(List<? extends T> items) throws Exception {
        if (channel == null) {
            throw new IllegalStateException("the writer of " + path + " is not open");
        }
        lines.setLength(0);
        for (int i = 0; i < items.size(); i++) {
            List<?> values = extractor.extract(items.get(i));
            try {
                if (header != null && values.size() != header.size()) {
                    throw new IllegalArgumentException("it has " + values.size() + " fields, the header "
                            + header + " has " + header.size());
                }
                formatter.append(lines, values);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("cannot write item " + (i + 1) + " of the chunk to " + path
                        + ": " + e.getMessage(), e);
            }
            lines.append(lineSeparator);
        }
        append(lines);
        linesWritten += items.size();
    }

    @Override
    public Checkpoint checkpoint() {
        if (channel == null) {
            throw new IllegalStateException("the writer of " + path + " is not open");
        }
        return FORMAT.encodeLongs(offset, linesWritten);
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    private void append(CharSequence text) throws IOException {
        ByteBuffer bytes;
        try {
            bytes = encoder.reset().encode(CharBuffer.wrap(text));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("the chunk has characters that " + format.charset().name()
                    + " cannot encode, not written to " + path, e);
        }
        int length = bytes.remaining();
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
        if (force) {
            channel.force(false);
        }
        offset += length;
    }

    /** Configures a {@link DelimitedFileItemWriter}; {@link #path} and {@link #extractor} are required. */
    public static final class Builder<T> {

        private Path path;
        private DelimitedFormat format = DelimitedFormat.CSV;
        private List<String> header;
        private FieldExtractor<T> extractor;
        private String lineSeparator = "\n";
        private boolean force;

        private Builder() {
        }

        public Builder<T> path(Path path) {
            this.path = Checks.notNull(path, "path");
            return this;
        }

        /** Delimiter, quote and charset; {@link DelimitedFormat#CSV} by default. */
        public Builder<T> format(DelimitedFormat format) {
            this.format = Checks.notNull(format, "format");
            return this;
        }

        /** A header line of field names, written first; each item must then have as many fields. */
        public Builder<T> header(String... names) {
            Checks.notNull(names, "header");
            this.header = FieldNames.of(Arrays.asList(names)).list();
            return this;
        }

        public Builder<T> extractor(FieldExtractor<T> extractor) {
            this.extractor = Checks.notNull(extractor, "extractor");
            return this;
        }

        /** {@code "\n"} (the default) or {@code "\r\n"}. */
        public Builder<T> lineSeparator(String lineSeparator) {
            if (!"\n".equals(lineSeparator) && !"\r\n".equals(lineSeparator)) {
                String shown = lineSeparator == null ? "null"
                        : "'" + lineSeparator.replace("\r", "\\r").replace("\n", "\\n") + "'";
                throw new IllegalArgumentException("lineSeparator must be \"\\n\" or \"\\r\\n\", got " + shown);
            }
            this.lineSeparator = lineSeparator;
            return this;
        }

        /** Whether each chunk is forced to the storage device before {@link #write} returns. */
        public Builder<T> force(boolean force) {
            this.force = force;
            return this;
        }

        public DelimitedFileItemWriter<T> build() {
            Checks.notNull(path, "path");
            Checks.notNull(extractor, "extractor");
            return new DelimitedFileItemWriter<>(this);
        }
    }
}
