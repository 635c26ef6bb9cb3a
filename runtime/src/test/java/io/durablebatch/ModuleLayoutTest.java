package io.durablebatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every published module keeps the layout {@code architecture.adoc} decides: its public types under
 * {@code io.durablebatch.<module>}, its internals under {@code io.durablebatch.<module>.runtime} and
 * {@code .deployment} (the core's are {@code io.durablebatch.runtime} and {@code .deployment}), and
 * the core's public API in the packages that page lists, so that a reader can guess where a type is.
 * A type in any other package, a public source that names an internal package of any module, or a
 * runtime source that names a deployment package fails here.
 */
class ModuleLayoutTest {

    private static final Path ROOT = Path.of("..");

    /** The core's public packages: a new one is a decision, taken here and on the architecture page. */
    static final Set<String> CORE_PUBLIC = Set.of("io.durablebatch", "io.durablebatch.execution", "io.durablebatch.job",
            "io.durablebatch.context", "io.durablebatch.operator", "io.durablebatch.listener", "io.durablebatch.item",
            "io.durablebatch.item.file", "io.durablebatch.item.jdbc", "io.durablebatch.item.jpa",
            "io.durablebatch.item.support", "io.durablebatch.repository", "io.durablebatch.repository.spi",
            "io.durablebatch.repository.control", "io.durablebatch.repository.flow",
            "io.durablebatch.repository.partition", "io.durablebatch.repository.retention", "io.durablebatch.schedule");

    /** Each published module: its directory, its public root (null: none), its internal root. */
    record Module(String directory, String publicRoot, String internalRoot) {
    }

    static final List<Module> MODULES = List.of(
            new Module("runtime", "io.durablebatch", "io.durablebatch.runtime"),
            // the core's dev-mode half (Dev UI's JSON-RPC), as core Quarkus extensions keep theirs
            new Module("runtime-dev", null, "io.durablebatch.runtime.dev"),
            new Module("deployment", null, "io.durablebatch.deployment"),
            new Module("rest/runtime", "io.durablebatch.rest", "io.durablebatch.rest.runtime"),
            new Module("rest/deployment", null, "io.durablebatch.rest.deployment"),
            new Module("jakarta-batch/runtime", "io.durablebatch.jakarta", "io.durablebatch.jakarta.runtime"),
            new Module("jakarta-batch/deployment", null, "io.durablebatch.jakarta.deployment"),
            // the test library reaches the kernel through one internal seam, io.durablebatch.runtime.testing
            new Module("test-support", "io.durablebatch.test", null));

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern INTERNAL = Pattern.compile(
            "io\\.durablebatch(?:\\.\\w+)*?\\.(?:runtime|deployment)\\b(?:\\.testing\\b)?");
    private static final Pattern DEPLOYMENT = Pattern.compile("io\\.durablebatch(?:\\.\\w+)*?\\.deployment\\b");

    @Test
    void everyTypeIsInItsModulesPackages() {
        List<String> misplaced = new ArrayList<>();
        for (Module module : MODULES) {
            for (Path source : sources(module)) {
                String pkg = packageOf(source);
                if (!allowed(module, pkg)) {
                    misplaced.add(module.directory() + ": " + pkg + " (" + source.getFileName() + ")");
                }
            }
        }
        assertEquals(List.of(), misplaced);
    }

    @Test
    void noPublicSourceNamesAnInternalPackage() {
        List<String> offending = new ArrayList<>();
        for (Module module : MODULES) {
            for (Path source : sources(module)) {
                if (!isInternal(module, packageOf(source))) {
                    internalsNamed(read(source)).forEach(name -> offending.add(source.getFileName() + " -> " + name));
                }
            }
        }
        assertEquals(List.of(), offending);
    }

    @Test
    void noRuntimeSourceNamesADeploymentPackage() {
        List<String> offending = new ArrayList<>();
        for (Module module : MODULES) {
            if (module.directory().endsWith("deployment")) {
                continue;
            }
            for (Path source : sources(module)) {
                Matcher deployment = DEPLOYMENT.matcher(read(source));
                while (deployment.find()) {
                    offending.add(source.getFileName() + " -> " + deployment.group());
                }
            }
        }
        assertEquals(List.of(), offending);
    }

    /** The architecture page lists the core's public packages, all of them and only them. */
    @Test
    void theArchitecturePageListsThePublicPackages() {
        String page = read(ROOT.resolve("docs/modules/ROOT/pages/architecture.adoc"));
        Set<String> listed = new TreeSet<>();
        Matcher row = Pattern.compile("^\\| `(io\\.durablebatch[\\w.]*)`", Pattern.MULTILINE).matcher(page);
        while (row.find()) {
            listed.add(row.group(1));
        }
        assertEquals(new TreeSet<>(CORE_PUBLIC), listed);
    }

    @Test
    void theRulesFindWhatTheyLookFor() {
        Module core = MODULES.get(0);
        assertTrue(allowed(core, "io.durablebatch.operator"));
        assertFalse(allowed(core, "io.durablebatch.util"), "a package the layout does not have");
        assertFalse(allowed(MODULES.get(3), "io.durablebatch.runtime.rest"), "a module under the core's root");
        assertEquals(List.of("io.durablebatch.runtime", "io.durablebatch.jakarta.runtime"),
                internalsNamed("import io.durablebatch.runtime.job.X; import io.durablebatch.jakarta.runtime.Y;"));
        assertEquals(List.of(), internalsNamed("import io.durablebatch.runtime.testing.TestHooks;"));
        for (Module module : MODULES) {
            assertFalse(sources(module).isEmpty(), "found the sources of " + module.directory());
        }
    }

    private static boolean allowed(Module module, String pkg) {
        if (isInternal(module, pkg)) {
            return true;
        }
        if (module.publicRoot() == null) {
            return false;
        }
        return module.directory().equals("runtime") ? CORE_PUBLIC.contains(pkg) : within(pkg, module.publicRoot());
    }

    private static boolean isInternal(Module module, String pkg) {
        return module.internalRoot() != null && within(pkg, module.internalRoot());
    }

    private static boolean within(String pkg, String root) {
        return pkg.equals(root) || pkg.startsWith(root + ".");
    }

    /** The internal packages a public source names; the test library's seam is the one exception. */
    static List<String> internalsNamed(String source) {
        return INTERNAL.matcher(source).results().map(match -> match.group())
                .filter(name -> !name.endsWith(".testing")).toList();
    }

    private static List<Path> sources(Module module) {
        Path main = ROOT.resolve(module.directory()).resolve("src/main/java");
        try (Stream<Path> files = Files.walk(main)) {
            return files.filter(file -> file.toString().endsWith(".java")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String packageOf(Path source) {
        Matcher pkg = PACKAGE.matcher(read(source));
        return pkg.find() ? pkg.group(1) : "";
    }

    private static String read(Path source) {
        try {
            return Files.readString(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
