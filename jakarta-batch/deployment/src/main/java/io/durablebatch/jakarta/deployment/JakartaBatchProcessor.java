package io.durablebatch.jakarta.deployment;

import static io.durablebatch.jakarta.runtime.jsl.JslParser.JOB_XML_DIRECTORY;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jboss.logging.Logger;

import io.durablebatch.jakarta.runtime.JakartaBatchBuildTimeConfig;
import io.durablebatch.jakarta.runtime.JakartaBatchBuildTimeConfig.InvalidJobXml;
import io.durablebatch.jakarta.runtime.jsl.JslException;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslLocation;
import io.durablebatch.jakarta.runtime.jsl.JslParser;
import io.durablebatch.jakarta.runtime.jsl.JslProblem;
import io.durablebatch.jakarta.runtime.jsl.JslValidator;
import io.quarkus.deployment.ApplicationArchive;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.ApplicationArchivesBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.HotDeploymentWatchedFileBuildItem;
import io.quarkus.maven.dependency.ArtifactKey;

/** Jakarta Batch: the job XMLs are read and checked when the application is built, not when a job starts. */
class JakartaBatchProcessor {

    private static final Logger LOG = Logger.getLogger(JakartaBatchProcessor.class);
    private static final String FEATURE = "durable-batch-jakarta";

    /** Taking the jobs here makes every build read and check them, even one that records none. */
    @BuildStep
    FeatureBuildItem feature(JslJobsBuildItem jobs) {
        LOG.debugf("Job XMLs: %s", jobs.jobs().keySet());
        return new FeatureBuildItem(FEATURE);
    }

    /** In dev mode an edited job XML rebuilds the application, so its errors show at once. */
    @BuildStep
    HotDeploymentWatchedFileBuildItem watchJobXmls() {
        return HotDeploymentWatchedFileBuildItem.builder().setLocationPredicate(JakartaBatchProcessor::isJobXml)
                .build();
    }

    /**
     * Every {@code META-INF/batch-jobs/*.xml} of the application and its dependencies, parsed and
     * validated. Unless invalid job XMLs are deferred to start, the build fails with every problem of
     * every file, each naming file, line and element. Two job XMLs of one name always fail it.
     */
    @BuildStep
    JslJobsBuildItem jobXmls(ApplicationArchivesBuildItem archives, JakartaBatchBuildTimeConfig config) {
        Map<String, JslJob> jobs = new HashMap<>();
        Map<String, String> sources = new HashMap<>();
        Map<String, List<JslProblem>> refused = new HashMap<>();
        Map<String, String> foundIn = new HashMap<>();
        List<JslProblem> duplicates = new ArrayList<>();
        for (ApplicationArchive archive : archives.getAllApplicationArchives()) {
            String origin = describe(archive);
            archive.accept(tree -> tree.walkIfContains(JOB_XML_DIRECTORY, visit -> {
                String file = visit.getRelativePath("/");
                if (!isJobXml(file)) {
                    return;
                }
                String name = JslParser.jobName(file);
                String first = foundIn.putIfAbsent(name, origin);
                if (first != null) {
                    duplicates.add(new JslProblem(JslLocation.inFile(file, 0),
                            "the job XML is in both " + first + " and " + origin + "; a job name must be unique"));
                    return;
                }
                List<JslProblem> problems;
                try {
                    String source = Files.readString(visit.getPath(), StandardCharsets.UTF_8);
                    JslJob job = JslParser.parse(file, new ByteArrayInputStream(source.getBytes(StandardCharsets.UTF_8)));
                    problems = JslValidator.validate(job);
                    if (problems.isEmpty()) {
                        jobs.put(name, job);
                        sources.put(name, source);
                    }
                } catch (JslException e) {
                    problems = e.problems();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + file + " in " + origin, e);
                }
                if (!problems.isEmpty()) {
                    refused.put(name, problems);
                }
            }));
        }
        List<JslProblem> fatal = new ArrayList<>(duplicates);
        if (config.invalidJobXml() == InvalidJobXml.FAIL_BUILD) {
            refused.values().forEach(fatal::addAll);
        }
        if (!fatal.isEmpty()) {
            throw new JslException(fatal);
        }
        refused.forEach((name, problems) -> LOG.warnf("Job %s cannot run; starting it will be refused: %s", name,
                new JslException(problems).getMessage()));
        return new JslJobsBuildItem(jobs, sources, refused);
    }

    /** groupId:artifactId, or where the archive is when it is no artifact. */
    private static String describe(ApplicationArchive archive) {
        ArtifactKey key = archive.getKey();
        if (key != null) {
            return key.getGroupId() + ":" + key.getArtifactId();
        }
        List<String> paths = new ArrayList<>();
        archive.getRootDirectories().forEach(path -> paths.add(path.toString()));
        return String.join(", ", paths);
    }

    /** A job XML is a file directly in {@code META-INF/batch-jobs}, as the specification looks them up. */
    private static boolean isJobXml(String path) {
        return path.startsWith(JOB_XML_DIRECTORY + "/") && path.endsWith(".xml")
                && path.indexOf('/', JOB_XML_DIRECTORY.length() + 1) < 0;
    }

}
