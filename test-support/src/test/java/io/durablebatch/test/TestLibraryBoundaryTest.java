package io.durablebatch.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The test library is written against the public API only: users' tests compile against it, so no
 * source may name the extension's internals ({@code io.durablebatch.runtime.*}); it reaches the
 * kernel through {@code io.durablebatch.job.spi.TestHooks}.
 */
class TestLibraryBoundaryTest {

    @Test
    void noSourceNamesTheInternals() throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            sources = files.filter(file -> file.toString().endsWith(".java")).toList();
        }
        assertTrue(sources.size() >= 4, "found the sources: " + sources);
        assertEquals(List.of(), sources.stream().filter(source -> read(source).contains("io.durablebatch.runtime")).toList());
    }

    private static String read(Path source) {
        try {
            return Files.readString(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
