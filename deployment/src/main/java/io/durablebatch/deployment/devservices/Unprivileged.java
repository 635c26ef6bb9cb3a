package io.durablebatch.deployment.devservices;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How the local server's commands run when this JVM runs as root, which PostgreSQL refuses: in a
 * user namespace of their own (where they are not root), or else as the {@code postgres} user.
 */
final class Unprivileged {

    private Unprivileged() {
    }

    /** The command prefix for processes working in {@code directory}; empty unless this JVM runs as root. */
    static List<String> prefix(Path directory) throws IOException {
        if (!Integer.valueOf(0).equals(Files.getAttribute(directory, "unix:uid"))) {
            return List.of();
        }
        if (succeeds("unshare", "-U", "true")) {
            return List.of("unshare", "-U");
        }
        UserPrincipal postgres;
        try {
            postgres = directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
        } catch (IOException e) {
            throw new IllegalStateException("This JVM runs as root, which PostgreSQL refuses, and neither a user namespace"
                    + " (unshare -U) nor a 'postgres' user is available to run the local PostgreSQL; run as another user"
                    + " or configure the datasource's URL");
        }
        Files.setOwner(directory, postgres);
        return List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups");
    }

    private static boolean succeeds(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
