package io.durablebatch.item.file;

import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Measures the read rate of {@link DelimitedFileItemReader} on a generated CSV of 1,000,000 orders
 * (quoted fields and multibyte text included), mapping each record to a typed item. Not a test:
 * run it by hand (see the readers-and-writers docs page); the file lives in a temporary directory
 * and is deleted afterwards.
 */
public final class DelimitedFileReadMeasurement {

    record Order(long id, String customer, BigDecimal amount, String note) {
    }

    private static final int LINES = 1_000_000;
    private static final int RUNS = 5;

    private DelimitedFileReadMeasurement() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("durable-batch-csv");
        Path file = dir.resolve("orders.csv");
        try {
            generate(file);
            System.out.printf("file: %,d lines, %,d bytes%n", LINES, Files.size(file));
            long best = Long.MAX_VALUE;
            for (int run = 0; run <= RUNS; run++) {
                long started = System.nanoTime();
                long read = readAll(file);
                long elapsed = System.nanoTime() - started;
                if (read != LINES) {
                    throw new IllegalStateException("read " + read + " records, expected " + LINES);
                }
                // run 0 warms the JIT up
                if (run > 0) {
                    best = Math.min(best, elapsed);
                }
                System.out.printf("run %d: %.0f ms, %,.0f lines/s%n", run, elapsed / 1e6, LINES / (elapsed / 1e9));
            }
            System.out.printf("best of %d: %,.0f lines/s, %.0f MB/s%n", RUNS, LINES / (best / 1e9),
                    Files.size(file) / (best / 1e9) / 1e6);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    private static long readAll(Path file) throws Exception {
        DelimitedFileItemReader<Order> reader = DelimitedFileItemReader.<Order> builder()
                .path(file).header(true)
                .mapper(fields -> new Order(fields.getLong("id"), fields.get("customer"),
                        fields.getDecimal("amount"), fields.get("note")))
                .build();
        reader.open(Optional.empty());
        long count = 0;
        while (reader.read() != null) {
            count++;
        }
        reader.close();
        return count;
    }

    private static void generate(Path file) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("id,customer,amount,note\n");
            for (int i = 1; i <= LINES; i++) {
                out.write(Integer.toString(i));
                out.write(i % 4 == 0 ? ",\"Müller, Zoë\"," : ",customer-" + (i % 9973) + ",");
                out.write((i % 100_000) + "." + (i % 100 < 10 ? "0" : "") + (i % 100));
                out.write(i % 10 == 0 ? ",\"said \"\"ok\"\"\"\n" : ",standard delivery\n");
            }
        }
    }
}
