package io.durablebatch.deployment.schedule;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.durablebatch.deployment.KernelEnabled;
import io.durablebatch.runtime.schedule.ScheduleStore;
import io.durablebatch.runtime.schedule.ScheduledJobs;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.scheduler.deployment.ForceStartSchedulerBuildItem;

/** Schedules: jobs that run by themselves, fired on the Quarkus scheduler; all of it with the kernel only. */
@BuildSteps(onlyIf = KernelEnabled.class)
class DurableBatchScheduleProcessor {

    /** A schedule's cron property; its job name quoted or not. */
    private static final Pattern CRON_PROPERTY = Pattern
            .compile("quarkus\\.durable-batch\\.jobs\\.(\"[^\"]+\"|[^.]+)\\.schedule\\.cron");

    @BuildStep
    AdditionalBeanBuildItem scheduleBeans() {
        return AdditionalBeanBuildItem.builder().addBeanClasses(ScheduleStore.class, ScheduledJobs.class)
                .setUnremovable().build();
    }

    /**
     * Schedules are declared at runtime (configuration, job definition beans), so the scheduler must
     * run even in an application without a {@code @Scheduled} method.
     */
    @BuildStep
    ForceStartSchedulerBuildItem forceScheduler() {
        return new ForceStartSchedulerBuildItem();
    }

    /**
     * The cron expressions the build already knows (application.properties) are checked now, each
     * failure naming its property and job; values set only at runtime are checked at startup.
     */
    @BuildStep
    void validateConfiguredCrons(ValidationPhaseBuildItem validationPhase,
            BuildProducer<ValidationErrorBuildItem> errors) {
        Config config = ConfigProvider.getConfig();
        String cronType = config.getOptionalValue("quarkus.scheduler.cron-type", String.class).orElse("quartz");
        List<Throwable> invalid = new ArrayList<>();
        for (String name : config.getPropertyNames()) {
            Matcher matcher = CRON_PROPERTY.matcher(name);
            if (!matcher.matches()) {
                continue;
            }
            String job = matcher.group(1).replace("\"", "");
            config.getOptionalValue(name, String.class).ifPresent(cron -> {
                try {
                    ScheduledJobs.fireTimes(job, cron, cronType, ZoneOffset.UTC, ScheduledJobs.property(job, "cron"));
                } catch (RuntimeException e) {
                    invalid.add(e);
                }
            });
        }
        if (!invalid.isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(invalid));
        }
    }
}
