package org.acme;

import static io.durablebatch.job.Steps.chunk;

import java.util.List;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.durablebatch.item.support.ListItemReader;
import io.durablebatch.job.Job;
import io.durablebatch.job.JobDefinition;
import io.quarkus.logging.Log;

/** The job {@code greetings}: one chunk step that greets every name, two names per chunk. */
@Singleton
public class GreetingJob {

    /** The items: in a real job, the lines of a file or the rows of a table. */
    static final List<String> NAMES = List.of("Ada", "Grace", "Margaret", "Barbara", "Frances");

    @Produces
    JobDefinition greetings() {
        return Job.named("greetings")
                .start(chunk("greet", 2)
                        .reader(context -> ListItemReader.of(NAMES))
                        .processor((String name) -> "Hello " + name + "!")
                        .writer(context -> (List<? extends String> greetings) -> greetings.forEach(Log::info))
                        .build())
                .build();
    }
}
