package io.durablebatch.item.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.support.CheckpointFormat;

class DelimitedFileItemReaderTest {

    record Order(long id, String customer, String note) {
    }

    @TempDir
    Path dir;

    @Test
    void readsRfc4180QuotingWithDelimitersAndEscapedQuotesInsideQuotes() throws Exception {
        Path file = write("orders.csv", "1,\"Smith, John\",\"said \"\"hi\"\"\"\n"
                + "2,,\"\"\n"
                + "3,\"a,b,c\",plain\n");
        assertEquals(List.of(new Order(1, "Smith, John", "said \"hi\""), new Order(2, "", ""),
                new Order(3, "a,b,c", "plain")), readAll(orders(file).build(), Optional.empty()));
    }

    @Test
    void namesFieldsFromTheHeaderLine() throws Exception {
        Path file = write("header.csv", "note,id,customer\nfirst,1,ann\nsecond,2,bob\n");
        DelimitedFileItemReader<Order> reader = DelimitedFileItemReader.<Order> builder()
                .path(file).header(true).mapper(DelimitedFileItemReaderTest::order).build();
        assertEquals(List.of(new Order(1, "ann", "first"), new Order(2, "bob", "second")),
                readAll(reader, Optional.empty()));
    }

    @Test
    void givenNamesWinOverTheHeaderWhichIsSkippedUnread() throws Exception {
        Path file = write("renamed.csv", "\"not, a valid header\n1,a,x\n");
        DelimitedFileItemReader<Order> reader = orders(file).header(true).build();
        assertEquals(List.of(new Order(1, "a", "x")), readAll(reader, Optional.empty()));
    }

    @Test
    void readsLfAndCrlfLineEndingsAlikeAndSkipsBlankLines() throws Exception {
        Path lf = write("lf.csv", "1,a,x\n\n2,b,y\n3,c,z");
        Path crlf = write("crlf.csv", "1,a,x\r\n\r\n2,b,y\r\n3,c,z\r\n");
        List<Order> expected = List.of(new Order(1, "a", "x"), new Order(2, "b", "y"), new Order(3, "c", "z"));
        assertEquals(expected, readAll(orders(lf).build(), Optional.empty()));
        assertEquals(expected, readAll(orders(crlf).build(), Optional.empty()));
    }

    @Test
    void readsOtherDelimitersQuotesAndCharsets() throws Exception {
        Path file = dir.resolve("latin1.tsv");
        Files.write(file, "1\t'Müller\tGmbH'\t'it''s'\n".getBytes(StandardCharsets.ISO_8859_1));
        DelimitedFileItemReader<Order> reader = orders(file)
                .format(DelimitedFormat.TSV.withQuote('\'').withCharset(StandardCharsets.ISO_8859_1)).build();
        assertEquals(List.of(new Order(1, "Müller\tGmbH", "it's")), readAll(reader, Optional.empty()));
    }

    @Test
    void ignoresAUtf8ByteOrderMark() throws Exception {
        Path file = dir.resolve("bom.csv");
        Files.write(file, concat(new byte[] { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF },
                "id,customer,note\n1,a,x\n2,b,y\n".getBytes(StandardCharsets.UTF_8)));
        DelimitedFileItemReader<Order> reader = DelimitedFileItemReader.<Order> builder()
                .path(file).header(true).mapper(DelimitedFileItemReaderTest::order).build();
        assertEquals(List.of(new Order(1, "a", "x"), new Order(2, "b", "y")), readAll(reader, Optional.empty()));
        // a restart reads the names from the header again, behind the byte order mark
        assertEquals(List.of(new Order(2, "b", "y")), readAll(reader, Optional.of(position(3 + 17 + 6, 2))));
    }

    @Test
    void aHeaderThatDoesNotNameTheFieldsFailsTheOpenNamingLineOne() throws Exception {
        Path file = write("dup.csv", "id,id,note\n1,a,x\n");
        DelimitedFileItemReader<Order> reader = DelimitedFileItemReader.<Order> builder()
                .path(file).header(true).mapper(DelimitedFileItemReaderTest::order).build();
        FlatFileParseException e = assertThrows(FlatFileParseException.class, () -> reader.open(Optional.empty()));
        assertEquals(file + ":1: the header is not a list of field names: names must be unique, 'id' appears twice:"
                + " [id,id,note]", e.getMessage());
        assertThrows(IllegalStateException.class, reader::read);
    }

    @Test
    void checkpointIsTheByteOffsetAfterTheLastRecordEvenWithMultibyteCharacters() throws Exception {
        String first = "1,Zoë,日本語\r\n";
        String second = "2,Åsa,😀\n";
        Path file = write("utf8.csv", first + second);
        DelimitedFileItemReader<Order> reader = orders(file).build();
        reader.open(Optional.empty());
        assertEquals(new Order(1, "Zoë", "日本語"), reader.read());
        assertPosition(first.getBytes(StandardCharsets.UTF_8).length, 1, reader.checkpoint());
        assertEquals(new Order(2, "Åsa", "😀"), reader.read());
        assertPosition((first + second).getBytes(StandardCharsets.UTF_8).length, 2, reader.checkpoint());
        assertNull(reader.read());
        reader.close();
    }

    @Test
    void restartFromAnyCheckpointReadsExactlyTheRemainingRecords() throws Exception {
        StringBuilder content = new StringBuilder("id,customer,note\r\n");
        List<Order> all = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            Order order = new Order(i, "cüstomer " + i, i % 3 == 0 ? "with, comma" : "ünïcode ✓");
            all.add(order);
            content.append(order.id()).append(",").append(order.customer()).append(",\"").append(order.note())
                    .append(i % 2 == 0 ? "\"\r\n" : "\"\n");
            if (i % 7 == 0) {
                content.append("\n");
            }
        }
        Path file = write("restart.csv", content.toString());
        DelimitedFileItemReader<Order> first = DelimitedFileItemReader.<Order> builder()
                .path(file).header(true).mapper(DelimitedFileItemReaderTest::order).build();
        first.open(Optional.empty());
        List<Checkpoint> checkpoints = new ArrayList<>(List.of(first.checkpoint()));
        while (first.read() != null) {
            checkpoints.add(first.checkpoint());
        }
        first.close();
        for (int done = 0; done < checkpoints.size(); done++) {
            DelimitedFileItemReader<Order> restarted = DelimitedFileItemReader.<Order> builder()
                    .path(file).header(true).mapper(DelimitedFileItemReaderTest::order).build();
            assertEquals(all.subList(done, all.size()), readAll(restarted, Optional.of(checkpoints.get(done))),
                    "restart after " + done + " records");
        }
    }

    @Test
    void reopeningSeeksToTheOffsetWithoutReadingTheLinesBeforeIt() throws Exception {
        Path file = write("seek.csv", "1,a,x\n2,b,y\n3,c,z\n4,d,w\n");
        DelimitedFileItemReader<Order> reader = orders(file).build();
        reader.open(Optional.empty());
        reader.read();
        reader.read();
        Checkpoint afterTwo = reader.checkpoint();
        reader.close();
        // corrupt the lines already read (same length, line ends kept): a reader that re-read them fails
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i < "1,a,x\n2,b,y".length(); i++) {
            if (bytes[i] != '\n') {
                bytes[i] = (byte) 0xFF;
            }
        }
        Files.write(file, bytes);
        assertEquals(List.of(new Order(3, "c", "z"), new Order(4, "d", "w")), readAll(orders(file).build(),
                Optional.of(afterTwo)));
    }

    @Test
    void malformedRecordsNameFileAndLineAndTheReaderReadsOnPastThem() throws Exception {
        Path file = write("bad.csv", "id,customer,note\n"
                + "1,a,x\n"
                + "2,only two\n"
                + "3,\"unterminated,x\n"
                + "4,\"closed\"junk,x\n"
                + "5,quote\"inside,x\n"
                + "six,a,x\n"
                + "7,a,x,extra\n"
                + "8,b,y\n");
        DelimitedFileItemReader<Order> reader = DelimitedFileItemReader.<Order> builder()
                .path(file).header(true).mapper(DelimitedFileItemReaderTest::order).build();
        reader.open(Optional.empty());
        assertEquals(new Order(1, "a", "x"), reader.read());
        assertMalformed(reader, file, 3, "2,only two", "expected 3 fields [id, customer, note], found 2");
        assertMalformed(reader, file, 4, "3,\"unterminated,x", "quote opened at column 3 is not closed");
        assertMalformed(reader, file, 5, "4,\"closed\"junk,x", "unexpected character after the closing quote at column 11");
        assertMalformed(reader, file, 6, "5,quote\"inside,x", "quote character inside an unquoted field at column 8");
        FlatFileParseException mapping = assertMalformed(reader, file, 7, "six,a,x",
                "cannot map the record: field 'id' is not a whole number: 'six'");
        assertTrue(mapping.getCause() instanceof IllegalArgumentException);
        assertMalformed(reader, file, 8, "7,a,x,extra", "expected 3 fields [id, customer, note], found 4");
        // a skip policy skips the record: the checkpoint is already past it
        Checkpoint afterBadLines = reader.checkpoint();
        assertEquals(new Order(8, "b", "y"), reader.read());
        assertNull(reader.read());
        reader.close();
        assertEquals(List.of(new Order(8, "b", "y")), readAll(DelimitedFileItemReader.<Order> builder()
                .path(file).header(true).mapper(DelimitedFileItemReaderTest::order).build(), Optional.of(afterBadLines)));
    }

    @Test
    void bytesInvalidInTheCharsetAreAMalformedRecordNotReplacementCharacters() throws Exception {
        Path file = dir.resolve("invalid.csv");
        Files.write(file, concat("1,a,x\n2,".getBytes(StandardCharsets.UTF_8), new byte[] { (byte) 0xC3, (byte) 0x28 },
                ",y\n3,c,z\n".getBytes(StandardCharsets.UTF_8)));
        DelimitedFileItemReader<Order> reader = orders(file).build();
        reader.open(Optional.empty());
        reader.read();
        FlatFileParseException e = assertThrows(FlatFileParseException.class, reader::read);
        assertEquals(2, e.lineNumber());
        assertTrue(e.getMessage().contains("bytes not valid in UTF-8"), e.getMessage());
        assertEquals(new Order(3, "c", "z"), reader.read());
        reader.close();
    }

    @Test
    void aLineLongerThanTheLimitIsAMalformedRecordAndReadingGoesOn() throws Exception {
        String longNote = "n".repeat(300_000);
        Path file = write("long.csv", "1,a,x\n2,b," + longNote + "\r\n3,c,z\n");
        DelimitedFileItemReader<Order> reader = orders(file).maxLineBytes(100_000).build();
        reader.open(Optional.empty());
        reader.read();
        FlatFileParseException e = assertThrows(FlatFileParseException.class, reader::read);
        assertEquals(2, e.lineNumber());
        assertTrue(e.getMessage().contains("line is longer than 100000 bytes"), e.getMessage());
        assertTrue(e.rawLine().startsWith("2,b,nnn"));
        assertEquals(new Order(3, "c", "z"), reader.read());
        assertPosition(Files.size(file), 3, reader.checkpoint());
        reader.close();
    }

    @Test
    void aLineOfExactlyTheLimitIsRead() throws Exception {
        String line = "1,a," + "n".repeat(96);
        Path file = write("exact.csv", line + "\r\n");
        assertEquals(List.of(new Order(1, "a", "n".repeat(96))),
                readAll(orders(file).maxLineBytes(line.length()).build(), Optional.empty()));
    }

    @Test
    void aMapperReturningNullIsRefusedBecauseNullEndsTheInput() throws Exception {
        Path file = write("null.csv", "1,a,x\n");
        DelimitedFileItemReader<Order> reader = DelimitedFileItemReader.<Order> builder()
                .path(file).names("id", "customer", "note").mapper(fields -> null).build();
        reader.open(Optional.empty());
        FlatFileParseException e = assertThrows(FlatFileParseException.class, reader::read);
        assertTrue(e.getMessage().contains("the mapper returned null"), e.getMessage());
        reader.close();
    }

    @Test
    void refusesACheckpointItCannotReopenFrom() throws Exception {
        Path file = write("refuse.csv", "1,a,x\n2,b,y\n");
        DelimitedFileItemReader<Order> reader = orders(file).build();
        IllegalArgumentException otherReader = assertThrows(IllegalArgumentException.class,
                () -> reader.open(Optional.of(CheckpointFormat.LIST_READER.encodeLongs(0))));
        assertTrue(otherReader.getMessage().contains("it was not written by a delimited file reader"),
                otherReader.getMessage());
        IllegalArgumentException beyondEnd = assertThrows(IllegalArgumentException.class,
                () -> reader.open(Optional.of(position(1000, 5))));
        assertTrue(beyondEnd.getMessage().contains("is beyond the end of"), beyondEnd.getMessage());
        IllegalArgumentException midLine = assertThrows(IllegalArgumentException.class,
                () -> reader.open(Optional.of(position(3, 1))));
        assertTrue(midLine.getMessage().contains("is not the start of a line"), midLine.getMessage());
    }

    @Test
    void sizeIsUnknownEstimatedOrCountedAsConfigured() throws Exception {
        StringBuilder content = new StringBuilder("id,customer,note\n");
        for (int i = 1; i <= 20_000; i++) {
            content.append(i).append(",customer ").append(i % 10).append(",note\n");
            if (i % 1000 == 0) {
                content.append("\n");
            }
        }
        Path big = write("big.csv", content.toString());
        Path small = write("small.csv", "id,customer,note\n1,a,x\n\n2,b,y");
        assertEquals(OptionalLong.empty(), sized(big, SizeMode.UNKNOWN).size());
        assertEquals(OptionalLong.of(20_000), sized(big, SizeMode.COUNTED).size());
        assertEquals(OptionalLong.of(2), sized(small, SizeMode.ESTIMATED).size());
        long estimate = sized(big, SizeMode.ESTIMATED).size().orElseThrow();
        assertTrue(Math.abs(estimate - 20_000) < 20_000 / 10, "estimate " + estimate);
    }

    @Test
    void builderRefusalsNameTheField() {
        assertRefused("path must not be null", () -> DelimitedFileItemReader.<Order> builder()
                .mapper(DelimitedFileItemReaderTest::order).names("id").build());
        assertRefused("mapper must not be null", () -> DelimitedFileItemReader.<Order> builder()
                .path(dir.resolve("x")).names("id").build());
        assertRefused("names must be given when the file has no header line", () -> DelimitedFileItemReader
                .<Order> builder().path(dir.resolve("x")).mapper(DelimitedFileItemReaderTest::order).build());
        assertRefused("names must be unique, 'id' appears twice",
                () -> DelimitedFileItemReader.<Order> builder().names("id", "id"));
        assertRefused("maxLineBytes must be positive, got 0",
                () -> DelimitedFileItemReader.<Order> builder().maxLineBytes(0));
        assertRefused("delimiter and quote must differ, both are '\"'", () -> DelimitedFormat.CSV.withDelimiter('"'));
        assertRefused("charset must encode CR and LF as single ASCII bytes, UTF-16 does not",
                () -> DelimitedFormat.CSV.withCharset(StandardCharsets.UTF_16));
    }

    static Order order(FieldSet fields) {
        return new Order(fields.getLong("id"), fields.get("customer"), fields.get("note"));
    }

    private DelimitedFileItemReader.Builder<Order> orders(Path file) {
        return DelimitedFileItemReader.<Order> builder().path(file).names("id", "customer", "note")
                .mapper(DelimitedFileItemReaderTest::order);
    }

    private DelimitedFileItemReader<Order> sized(Path file, SizeMode mode) {
        return DelimitedFileItemReader.<Order> builder().path(file).header(true).size(mode)
                .mapper(DelimitedFileItemReaderTest::order).build();
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    static <T> List<T> readAll(DelimitedFileItemReader<T> reader, Optional<Checkpoint> checkpoint) throws Exception {
        reader.open(checkpoint);
        List<T> items = new ArrayList<>();
        for (T item = reader.read(); item != null; item = reader.read()) {
            items.add(item);
        }
        reader.close();
        return items;
    }

    private static FlatFileParseException assertMalformed(DelimitedFileItemReader<?> reader, Path file, long line,
            String raw, String reason) {
        FlatFileParseException e = assertThrows(FlatFileParseException.class, reader::read);
        assertEquals(file, e.path());
        assertEquals(line, e.lineNumber());
        assertEquals(raw, e.rawLine());
        assertEquals(file + ":" + line + ": " + reason + ": [" + raw + "]", e.getMessage());
        return e;
    }

    private static void assertPosition(long offset, long line, Checkpoint checkpoint) {
        assertArrayEquals(position(offset, line).bytes(), checkpoint.bytes());
    }

    private static Checkpoint position(long offset, long line) {
        return CheckpointFormat.DELIMITED_FILE_READER.encodeLongs(offset, line);
    }

    private static void assertRefused(String message, Executable call) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, call).getMessage());
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuffer buffer = ByteBuffer.allocate(Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] part : parts) {
            buffer.put(part);
        }
        return buffer.array();
    }
}
