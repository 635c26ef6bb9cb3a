package io.durablebatch.deployment.devservices;

import java.util.logging.Level;
import java.util.logging.Logger;

import io.quarkus.builder.item.SimpleBuildItem;
import io.quarkus.deployment.builditem.DockerStatusBuildItem;

/**
 * Testcontainers' loggers, silenced from the first steps of a dev or test build until the container
 * runtime check has been answered. Without a container runtime Testcontainers answers the check with
 * an ERROR line and the list of strategies it tried; where the local server takes over that is a
 * healthy start. Whichever build step asks first (this extension's plan, another extension's Dev
 * Service), the answer is asked inside the silence, and the build item keeps it, so no later check
 * of the build logs it; later container starts log as usual. A level the logging in force already
 * gives {@code org.testcontainers} is left alone.
 */
public final class QuietContainerProbeBuildItem extends SimpleBuildItem {

    static final String TESTCONTAINERS_CATEGORY = "org.testcontainers";

    // held strongly: the log manager keeps only weak references to its loggers
    private final Logger testcontainers = Logger.getLogger(TESTCONTAINERS_CATEGORY);
    private final boolean silenced;

    QuietContainerProbeBuildItem() {
        silenced = testcontainers.getLevel() == null;
        if (silenced) {
            testcontainers.setLevel(Level.OFF);
        }
    }

    /** Whether a container runtime runs, then the loggers back to what they were. */
    boolean isContainerRuntimeAvailable(DockerStatusBuildItem containerRuntime) {
        try {
            return containerRuntime.isContainerRuntimeAvailable();
        } finally {
            end();
        }
    }

    /** Ends the silence, once the check was answered or is not asked by this extension. */
    void end() {
        if (silenced && testcontainers.getLevel() == Level.OFF) {
            testcontainers.setLevel(null);
        }
    }
}
