package io.durablebatch.observe.test;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;

/** Launches a job from an HTTP request, whose server span the execution's trace links to. */
@Path("/launch")
public class LaunchResource {

    @Inject
    JobOperator operator;

    @POST
    @Path("{job}/{run}")
    public String launch(@PathParam("job") String job, @PathParam("run") String run) {
        return Long.toString(operator.start(job, JobParameters.of("run", run), OperatorCall.by("http")).value());
    }
}
