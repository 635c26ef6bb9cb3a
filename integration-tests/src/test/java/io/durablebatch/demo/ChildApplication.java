package io.durablebatch.demo;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

/**
 * The packaged demo application running in a child JVM, so a test can kill it like a crash
 * (SIGKILL), stop it like an orchestrator (SIGTERM) or freeze it like a long GC pause or a suspended
 * VM (SIGSTOP, then SIGCONT), then start another one on the same database.
 */
final class ChildApplication implements AutoCloseable {

    static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");

    /**
     * How long a child may take to get ready: a start takes a few seconds, but a minute where the
     * machine is shared with other builds ({@code -Dtorture.ready-timeout=300}, in seconds).
     */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(Long.getLong("torture.ready-timeout", 180));

    /** The password of the packaged demo's admin, demo (DEMO_PASSWORD; the build sets demo.it.password). */
    static final String PASSWORD = System.getProperty("demo.it.password", "integration-tests-only");

    private final String name;
    private final Process process;
    private final Path log;
    private final int port;

    private ChildApplication(String name, Process process, Path log, int port) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts the application and waits until it is ready. {@code properties} are system properties
     * of the child; they override the defaults here (the shared test database, the input directory,
     * DEBUG logging of the kernel), the datasource URL included. The log is {@code target/<name>.log};
     * {@code name} may contain a directory.
     */
    static ChildApplication start(String name, int port, Map<String, String> properties) throws Exception {
        if (!Files.exists(JAR)) {
            throw new IllegalStateException(JAR + " is missing: the integration tests run after the package phase");
        }
        Path log = Path.of("target", name + ".log");
        Process process = launch(port, properties, log);
        ChildApplication child = new ChildApplication(name, process, log, port);
        child.awaitReady();
        return child;
    }

    /**
     * Runs the application as an init task ({@code quarkus.init-and-exit}, what a Kubernetes init Job
     * of the deployment does): it initializes, exits by itself, and this returns its exit code.
     */
    static int runInitTask(String name, Map<String, String> properties, Duration timeout) throws Exception {
        Map<String, String> task = new LinkedHashMap<>(properties);
        task.putIfAbsent("quarkus.init-and-exit", "true");
        Path log = Path.of("target", name + ".log");
        Process process = launch(0, task, log);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the init task did not exit within " + timeout + ":\n" + Files.readString(log));
        }
        return process.exitValue();
    }

    private static Process launch(int port, Map<String, String> properties, Path log) throws IOException {
        Map<String, String> effective = new LinkedHashMap<>();
        effective.put("quarkus.http.port", Integer.toString(port));
        effective.put("quarkus.datasource.jdbc.url", System.getProperty("it.db.url"));
        effective.put("quarkus.datasource.username", System.getProperty("it.db.username", "postgres"));
        effective.put("quarkus.datasource.password", System.getProperty("it.db.password", "postgres"));
        effective.put("demo.input-directory", "target/it-input");
        effective.put("DEMO_PASSWORD", PASSWORD);
        effective.put("quarkus.log.category.\"io.durablebatch.runtime.job\".level", "DEBUG");
        effective.putAll(properties);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        effective.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-jar", JAR.toString()));
        Files.createDirectories(log.getParent());
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** A TCP port nothing listens on right now, for a child's HTTP server. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    String name() {
        return name;
    }

    /** A request to this application by its admin, demo. */
    RequestSpecification given() {
        return RestAssured.given().baseUri(baseUri()).auth().preemptive().basic("demo", PASSWORD);
    }

    String baseUri() {
        return "http://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    private void awaitReady() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
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

    /**
     * SIGSTOP: every thread of the process freezes where it is, its connections and open transactions
     * stay open, as in a long GC pause or a suspended VM. {@link #resume()} wakes it up.
     */
    void suspend() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT: a {@linkplain #suspend() suspended} process carries on where it stopped. */
    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).redirectErrorStream(true).start();
        String output = new String(kill.getInputStream().readAllBytes());
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid() + " failed: " + output);
        }
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() throws InterruptedException {
        // SIGKILL ends a suspended process as well
        if (process.isAlive()) {
            kill();
        }
    }
}
