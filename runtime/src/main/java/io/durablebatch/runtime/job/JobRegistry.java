package io.durablebatch.runtime.job;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.durablebatch.job.JobDefinition;
import io.durablebatch.repository.DefinitionUpgrade;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The jobs of this application: every {@link JobDefinition} bean, collected and checked at runtime
 * init (after the schema migration, before any startup observer of the application), so a bad
 * definition fails startup instead of a launch. Declared upgrade edges are registered with the repository then.
 */
@Singleton
public class JobRegistry {

    private static final Logger LOG = Logger.getLogger(JobRegistry.class);

    private final Instance<JobDefinition> beans;
    private final KernelRepository repository;
    private volatile Map<String, JobDefinition> definitions;
    /** Jobs derived at run time ({@link #define}): the test library's one-step jobs. */
    private final Map<String, JobDefinition> derived = new ConcurrentHashMap<>();

    JobRegistry(@Any Instance<JobDefinition> beans, KernelRepository repository) {
        this.beans = beans;
        this.repository = repository;
    }

    /** Collects and checks the definitions, and registers their upgrade edges: once, at runtime init. */
    public void register() {
        Map<String, JobDefinition> byName = new LinkedHashMap<>();
        for (JobDefinition definition : beans) {
            JobDefinition other = byName.putIfAbsent(definition.name().value(), definition);
            if (other != null) {
                throw new IllegalStateException("job '" + definition.name() + "' is defined twice: by " + other
                        + " and by " + definition + "; job names must be unique in an application");
            }
        }
        definitions = Collections.unmodifiableMap(byName);
        if (byName.values().stream().anyMatch(d -> !d.upgrades().isEmpty())) {
            QuarkusTransaction.requiringNew().run(this::registerUpgrades);
        }
        byName.values().forEach(d -> LOG.infof("Job '%s' revision %s, plan %s (%d nodes)%s", d.name(), d.revision(),
                d.plan().fingerprint(), d.nodes().size(), describeUpgrades(d)));
    }

    /** Registers the upgrade edges the definitions declare, in the caller's transaction. */
    void registerUpgrades() {
        all().values().stream().flatMap(d -> d.upgrades().stream())
                .forEach(upgrade -> repository.registerDefinitionUpgrade(upgrade.to().jobName(), upgrade));
    }

    /** The definition of the job with this name. */
    public Optional<JobDefinition> find(String jobName) {
        return Optional.ofNullable(all().get(jobName)).or(() -> Optional.ofNullable(derived.get(jobName)));
    }

    /**
     * Adds a job derived at run time, launchable by name from now on; the same identity again is
     * kept. Refused for a name another definition has.
     */
    void define(JobDefinition definition) {
        String name = definition.name().value();
        JobDefinition known = Optional.ofNullable(all().get(name)).orElseGet(() -> derived.putIfAbsent(name, definition));
        if (known != null && !known.identity().equals(definition.identity())) {
            throw new IllegalArgumentException("job '" + name + "' is defined already, as " + known);
        }
    }

    /** The definition of the job with this name; refused with {@code JOB_NOT_DEFINED} if there is none. */
    public JobDefinition get(String jobName) {
        return find(jobName).orElseThrow(() -> new RepositoryException(RepositoryError.JOB_NOT_DEFINED, "no job named '"
                + jobName + "' is defined; the defined jobs are " + all().keySet()));
    }

    public Collection<JobDefinition> definitions() {
        return all().values();
    }

    private Map<String, JobDefinition> all() {
        Map<String, JobDefinition> current = definitions;
        if (current == null) {
            throw new IllegalStateException("the job registry is read before application startup");
        }
        return current;
    }

    private static String describeUpgrades(JobDefinition definition) {
        if (definition.upgrades().isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder(", restarts checkpoints of");
        for (DefinitionUpgrade upgrade : definition.upgrades()) {
            text.append(" revision ").append(upgrade.from().revision()).append(" (").append(upgrade.from().fingerprint())
                    .append(')');
        }
        return text.toString();
    }
}
