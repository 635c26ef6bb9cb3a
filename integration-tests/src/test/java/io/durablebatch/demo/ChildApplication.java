package io.durablebatch.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged demo application running in a child JVM, so a test can kill it like a crash
 * (SIGKILL) or stop it like an orchestrator (SIGTERM), then start another one on the same database.
 */
final class ChildApplication implements AutoCloseable {

    static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");

    private final Process process;
    private final Path log;
    private final int port;

    private ChildApplication(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    static ChildApplication start(String name, int port, Map<String, String> properties) throws Exception {
        if (!Files.exists(JAR)) {
            throw new IllegalStateException(JAR + " is missing: the integration tests run after the package phase");
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.datasource.jdbc.url=" + System.getProperty("it.db.url"),
                "-Dquarkus.datasource.username=" + System.getProperty("it.db.username", "postgres"),
                "-Dquarkus.datasource.password=" + System.getProperty("it.db.password", "postgres"),
                "-Ddemo.input-directory=target/it-input",
                "-Dquarkus.log.category.\"io.durablebatch.runtime.job\".level=DEBUG"));
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-jar", JAR.toString()));
        Path log = Path.of("target", name + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ChildApplication child = new ChildApplication(process, log, port);
        child.awaitReady();
        return child;
    }

    String baseUri() {
        return "http://127.0.0.1:" + port;
    }

    private void awaitReady() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the child application died at startup:\n" + log());
            }
            try {
                HttpResponse<Void> response = client.send(HttpRequest.newBuilder(URI.create(baseUri() + "/q/health/ready"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the child application did not get ready:\n" + log());
    }

    /** SIGKILL: the process dies at once, in the middle of whatever it was doing. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM: the application shuts down gracefully; waits for it to exit and returns its exit code. */
    int terminate(Duration timeout) throws InterruptedException, IOException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the child application did not exit within " + timeout + ":\n" + log());
        }
        return process.exitValue();
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
