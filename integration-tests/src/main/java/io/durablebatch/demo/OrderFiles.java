package io.durablebatch.demo;

import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates the demo's input: {@code orders} orders of one day split over {@code files} CSV files
 * ({@code orders-000.csv}, ...), the same bytes for the same arguments. Each file is written under
 * a temporary name and moved into place, so a crash never leaves a half-written input behind.
 */
public final class OrderFiles {

    static final String HEADER = "id,customer,amount,placed_on";

    private OrderFiles() {
    }

    /** The files of a day's input, generating those that do not exist yet. */
    public static List<Path> ensure(Path directory, LocalDate day, long orders, int files) throws IOException {
        Files.createDirectories(directory);
        List<Path> paths = new ArrayList<>(files);
        long perFile = (orders + files - 1) / files;
        for (int file = 0; file < files; file++) {
            Path path = directory.resolve(String.format("orders-%s-%03d.csv", day, file));
            long first = file * perFile;
            long end = Math.min(orders, first + perFile);
            if (!Files.exists(path)) {
                write(path, day, first, end);
            }
            paths.add(path);
        }
        return paths;
    }

    private static void write(Path path, LocalDate day, long first, long end) throws IOException {
        Path partial = path.resolveSibling(path.getFileName() + ".partial");
        try (BufferedWriter out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
            out.write(HEADER);
            out.write('\n');
            StringBuilder line = new StringBuilder(64);
            for (long id = first; id < end; id++) {
                SplittableRandom random = new SplittableRandom(id * 0x9E3779B97F4A7C15L);
                line.setLength(0);
                line.append(id + 1).append(",customer-").append(random.nextInt(50_000)).append(',')
                        .append(BigDecimal.valueOf(random.nextLong(100, 1_000_000), 2)).append(',').append(day)
                        .append('\n');
                out.append(line);
            }
        }
        Files.move(partial, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
