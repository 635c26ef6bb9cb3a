package io.durablebatch.runtime.dev;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.durablebatch.execution.ExecutionVersion;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.JobExecutionId;
import io.durablebatch.execution.JobName;
import io.durablebatch.execution.ReasonCode;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepExecutionId;
import io.durablebatch.job.PartitionedStep;
import io.durablebatch.job.Step;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.operator.JobParameters;
import io.durablebatch.operator.OperatorCall;
import io.durablebatch.repository.ExecutionQuery;
import io.durablebatch.repository.JobRepository;
import io.durablebatch.repository.Page;
import io.durablebatch.repository.PageCursor;
import io.durablebatch.repository.PageRequest;
import io.durablebatch.repository.RecoveryResolution;
import io.durablebatch.repository.RecoveryResult;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.runtime.dev.ExecutionDetail.AuditView;
import io.durablebatch.runtime.dev.ExecutionDetail.DecisionView;
import io.durablebatch.runtime.dev.ExecutionDetail.OwnershipView;
import io.durablebatch.runtime.dev.ExecutionDetail.PartitionView;
import io.durablebatch.runtime.dev.ExecutionDetail.RecoveryView;
import io.durablebatch.runtime.dev.ExecutionDetail.StepView;
import io.durablebatch.runtime.job.RunningStepInputs;
import io.durablebatch.schedule.Schedules;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The JSON-RPC service behind the Dev UI card: reads through the {@link JobRepository}'s listings,
 * acts through the {@link JobOperator} as actor {@value #ACTOR}, so every action is audited like any
 * operator's. Each read is one short transaction of its own. An action answers an
 * {@link ActionResult}: a refusal of the repository is an answer naming its error code, never an
 * exception in the UI.
 */
@ApplicationScoped
public class DurableBatchJsonRPCService {

    /** The actor of the Dev UI's operator requests, as their audit records name it. */
    public static final String ACTOR = "dev-ui";

    /** The reason code of a recovery requested in the Dev UI. */
    static final ReasonCode RECOVERY_REASON = ReasonCode.of("DEV_UI");

    private static final Logger LOG = Logger.getLogger(DurableBatchJsonRPCService.class);

    private final JobOperator operator;
    private final JobRepository repository;
    private final RunningStepInputs inputs;
    private final Schedules schedules;

    DurableBatchJsonRPCService(JobOperator operator, JobRepository repository, RunningStepInputs inputs,
            Schedules schedules) {
        this.schedules = schedules;
        this.operator = operator;
        this.repository = repository;
        this.inputs = inputs;
    }

    /** The jobs this application defines, with their flow graphs, by name. */
    public List<JobView> jobs() {
        return operator.jobDefinitions().stream().map(JobView::of).sorted(Comparator.comparing(JobView::name)).toList();
    }

    /** How many jobs the application defines: the card's label. */
    public int jobCount() {
        return operator.jobDefinitions().size();
    }

    /**
     * The latest job executions, newest first, of one job or (for an empty {@code job}) of all;
     * {@code after} is a previous page's {@code next} or empty for the first page. Two statements
     * whatever the page's size: the page, then the steps of all its executions (their counters and
     * progress).
     */
    public Listing<ExecutionView> executions(String job, String after, int size) {
        ExecutionQuery query = job == null || job.isBlank() ? ExecutionQuery.all() : ExecutionQuery.all().job(JobName.of(job));
        return read(() -> {
            Page<JobExecution> page = repository.findJobExecutions(query, page(after, size));
            Map<JobExecutionId, List<StepExecution>> stepsOfPage = repository
                    .stepExecutions(page.items().stream().map(JobExecution::id).toList());
            Instant now = Instant.now();
            List<ExecutionView> items = new ArrayList<>(page.items().size());
            Map<String, Set<String>> parents = new HashMap<>();
            for (JobExecution execution : page.items()) {
                String jobName = execution.jobName().value();
                List<StepExecution> steps = stepsOfPage.get(execution.id());
                items.add(ExecutionView.of(execution, jobName, counted(steps, parents.computeIfAbsent(jobName,
                        this::partitionedSteps)), runningProgress(steps, now)));
            }
            return new Listing<>(items, next(page));
        });
    }

    /**
     * One execution with its parameters, ownership, steps, flow decisions and recovery, if it exists.
     * A constant number of statements, however many step attempts (a partitioned step's workers among
     * them) the execution has: its partitioned steps are found in one.
     */
    public ExecutionDetail execution(long id) {
        JobExecutionId executionId = JobExecutionId.of(id);
        return read(() -> repository.getJobExecution(executionId).map(execution -> {
            Instant now = Instant.now();
            List<StepExecution> steps = repository.stepExecutions(executionId);
            Set<StepExecutionId> partitioned = Set.copyOf(repository.partitionedStepExecutions(executionId));
            List<StepView> stepViews = steps.stream()
                    .map(step -> StepView.of(step, partitioned.contains(step.id()), progress(step, now))).toList();
            String jobName = execution.jobName().value();
            return new ExecutionDetail(ExecutionView.of(execution, jobName, counted(steps, partitionedSteps(jobName)),
                    runningProgress(steps, now)), parameters(execution),
                    repository.executionOwnership(executionId).map(OwnershipView::of).orElse(null), stepViews,
                    repository.flowDecisions(executionId).stream().map(DecisionView::of).toList(),
                    repository.recoveryDecision(executionId).map(RecoveryView::of).orElse(null),
                    repository.findOperatorRecords(Optional.of(execution.jobInstanceId()),
                            PageRequest.first(ExecutionDetail.AUDIT_SIZE)).items().stream().map(AuditView::of).toList());
        }).orElse(null));
    }

    /** The partitions of a partitioned step attempt, in plan order, one page at a time. */
    public Listing<PartitionView> partitions(long stepExecutionId, String after, int size) {
        return read(() -> {
            var page = repository.stepPartitions(StepExecutionId.of(stepExecutionId), page(after, size));
            return new Listing<>(page.items().stream().map(PartitionView::of).toList(), next(page));
        });
    }

    /**
     * Launches {@code job} with these identifying parameters (strings, whole numbers, decimals and
     * booleans as JSON gives them): a first attempt, or a restart of an instance that stopped or failed.
     */
    public ActionResult start(String job, Map<String, Object> parameters) {
        return act("start of job '" + job + "'", () -> {
            JobExecutionId id = operator.start(job, JobParameters.of(parameters == null ? Map.of() : parameters),
                    call());
            return ActionResult.done("Job '" + job + "' started: execution " + id.value(), id.value());
        });
    }

    /** Asks a running execution to stop at its next chunk boundary. */
    public ActionResult stop(long id) {
        return act("stop of execution " + id, () -> {
            operator.stop(JobExecutionId.of(id), call());
            return ActionResult.done("Execution " + id + " was asked to stop", id);
        });
    }

    /** Launches a new attempt of a STOPPED or FAILED execution's instance, from its checkpoints. */
    public ActionResult restart(long id) {
        return act("restart of execution " + id, () -> {
            JobExecutionId restarted = operator.restart(JobExecutionId.of(id), call());
            return ActionResult.done("Execution " + id + " restarted: execution " + restarted.value(), restarted.value());
        });
    }

    /**
     * Resolves an orphaned or UNKNOWN execution to {@code resolution} (FAILED or ABANDONED), as seen
     * at {@code observedVersion}. The lease is checked: an execution whose owner is alive is refused.
     */
    public ActionResult recover(long id, String resolution, long observedVersion) {
        return act("recovery of execution " + id, () -> {
            RecoveryResult result = operator.recover(JobExecutionId.of(id), ExecutionVersion.of(observedVersion),
                    resolution(resolution), RECOVERY_REASON, call());
            return ActionResult.done("Execution " + id + " recovered: " + result.execution().status(), id);
        });
    }

    private static RecoveryResolution resolution(String name) {
        try {
            return RecoveryResolution.valueOf(name);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("resolution must be one of FAILED, ABANDONED, not '" + name + "'");
        }
    }

    /** The schedules of the application's jobs, by job name. */
    public List<ScheduleView> schedules() {
        return schedules.list().stream().map(ScheduleView::of).toList();
    }

    /** Pauses a job's schedule in every replica, until it is resumed (audited, as actor dev-ui). */
    public ActionResult pauseSchedule(String job) {
        return act("pause of the schedule of job '" + job + "'", () -> {
            schedules.pause(job, call());
            return new ActionResult(true, "The schedule of job '" + job + "' is paused", null, null);
        });
    }

    /** Resumes a job's paused schedule from its next fire time on. */
    public ActionResult resumeSchedule(String job) {
        return act("resume of the schedule of job '" + job + "'", () -> {
            schedules.resume(job, call());
            return new ActionResult(true, "The schedule of job '" + job + "' runs again", null, null);
        });
    }

    private static OperatorCall call() {
        return OperatorCall.by(ACTOR);
    }

    private static ActionResult act(String what, Supplier<ActionResult> action) {
        try {
            ActionResult result = action.get();
            LOG.infof("Dev UI: %s", result.message());
            return result;
        } catch (RepositoryException refused) {
            LOG.infof("Dev UI: %s refused with %s: %s", what, refused.error(), refused.getMessage());
            return ActionResult.refused(refused);
        } catch (IllegalArgumentException invalid) {
            LOG.infof("Dev UI: %s refused: %s", what, invalid.getMessage());
            return ActionResult.invalid(invalid);
        }
    }

    private static <T> T read(Supplier<T> query) {
        return QuarkusTransaction.requiringNew().call(query::get);
    }

    private static PageRequest page(String after, int size) {
        return after == null || after.isBlank() ? PageRequest.first(size) : PageRequest.after(PageCursor.of(after), size);
    }

    private static String next(Page<?> page) {
        return page.next().map(PageCursor::value).orElse(null);
    }

    /**
     * The steps whose counters make the execution's: all but the parents of partitioned steps, whose
     * counters sum their workers' (once they end; until then their workers' are the live ones).
     */
    private static List<StepExecution> counted(List<StepExecution> steps, Set<String> partitionedSteps) {
        return steps.stream().filter(step -> !partitionedSteps.contains(step.stepName().value())).toList();
    }

    /** The names of the partitioned steps of the job, as it is defined now (none for a job no longer defined). */
    private Set<String> partitionedSteps(String jobName) {
        return operator.jobDefinition(jobName).map(definition -> definition.nodes().values().stream()
                .filter(node -> node instanceof PartitionedStep).map(node -> ((Step) node).name().value())
                .collect(Collectors.toSet())).orElse(Set.of());
    }

    /**
     * The progress of the running steps whose size is known here, as one (several run side by side
     * only as a partitioned step's workers); {@code null} if there is none.
     */
    private Progress runningProgress(List<StepExecution> steps, Instant now) {
        List<Progress> running = steps.stream().map(step -> progress(step, now)).filter(Objects::nonNull).toList();
        return running.isEmpty() ? null : Progress.combine(running);
    }

    private Progress progress(StepExecution step, Instant now) {
        if (!step.status().isActive()) {
            return null;
        }
        return Progress.of(step, inputs.size(step.id()), now).orElse(null);
    }

    /** The parameters an attempt runs with: its instance's identifying ones, then its own. */
    private Map<String, String> parameters(JobExecution execution) {
        Map<String, String> shown = new LinkedHashMap<>();
        repository.getJobInstance(execution.jobInstanceId())
                .ifPresent(instance -> instance.key().parameters().forEach((name, value) -> shown.put(name, value.text())));
        execution.parameters().values().forEach((name, value) -> shown.put(name, value.text() + " (non-identifying)"));
        return shown;
    }

}
