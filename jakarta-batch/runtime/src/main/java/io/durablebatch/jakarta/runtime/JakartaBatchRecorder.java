package io.durablebatch.jakarta.runtime;

import java.util.Map;
import java.util.function.Supplier;

import io.durablebatch.job.JobDefinition;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.annotations.Recorder;

/** Hands the job XMLs the build read to the runtime. */
@Recorder
public class JakartaBatchRecorder {

    public Supplier<JakartaJobs> jobs(Map<String, String> files, Map<String, String> sources,
            Map<String, String> refused, Map<String, String> batchXmlRefs) {
        return () -> new JakartaJobs(files, sources, refused, batchXmlRefs);
    }

    /** The kernel definition of one job XML, which the kernel's job registry collects with the others. */
    public Supplier<JobDefinition> definition(String name) {
        return () -> Arc.container().instance(JakartaJobs.class).get().definition(name);
    }
}
