package io.durablebatch.codestart.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/**
 * Every extension of the build (a module whose pom runs the {@code extension-descriptor} goal) has a
 * {@code quarkus-extension.yaml} in its sources, and its built descriptor, the one the Quarkus tools
 * read, is complete: name, description, keywords, a guide that is a page of these docs (one URL form
 * for all), categories, a status, and config prefixes of its own {@code @ConfigMapping}s.
 */
class ExtensionDescriptorsTest {

    /** The form of every guide URL: the published docs site, then the page, as the docs module names it. */
    static final String GUIDE = "https://docs.durablebatch.io/quarkus-durable-batch/dev/";

    private static final Path ROOT = Path.of(System.getProperty("repository.root", "..")).toAbsolutePath().normalize();

    private static final Set<String> STATUSES = Set.of("experimental", "preview", "stable", "deprecated");

    private static final Pattern CONFIG_MAPPING = Pattern.compile("@ConfigMapping\\(prefix = \"([^\"]+)\"");

    @Test
    void everyExtensionHasACompleteDescriptor() throws IOException {
        List<Path> extensions = extensions();
        assertTrue(extensions.size() >= 3, "extensions found under " + ROOT + ": " + extensions);
        for (Path module : extensions) {
            String where = ROOT.relativize(module).toString();
            assertTrue(Files.isRegularFile(module.resolve("src/main/resources/META-INF/quarkus-extension.yaml")),
                    where + " has no src/main/resources/META-INF/quarkus-extension.yaml");
            Path built = module.resolve("target/classes/META-INF/quarkus-extension.yaml");
            if (!Files.isRegularFile(built)) {
                fail(where + " has no built descriptor: build the module first (" + built + ")");
            }
            JsonNode descriptor = new YAMLMapper().readTree(built.toFile());
            text(descriptor, "name", where);
            text(descriptor, "description", where);
            text(descriptor, "artifact", where);
            JsonNode metadata = descriptor.path("metadata");
            list(metadata, "keywords", where);
            list(metadata, "categories", where);
            assertTrue(STATUSES.contains(metadata.path("status").asText()), where + ": status " + metadata.path("status"));
            String guide = text(metadata, "guide", where);
            assertTrue(guide.startsWith(GUIDE) && guide.endsWith(".html"), where + ": the guide is not of the form "
                    + GUIDE + "<page>.html: " + guide);
            String page = guide.substring(GUIDE.length(), guide.length() - ".html".length()) + ".adoc";
            assertTrue(Files.isRegularFile(ROOT.resolve("docs/modules/ROOT/pages").resolve(page)),
                    where + ": the guide names no page of the docs: " + guide);
            List<String> mappings = configMappings(module);
            for (String prefix : list(metadata, "config", where)) {
                assertTrue(prefix.startsWith("quarkus.durable-batch.") && prefix.endsWith("."), where + ": " + prefix);
                assertTrue(mappings.stream().anyMatch(mapping -> (mapping + ".").startsWith(prefix)),
                        where + ": config " + prefix + " is the prefix of none of its @ConfigMappings " + mappings);
            }
        }
    }

    @Test
    void theCoreExtensionNamesItsCodestart() throws IOException {
        JsonNode codestart = new YAMLMapper().readTree(ROOT.resolve("runtime/target/classes/META-INF/quarkus-extension.yaml")
                .toFile()).path("metadata").path("codestart");
        String name = text(codestart, "name", "runtime");
        assertEquals(List.of("java"), list(codestart, "languages", "runtime"));
        assertFalse(text(codestart, "artifact", "runtime").contains("${"), "the built descriptor has the version");
        assertTrue(
                Files.isRegularFile(ROOT.resolve("runtime/src/main/codestarts/quarkus/" + name + "-codestart/codestart.yml")),
                "codestart " + name);
    }

    /** The modules whose pom builds an extension descriptor, wherever they are. */
    private static List<Path> extensions() throws IOException {
        try (Stream<Path> poms = Files.walk(ROOT, 4)) {
            List<Path> modules = new ArrayList<>();
            for (Path pom : poms.filter(p -> p.getFileName().toString().equals("pom.xml"))
                    .filter(ExtensionDescriptorsTest::isSource).toList()) {
                if (Files.readString(pom).contains("<goal>extension-descriptor</goal>")) {
                    modules.add(pom.getParent());
                }
            }
            return modules;
        }
    }

    /** Not in a build's output or a hidden directory (a provisioned Maven, a generated project). */
    private static boolean isSource(Path pom) {
        for (Path name : ROOT.relativize(pom.getParent())) {
            if (name.toString().startsWith(".") || name.toString().equals("target")) {
                return false;
            }
        }
        return true;
    }

    private static List<String> configMappings(Path module) throws IOException {
        try (Stream<Path> sources = Files.walk(module.resolve("src/main/java"))) {
            List<String> prefixes = new ArrayList<>();
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher matcher = CONFIG_MAPPING.matcher(Files.readString(source));
                while (matcher.find()) {
                    prefixes.add(matcher.group(1));
                }
            }
            return prefixes;
        }
    }

    private static String text(JsonNode node, String field, String where) {
        String value = node.path(field).asText("");
        assertFalse(value.isBlank(), where + ": " + field + " is missing");
        return value;
    }

    private static List<String> list(JsonNode node, String field, String where) {
        List<String> values = new ArrayList<>();
        node.path(field).forEach(value -> values.add(value.asText()));
        assertFalse(values.isEmpty(), where + ": " + field + " is missing");
        return values;
    }
}
