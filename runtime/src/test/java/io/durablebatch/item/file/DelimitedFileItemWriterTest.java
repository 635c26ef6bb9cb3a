package io.durablebatch.item.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.file.DelimitedFileItemReaderTest.Order;

class DelimitedFileItemWriterTest {

    @TempDir
    Path dir;

    @Test
    void writesTheHeaderAndQuotesOnlyTheFieldsThatNeedItSoTheReaderReadsThemBack() throws Exception {
        Path file = dir.resolve("out.csv");
        DelimitedFileItemWriter<Order> writer = orders(file).build();
        List<Order> orders = List.of(new Order(1, "Smith, John", "said \"hi\""), new Order(2, "Zoë", ""),
                new Order(3, "plain", "日本語"));
        writer.open(Optional.empty());
        writer.write(orders);
        writer.close();
        assertEquals("id,customer,note\n1,\"Smith, John\",\"said \"\"hi\"\"\"\n2,Zoë,\n3,plain,日本語\n",
                Files.readString(file));
        assertEquals(orders, DelimitedFileItemReaderTest.readAll(DelimitedFileItemReader.<Order> builder()
                .path(file).header(true).mapper(DelimitedFileItemReaderTest::order).build(), Optional.empty()));
    }

    @Test
    void writesNullAsAnEmptyFieldAndCrlfWhenAsked() throws Exception {
        Path file = dir.resolve("crlf.csv");
        DelimitedFileItemWriter<Order> writer = DelimitedFileItemWriter.<Order> builder().path(file)
                .format(DelimitedFormat.CSV.withDelimiter(';')).lineSeparator("\r\n")
                .extractor(order -> Arrays.asList(order.id(), null, order.note())).build();
        writer.open(Optional.empty());
        writer.write(List.of(new Order(1, "a", "x;y")));
        writer.close();
        assertEquals("1;;\"x;y\"\r\n", Files.readString(file));
    }

    @Test
    void reopeningFromACheckpointTruncatesTheLinesOfChunksThatDidNotCommit() throws Exception {
        Path file = dir.resolve("restart.csv");
        DelimitedFileItemWriter<Order> first = orders(file).build();
        first.open(Optional.empty());
        first.write(List.of(new Order(1, "a", "x"), new Order(2, "b", "y")));
        Checkpoint committed = first.checkpoint();
        // this chunk's transaction rolls back, or the process dies before it commits
        first.write(List.of(new Order(3, "lost", "lost")));
        first.close();
        assertTrue(Files.readString(file).contains("lost"));

        DelimitedFileItemWriter<Order> restarted = orders(file).build();
        restarted.open(Optional.of(committed));
        restarted.write(List.of(new Order(3, "c", "z")));
        restarted.close();
        assertEquals("id,customer,note\n1,a,x\n2,b,y\n3,c,z\n", Files.readString(file));
        assertEquals(committed, checkpointAfterReopen(file, committed));
    }

    @Test
    void aFirstRunReplacesTheFile() throws Exception {
        Path file = Files.writeString(dir.resolve("old.csv"), "stale content that is longer than the new one\n");
        DelimitedFileItemWriter<Order> writer = orders(file).build();
        writer.open(Optional.empty());
        writer.write(List.of(new Order(1, "a", "x")));
        writer.close();
        assertEquals("id,customer,note\n1,a,x\n", Files.readString(file));
    }

    @Test
    void refusesWhatItCannotWriteNamingTheItem() throws Exception {
        Path file = dir.resolve("refused.csv");
        DelimitedFileItemWriter<Order> writer = orders(file).build();
        writer.open(Optional.empty());
        IllegalArgumentException lineBreak = assertThrows(IllegalArgumentException.class,
                () -> writer.write(List.of(new Order(1, "a", "x"), new Order(2, "two\nlines", "y"))));
        assertEquals("cannot write item 2 of the chunk to " + file + ": field 2 contains a line break, which a record"
                + " of a delimited file cannot hold", lineBreak.getMessage());
        DelimitedFileItemWriter<Order> twoFields = DelimitedFileItemWriter.<Order> builder().path(file)
                .header("id", "customer", "note").extractor(order -> List.of(order.id(), order.customer())).build();
        twoFields.open(Optional.empty());
        IllegalArgumentException fieldCount = assertThrows(IllegalArgumentException.class,
                () -> twoFields.write(List.of(new Order(1, "a", "x"))));
        assertEquals("cannot write item 1 of the chunk to " + file + ": it has 2 fields, the header "
                + "[id, customer, note] has 3", fieldCount.getMessage());
        twoFields.close();
        assertEquals("id,customer,note\n", Files.readString(file));
    }

    @Test
    void refusesCharactersTheCharsetCannotEncodeInsteadOfWritingQuestionMarks() throws Exception {
        Path file = dir.resolve("latin1.csv");
        DelimitedFileItemWriter<Order> writer = orders(file)
                .format(DelimitedFormat.CSV.withCharset(StandardCharsets.ISO_8859_1)).build();
        writer.open(Optional.empty());
        long before = Files.size(file);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> writer.write(List.of(new Order(1, "日本", "x"))));
        assertTrue(e.getMessage().contains("ISO-8859-1 cannot encode"), e.getMessage());
        assertEquals(before, Files.size(file));
        writer.close();
    }

    @Test
    void refusesACheckpointBeyondTheEndOfTheFile() throws Exception {
        Path file = dir.resolve("short.csv");
        DelimitedFileItemWriter<Order> writer = orders(file).build();
        writer.open(Optional.empty());
        writer.write(List.of(new Order(1, "a", "x")));
        Checkpoint checkpoint = writer.checkpoint();
        writer.close();
        Files.writeString(file, "id\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> orders(file).build().open(Optional.of(checkpoint)));
        assertTrue(e.getMessage().contains("has 3 bytes, fewer than the 23 written: was the file modified?"),
                e.getMessage());
    }

    @Test
    void builderRefusalsNameTheField() {
        assertEquals("extractor must not be null", assertThrows(IllegalArgumentException.class,
                () -> DelimitedFileItemWriter.<Order> builder().path(dir.resolve("x")).build()).getMessage());
        assertEquals("lineSeparator must be \"\\n\" or \"\\r\\n\", got '\\r'", assertThrows(
                IllegalArgumentException.class, () -> DelimitedFileItemWriter.<Order> builder().lineSeparator("\r"))
                .getMessage());
    }

    private static Checkpoint checkpointAfterReopen(Path file, Checkpoint checkpoint) throws Exception {
        DelimitedFileItemWriter<Order> writer = orders(file).build();
        writer.open(Optional.of(checkpoint));
        Checkpoint reopened = writer.checkpoint();
        writer.close();
        return reopened;
    }

    private static DelimitedFileItemWriter.Builder<Order> orders(Path file) {
        return DelimitedFileItemWriter.<Order> builder().path(file).header("id", "customer", "note")
                .extractor(order -> List.of(order.id(), order.customer(), order.note()));
    }
}
