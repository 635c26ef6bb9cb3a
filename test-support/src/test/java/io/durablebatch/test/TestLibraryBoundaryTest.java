package io.durablebatch.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The test library is written against the public API: users' tests compile against it, so no source
 * may name the extension's internals ({@code io.durablebatch.runtime.*}) but the one seam kept for it,
 * {@code io.durablebatch.runtime.testing}, which is internal so that it is no part of the API an
 * application compiles against.
 */
class TestLibraryBoundaryTest {

    private static final Pattern INTERNALS = Pattern.compile("io\\.durablebatch\\.runtime(?!\\.testing\\b)");

    @Test
    void noSourceNamesTheInternals() throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            sources = files.filter(file -> file.toString().endsWith(".java")).toList();
        }
        assertTrue(sources.size() >= 4, "found the sources: " + sources);
        assertEquals(List.of(), sources.stream().filter(TestLibraryBoundaryTest::namesInternals).toList());
        assertTrue(namesInternals("import io.durablebatch.runtime.job.JobRegistry;"), "an internal is found");
        assertTrue(!namesInternals("import io.durablebatch.runtime.testing.TestHooks;"), "the seam is allowed");
    }

    private static boolean namesInternals(Path source) {
        return namesInternals(read(source));
    }

    private static boolean namesInternals(String source) {
        return INTERNALS.matcher(source).find();
    }

    private static String read(Path source) {
        try {
            return Files.readString(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
