package io.durablebatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The public API stands alone: users compile against {@code io.durablebatch.*}, so no public source
 * may name the internals ({@code io.durablebatch.runtime.*}), not even in a fully qualified name; and
 * the vocabulary ({@code io.durablebatch.execution}) every other package speaks depends on none of them.
 */
class PublicApiBoundaryTest {

    private static final Path SOURCES = Path.of("src/main/java/io/durablebatch");
    private static final Pattern OTHER_PACKAGE = Pattern.compile("io\\.durablebatch\\.\\w+");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public\\s+(?:(?:final|abstract|sealed|non-sealed)\\s+)*(?:class|interface|record|enum|@interface)\\s",
            Pattern.MULTILINE);
    private static final Pattern ANNOTATIONS_AT_END = Pattern.compile("(?:\\s*@[\\w.]+(?:\\([^)]*\\))?)+\\s*$");

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

    @Test
    void theVocabularyNamesNoOtherPackage() throws IOException {
        List<Path> vocabulary;
        try (Stream<Path> files = Files.list(SOURCES.resolve("execution"))) {
            vocabulary = files.filter(file -> file.toString().endsWith(".java")).toList();
        }
        assertTrue(vocabulary.size() > 20, "found the vocabulary: " + vocabulary.size());
        List<String> offending = vocabulary.stream()
                .flatMap(source -> otherPackagesNamed(source).map(name -> source.getFileName() + " -> " + name))
                .toList();
        assertEquals(List.of(), offending);
    }

    /** The published javadoc documents every public type: none may go without its doc comment. */
    @Test
    void everyPublicTypeHasADocComment() throws IOException {
        List<Path> publicSources;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            publicSources = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> !SOURCES.relativize(file).startsWith("runtime")).toList();
        }
        List<Path> undocumented = publicSources.stream().filter(source -> !documented(read(source))).toList();
        assertEquals(List.of(), undocumented);
        assertTrue(!documented("package p;\n\npublic final class Bare {\n}\n"), "a bare type is found");
    }

    /** Whether the source's public top-level type is preceded (its annotations aside) by a doc comment. */
    static boolean documented(String source) {
        Matcher type = PUBLIC_TYPE.matcher(source);
        if (!type.find()) {
            return true;
        }
        String before = ANNOTATIONS_AT_END.matcher(source.substring(0, type.start())).replaceAll("").stripTrailing();
        int comment = before.lastIndexOf("/**");
        // a doc comment right after the last package or import statement
        return before.endsWith("*/") && comment >= 0 && before.substring(0, comment).stripTrailing().endsWith(";");
    }

    private static boolean namesInternals(Path source) {
        return read(source).contains("io.durablebatch.runtime");
    }

    /** Every Durable Batch package a vocabulary source names, other than its own and {@code Checks}. */
    private static Stream<String> otherPackagesNamed(Path source) {
        return OTHER_PACKAGE.matcher(read(source)).results().map(MatchResult::group)
                .filter(name -> !name.equals("io.durablebatch.execution") && !name.equals("io.durablebatch.Checks"));
    }

    private static String read(Path source) {
        try {
            return Files.readString(source);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
