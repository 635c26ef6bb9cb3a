package io.durablebatch.item.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import io.durablebatch.Checks;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.ItemReader;
import io.durablebatch.item.support.CheckpointFormat;

/**
 * Reads a delimited flat file (CSV, TSV, ...), one record per non-blank line, restartable by byte
 * offset.
 * <p>
 * The checkpoint holds the byte offset and number of the last line consumed, so reopening seeks
 * straight there without re-reading the lines before it (a file whose field names come from its
 * header reads that one line again). A record that cannot be read fails with a
 * {@link FlatFileParseException} naming the file and line, after the reader has moved past it: a
 * skip policy can skip it and read on.
 * <p>
 * Lines end with LF or CRLF; blank lines are skipped; a UTF-8 byte order mark is ignored. A record
 * is one line: a quoted field cannot hold a line break.
 */
public final class DelimitedFileItemReader<T> implements ItemReader<T> {

    /** The default limit of a line's length, which bounds the memory a corrupt file can take. */
    public static final int DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

    /** The highest limit of a line's length that can be configured. */
    public static final int MAX_LINE_BYTES = 1024 * 1024 * 1024;

    private static final CheckpointFormat FORMAT = CheckpointFormat.DELIMITED_FILE_READER;

    private final Path path;
    private final DelimitedFormat format;
    private final boolean header;
    private final FieldNames explicitNames;
    private final FieldSetMapper<T> mapper;
    private final SizeMode sizeMode;
    private final int maxLineBytes;
    private final CharsetDecoder decoder;
    private final DelimitedLineTokenizer tokenizer;

    private LineSource source;
    private FieldNames names;
    private CharBuffer chars = CharBuffer.allocate(256);
    private Long size;

    private DelimitedFileItemReader(Builder<T> builder) {
        this.path = builder.path;
        this.format = builder.format;
        this.header = builder.header;
        this.explicitNames = builder.names == null ? null : FieldNames.of(builder.names);
        this.mapper = builder.mapper;
        this.sizeMode = builder.sizeMode;
        this.maxLineBytes = builder.maxLineBytes;
        // bytes that are not valid in the charset are a malformed record, never silently replaced
        this.decoder = format.charset().newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        this.tokenizer = new DelimitedLineTokenizer(format);
    }

    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    @Override
    public void open(Optional<Checkpoint> checkpoint) throws IOException {
        Checks.notNull(checkpoint, "checkpoint");
        close();
        long[] position = checkpoint.isEmpty() ? new long[] { 0, 0 } : FORMAT.decodeLongs(checkpoint.get(), 2);
        long offset = position[0];
        long lineNumber = position[1];
        long fileSize = Files.size(path);
        if (offset > fileSize) {
            throw FORMAT.refused(checkpoint.get(), "offset " + offset + " is beyond the end of " + path
                    + " (" + fileSize + " bytes): was the file replaced?");
        }
        names = explicitNames;
        source = LineSource.open(path, offset, lineNumber, maxLineBytes);
        try {
            seek(checkpoint, offset, lineNumber);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Moves the fresh source past the header, or checks the checkpoint's position and reads the names. */
    private void seek(Optional<Checkpoint> checkpoint, long offset, long lineNumber) throws IOException {
        if (lineNumber == 0) {
            if (offset == 0) {
                skipByteOrderMark(source);
            }
            if (header && names == null) {
                names = headerNames(source);
            } else if (header) {
                source.next(); // given names win: the header is skipped unread
            }
        } else {
            if (!source.atLineStart()) {
                throw FORMAT.refused(checkpoint.get(), "offset " + offset + " of " + path
                        + " is not the start of a line: was the file modified?");
            }
            if (names == null) {
                try (LineSource start = LineSource.open(path, 0, 0, maxLineBytes)) {
                    skipByteOrderMark(start);
                    names = headerNames(start);
                }
            }
        }
    }

    private void skipByteOrderMark(LineSource lines) throws IOException {
        if (format.charset().equals(StandardCharsets.UTF_8)) {
            lines.skipUtf8Bom();
        }
    }

    @Override
    public T read() throws IOException {
        if (source == null) {
            throw new IllegalStateException("the reader of " + path + " is not open");
        }
        while (source.next()) {
            if (source.length() > 0 || source.truncated()) {
                return map(fields());
            }
        }
        return null;
    }

    @Override
    public Checkpoint checkpoint() {
        if (source == null) {
            throw new IllegalStateException("the reader of " + path + " is not open");
        }
        return FORMAT.encodeLongs(source.position(), source.lineNumber());
    }

    /** The number of records in the whole file (not only those left), as {@link SizeMode} describes. */
    @Override
    public OptionalLong size() {
        if (sizeMode == SizeMode.UNKNOWN) {
            return OptionalLong.empty();
        }
        if (size == null) {
            try {
                long records = sizeMode == SizeMode.COUNTED ? RecordCounter.count(path) : RecordCounter.estimate(path);
                size = Math.max(0, records - (header ? 1 : 0));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot size " + path, e);
            }
        }
        return OptionalLong.of(size);
    }

    @Override
    public void close() throws IOException {
        if (source != null) {
            source.close();
            source = null;
        }
    }

    /** The names in the header line at the source's position, or none if the file is empty. */
    private FieldNames headerNames(LineSource lines) throws IOException {
        if (!lines.next()) {
            return null;
        }
        try {
            return FieldNames.of(Arrays.asList(tokenize(lines)));
        } catch (IllegalArgumentException e) {
            throw malformed(lines, "the header is not a list of field names: " + e.getMessage(), null);
        }
    }

    private FieldSet fields() {
        // names are known here: only an empty file leaves a header-named file without them
        String[] values = tokenize(source);
        if (values.length != names.size()) {
            throw malformed(source, "expected " + names.size() + " fields " + names.list() + ", found "
                    + values.length, null);
        }
        return new FieldSet(names, values);
    }

    private T map(FieldSet fields) {
        T item;
        try {
            item = mapper.map(fields);
        } catch (Exception e) {
            throw malformed(source, "cannot map the record: " + e.getMessage(), e);
        }
        if (item == null) {
            throw malformed(source, "the mapper returned null for the record", null);
        }
        return item;
    }

    private String[] tokenize(LineSource lines) {
        if (lines.truncated()) {
            throw malformed(lines, "line is longer than " + maxLineBytes + " bytes", null);
        }
        try {
            decode(lines);
        } catch (CharacterCodingException e) {
            throw malformed(lines, "bytes not valid in " + format.charset().name() + " (" + e.getMessage() + ")", e);
        }
        try {
            return tokenizer.tokenize(chars.array(), chars.position());
        } catch (DelimitedLineTokenizer.MalformedLineException e) {
            throw malformed(lines, e.getMessage(), null);
        }
    }

    private void decode(LineSource lines) throws CharacterCodingException {
        int capacity = (int) Math.ceil(lines.length() * (double) decoder.maxCharsPerByte());
        if (chars.capacity() < capacity) {
            chars = CharBuffer.allocate(Math.max(capacity, chars.capacity() * 2));
        }
        chars.clear();
        decoder.reset();
        CoderResult result = decoder.decode(ByteBuffer.wrap(lines.bytes(), lines.start(), lines.length()), chars, true);
        if (result.isUnderflow()) {
            result = decoder.flush(chars);
        }
        if (!result.isUnderflow()) {
            result.throwException();
        }
    }

    private FlatFileParseException malformed(LineSource lines, String reason, Throwable cause) {
        String raw = new String(lines.bytes(), lines.start(), lines.length(), format.charset());
        return new FlatFileParseException(path, lines.lineNumber(), raw, reason, cause);
    }

    /** Configures a {@link DelimitedFileItemReader}; {@link #path} and {@link #mapper} are required. */
    public static final class Builder<T> {

        private Path path;
        private DelimitedFormat format = DelimitedFormat.CSV;
        private boolean header;
        private List<String> names;
        private FieldSetMapper<T> mapper;
        private SizeMode sizeMode = SizeMode.ESTIMATED;
        private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;

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

        /** Whether the first line is a header naming the fields (used when no {@link #names} are given). */
        public Builder<T> header(boolean header) {
            this.header = header;
            return this;
        }

        /** The field names, in column order; required unless the file has a {@link #header}. */
        public Builder<T> names(String... names) {
            Checks.notNull(names, "names");
            this.names = FieldNames.of(Arrays.asList(names)).list();
            return this;
        }

        public Builder<T> mapper(FieldSetMapper<T> mapper) {
            this.mapper = Checks.notNull(mapper, "mapper");
            return this;
        }

        /** What {@link DelimitedFileItemReader#size()} reports; {@link SizeMode#ESTIMATED} by default. */
        public Builder<T> size(SizeMode sizeMode) {
            this.sizeMode = Checks.notNull(sizeMode, "sizeMode");
            return this;
        }

        /** The longest line accepted, in bytes; a longer one is a malformed record. */
        public Builder<T> maxLineBytes(int maxLineBytes) {
            Checks.positive(maxLineBytes, "maxLineBytes");
            if (maxLineBytes > MAX_LINE_BYTES) {
                throw new IllegalArgumentException("maxLineBytes must be at most " + MAX_LINE_BYTES + ", got "
                        + maxLineBytes);
            }
            this.maxLineBytes = maxLineBytes;
            return this;
        }

        public DelimitedFileItemReader<T> build() {
            Checks.notNull(path, "path");
            Checks.notNull(mapper, "mapper");
            if (names == null && !header) {
                throw new IllegalArgumentException("names must be given when the file has no header line");
            }
            return new DelimitedFileItemReader<>(this);
        }
    }
}
