package io.durablebatch.deployment.devservices;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.durablebatch.deployment.devservices.DurableBatchDevServicesConfig.Binaries;

/** The {@code bin} directory of the PostgreSQL a local server runs, and its version. */
record PostgresBinaries(Path bin, String version) {

    /** Installation directories, by the version in their path where there is one. */
    private static final List<String> VERSIONED = List.of("/usr/lib/postgresql/*/bin", "/usr/pgsql-*/bin",
            "/opt/homebrew/opt/postgresql@*/bin", "/usr/local/opt/postgresql@*/bin",
            "/Applications/Postgres.app/Contents/Versions/*/bin");
    private static final List<String> UNVERSIONED = List.of("/usr/local/pgsql/bin", "/opt/homebrew/bin", "/usr/local/bin");
    private static final Pattern VERSION = Pattern.compile("(\\d+)(?:\\.(\\d+))?");

    Path initdb() {
        return bin.resolve("initdb");
    }

    Path postgres() {
        return bin.resolve("postgres");
    }

    /** The binaries the settings ask for: the configured path, an installed PostgreSQL or the embedded one. */
    static PostgresBinaries locate(LocalPostgres.Settings settings) {
        if (settings.path().isPresent()) {
            Path bin = settings.path().get();
            if (!holdsServer(bin)) {
                throw new IllegalStateException("quarkus.durable-batch.devservices.local.path=" + bin
                        + " holds no initdb and postgres executables");
            }
            return of(bin);
        }
        if (settings.binaries() != Binaries.EMBEDDED) {
            Optional<Path> installed = installed();
            if (installed.isPresent()) {
                return of(installed.get());
            }
            if (settings.binaries() == Binaries.INSTALLED) {
                throw new IllegalStateException("No PostgreSQL installation found for the local server of datasource "
                        + settings.dataSource() + " (looked on the PATH and in " + VERSIONED + " and " + UNVERSIONED
                        + "); set quarkus.durable-batch.devservices.local.path or local.binaries=embedded");
            }
        }
        return of(EmbeddedBinaries.unpack(settings.embeddedVersion()));
    }

    /** The newest installed PostgreSQL: the one {@code pg_config} or the PATH names first, else the newest version found. */
    static Optional<Path> installed() {
        Set<Path> candidates = new LinkedHashSet<>();
        output(List.of("pg_config", "--bindir")).map(Path::of).ifPresent(candidates::add);
        for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                candidates.add(Path.of(entry));
            }
        }
        List<Path> versioned = new ArrayList<>();
        for (String pattern : VERSIONED) {
            versioned.addAll(glob(pattern));
        }
        versioned.sort(Comparator.comparing(PostgresBinaries::versionOf).reversed());
        candidates.addAll(versioned);
        UNVERSIONED.forEach(directory -> candidates.add(Path.of(directory)));
        return candidates.stream().filter(PostgresBinaries::holdsServer).findFirst();
    }

    private static PostgresBinaries of(Path bin) {
        return new PostgresBinaries(bin, output(List.of(bin.resolve("postgres").toString(), "--version"))
                .map(version -> version.replace("postgres (PostgreSQL) ", "PostgreSQL ")).orElse("PostgreSQL"));
    }

    /** Whether {@code bin} holds the executables of a server: {@code initdb} and {@code postgres}. */
    static boolean holdsServer(Path bin) {
        return executable(bin.resolve("initdb")) && executable(bin.resolve("postgres"));
    }

    private static boolean executable(Path file) {
        return Files.isRegularFile(file) && Files.isExecutable(file);
    }

    private static List<Path> glob(String pattern) {
        Path parent = Path.of(pattern.substring(0, pattern.indexOf('*'))).getParent();
        String rest = pattern.substring(parent.toString().length() + 1);
        String child = rest.substring(0, rest.indexOf('/'));
        String below = rest.substring(rest.indexOf('/') + 1);
        List<Path> found = new ArrayList<>();
        if (Files.isDirectory(parent)) {
            try (DirectoryStream<Path> children = Files.newDirectoryStream(parent, child)) {
                children.forEach(directory -> found.add(directory.resolve(below)));
            } catch (IOException e) {
                // an unreadable directory holds no candidate
            }
        }
        return found;
    }

    /** The version in a path (17, 16.10) as one number, 0 where there is none: 17 sorts above 9.6, 16.10 above 16.4. */
    private static long versionOf(Path bin) {
        Matcher matcher = VERSION.matcher(bin.toString());
        if (!matcher.find()) {
            return 0;
        }
        return Long.parseLong(matcher.group(1)) * 1000 + Long.parseLong(Optional.ofNullable(matcher.group(2)).orElse("0"));
    }

    private static Optional<String> output(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0 && !output.isEmpty()
                    ? Optional.of(output)
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
