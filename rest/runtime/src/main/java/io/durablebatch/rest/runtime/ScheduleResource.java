package io.durablebatch.rest.runtime;

import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.operator.OperatorCall;
import io.durablebatch.rest.BatchRoles;
import io.durablebatch.schedule.ScheduleState;
import io.durablebatch.schedule.Schedules;
import io.quarkus.security.identity.SecurityIdentity;

/** The jobs' schedules: their next fire times, last fire and state, and pausing and resuming them. */
public class ScheduleResource extends ApiResource {

    private final Schedules schedules;

    protected ScheduleResource(Schedules schedules, SecurityIdentity identity, ObjectMapper json) {
        super(identity, json);
        this.schedules = schedules;
    }

    @GET
    @Path("/schedules")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The schedules of the application's jobs", description = ApiDocs.READ_ROLES
            + " Each with its next fire times, its last fire and the execution it launched, and whether it is paused.")
    @APIResponse(responseCode = "200", description = "The schedules, by job name", content = @Content(schema = @Schema(implementation = ScheduleView.class, type = SchemaType.ARRAY)))
    public List<ScheduleView> schedules() {
        return schedules.list().stream().map(ScheduleView::of).toList();
    }

    @GET
    @Path("/schedules/{job}")
    @RolesAllowed({ BatchRoles.VIEWER, BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "The schedule of a job", description = ApiDocs.READ_ROLES)
    @APIResponse(responseCode = "200", description = "The schedule", content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @APIResponse(responseCode = "404", description = "SCHEDULE_NOT_FOUND")
    public ScheduleView schedule(@RestPath String job) {
        return ScheduleView.of(schedules.get(job).orElseThrow(() -> notFound(job)));
    }

    @POST
    @Path("/schedules/{job}/pause")
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "Pause a schedule", description = ApiDocs.OPERATE_ROLES + " Every replica stops launching "
            + "the job from its next fire time on, restarts included; the fire times that pass are skipped, never "
            + "caught up. Audited; pausing a paused schedule changes nothing. Idempotent with Idempotency-Key.")
    @APIResponse(responseCode = "200", description = "The schedule, paused", content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @APIResponse(responseCode = "404", description = "SCHEDULE_NOT_FOUND")
    public ScheduleView pause(@RestPath String job,
            @Parameter(description = ApiDocs.IDEMPOTENCY_KEY) @RestHeader(IDEMPOTENCY_KEY) String key) {
        return act(job, key, schedules::pause);
    }

    @POST
    @Path("/schedules/{job}/resume")
    @RolesAllowed({ BatchRoles.OPERATOR, BatchRoles.ADMIN })
    @Operation(summary = "Resume a schedule", description = ApiDocs.OPERATE_ROLES + " The job is launched again "
            + "from its next fire time on. Audited; resuming a running schedule changes nothing. Idempotent with "
            + "Idempotency-Key.")
    @APIResponse(responseCode = "200", description = "The schedule, running", content = @Content(schema = @Schema(implementation = ScheduleView.class)))
    @APIResponse(responseCode = "404", description = "SCHEDULE_NOT_FOUND")
    public ScheduleView resume(@RestPath String job,
            @Parameter(description = ApiDocs.IDEMPOTENCY_KEY) @RestHeader(IDEMPOTENCY_KEY) String key) {
        return act(job, key, schedules::resume);
    }

    /** An operator's action on the job's schedule, refused if it has none. */
    private ScheduleView act(String job, String key, BiFunction<String, OperatorCall, ScheduleState> action) {
        OperatorCall call = call(key);
        schedules.get(job).orElseThrow(() -> notFound(job));
        return ScheduleView.of(action.apply(job, call));
    }

    private static ApiException notFound(String job) {
        return new ApiException(ApiError.SCHEDULE_NOT_FOUND, "job '" + job + "' has no schedule", Optional.empty());
    }
}
