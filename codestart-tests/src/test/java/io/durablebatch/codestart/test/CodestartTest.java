package io.durablebatch.codestart.test;

import static io.quarkus.devtools.codestarts.quarkus.QuarkusCodestartCatalog.Language.JAVA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.devtools.testing.codestarts.QuarkusCodestartTest;

/**
 * Creating an application with the core extension gives it the codestart's job and test: the
 * generated sources are the codestart's (which this module compiles and whose test it runs, on
 * PostgreSQL, against this build), in the application's package, and they compile against this
 * build's artifacts; the generated project depends on this build's version of the extension.
 * <p>
 * The Quarkus tools resolve the extension (its descriptor, with the codestart's name) and its
 * codestarts jar from the local Maven repository, not from the reactor: the build runs it as
 * {@code ./mvnw install}, which installs the runtime before this module's tests. With {@code verify}
 * alone they would read whatever snapshot is installed. {@code -Dcodestart.build=true} also builds
 * the generated project with its own Maven wrapper, as a user would.
 */
class CodestartTest {

    private static final Path CODESTART = Path.of(System.getProperty("codestart.dir",
            "../runtime/src/main/codestarts/quarkus/durable-batch-codestart"));

    @RegisterExtension
    static final QuarkusCodestartTest CODESTARTS = QuarkusCodestartTest.builder().languages(JAVA)
            .setupStandaloneExtensionTest("io.durablebatch:quarkus-durable-batch").build();

    @Test
    void theGeneratedJobAndTestAreTheCodestartsInTheApplicationsPackage() throws Throwable {
        Path project = CODESTARTS.getProjectWithRealDataDir(JAVA);
        assertEquals(repackaged("java/src/main/java/org/acme/GreetingJob.java"),
                Files.readString(project.resolve(path("src/main/java/", "org.acme.GreetingJob"))));
        assertEquals(repackaged("java/src/test/java/org/acme/GreetingJobTest.java"),
                Files.readString(project.resolve(path("src/test/java/", "org.acme.GreetingJobTest"))));
        String properties = Files.readString(project.resolve("src/main/resources/application.properties"));
        assertTrue(properties.contains("quarkus.datasource.db-kind=postgresql"), properties);
        String pom = Files.readString(project.resolve("pom.xml"));
        assertTrue(pom.contains("<artifactId>quarkus-durable-batch</artifactId>"), pom);
        assertTrue(pom.contains(System.getProperty("project.version", "999-SNAPSHOT")), "this build's version: " + pom);
    }

    @Test
    void theGeneratedSourcesCompileAgainstThisBuild() throws Throwable {
        Path project = CODESTARTS.getProjectWithRealDataDir(JAVA);
        List<String> arguments = new ArrayList<>(List.of("-d", Files.createTempDirectory("codestart-classes").toString(),
                "--release", "17", "-proc:none", "-classpath", System.getProperty("surefire.test.class.path",
                        System.getProperty("java.class.path"))));
        arguments.addAll(sources(project.resolve("src/main/java")));
        arguments.addAll(sources(project.resolve("src/test/java")));
        assertTrue(arguments.stream().anyMatch(a -> a.endsWith("GreetingJobTest.java")), arguments.toString());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = javac.run(null, errors, errors, arguments.toArray(String[]::new));
        assertEquals(0, status, errors.toString(StandardCharsets.UTF_8));
    }

    @Test
    @EnabledIfSystemProperty(named = "codestart.build", matches = "true")
    void theGeneratedProjectBuildsAndItsTestPasses() throws Throwable {
        CODESTARTS.buildAllProjects();
    }

    /** The codestart's file as it is generated: in the application's package instead of org.acme. */
    private static String repackaged(String file) throws IOException {
        String packageName = CODESTARTS.repackagedClassName("org.acme.X");
        packageName = packageName.substring(0, packageName.length() - 2);
        return Files.readString(CODESTART.resolve(file)).replace("package org.acme;", "package " + packageName + ";");
    }

    private static String path(String root, String className) {
        return root + CODESTARTS.repackagedClassName(className).replace('.', '/') + ".java";
    }

    private static List<String> sources(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(file -> file.toString().endsWith(".java")).map(Path::toString).toList();
        }
    }
}
