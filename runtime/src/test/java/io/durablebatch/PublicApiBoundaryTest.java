package io.durablebatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The public API stands alone: users compile against {@code io.durablebatch.*}, so no public source
 * may name the internals ({@code io.durablebatch.runtime.*}), not even in a fully qualified name.
 */
class PublicApiBoundaryTest {

    private static final Path SOURCES = Path.of("src/main/java/io/durablebatch");

    @Test
    void noPublicSourceNamesTheInternals() throws IOException {
        List<Path> publicSources;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            publicSources = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> !SOURCES.relativize(file).startsWith("runtime")).toList();
        }
        assertTrue(publicSources.size() > 100, "found the public sources: " + publicSources.size());
        List<Path> offending = publicSources.stream().filter(PublicApiBoundaryTest::namesInternals).toList();
        assertEquals(List.of(), offending);
    }

    private static boolean namesInternals(Path source) {
        try {
            return Files.readString(source).contains("io.durablebatch.runtime");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
