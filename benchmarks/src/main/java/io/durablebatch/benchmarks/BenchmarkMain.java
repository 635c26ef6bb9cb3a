package io.durablebatch.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.operator.JobOperator;
import io.durablebatch.repository.spi.KernelRepository;
import io.durablebatch.runtime.sql.MetadataSql;
import io.durablebatch.runtime.sql.RepositoryDataSource;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Runs the selected workloads (all by default) one after another, each on emptied repository
 * tables, and prints one JSON line per workload on stdout, with the {@link BenchmarkConfig#mode()} it ran in; logs go to
 * stderr. Exits with 1 if a
 * workload broke an invariant (a failed launch, an orphan, a second execution, a lookup without an
 * index, a partition lost, an instance left unpurged, ...), with 2 on an unknown workload name.
 */
@QuarkusMain
public class BenchmarkMain implements QuarkusApplication {

    private static final Logger LOG = Logger.getLogger(BenchmarkMain.class);

    private final BenchDatabase database;
    private final StatementCounter statements;
    private final BenchmarkConfig.Mode mode;
    private final Map<String, Workload> workloads = new LinkedHashMap<>();

    @Inject
    BenchmarkMain(BenchmarkConfig config, LaunchPath launchPath, PartitionedJobs partitionedJobs,
            KernelRepository repository, BenchDatabase database, StatementCounter statements, QueryPlans plans,
            MetadataSql sql, JobOperator operator, Config settings,
            @RepositoryDataSource AgroalDataSource dataSource) {
        this.database = database;
        this.statements = statements;
        this.mode = config.mode();
        // the core: launching, racing for one instance, reading history
        register(new LaunchThroughputWorkload("launch-sequential", 1, config.launch(), launchPath, database, statements));
        register(new LaunchThroughputWorkload("launch-concurrent", config.launch().threads(), config.launch(), launchPath,
                database, statements));
        register(new SameKeyStormWorkload(config.storm(), launchPath, database, statements));
        register(new HistoryLookupWorkload(config.history(), repository, database, statements, plans));
        register(new ExecutionListingWorkload(config.listing(), repository, database, statements, plans,
                settings.getValue("quarkus.http.port", Integer.class),
                settings.getOptionalValue("quarkus.http.access-log.log-directory", String.class)
                        .map(directory -> Path.of(directory, "listing-access.log"))));
        // partitions
        register(new PartitionPlanWorkload(config.partitions(), partitionedJobs, database, sql));
        register(new PartitionClaimWorkload(config.partitions(), partitionedJobs, database, statements, sql));
        register(new PartitionAggregateWorkload(config.partitions(), partitionedJobs, repository, sql));
        // operator control and retention
        register(new ObserveControlWorkload(config.control(), repository, statements, sql));
        register(new PurgeWorkload(config.purge(), repository, database, statements, sql));
        // the execution kernel
        register(new ChunkEtlBenchmark(config.kernel(), config.mode(), operator, database, sql, settings, dataSource));
        register(new KernelLaunchBenchmark(config.kernel(), config.mode(), operator, sql, statements));
        register(new PartitionedEtlBenchmark(config.kernel(), config.mode(), operator, database));
    }

    private void register(Workload workload) {
        workloads.put(workload.name(), workload);
    }

    @Override
    public int run(String... args) {
        List<Workload> selected = new ArrayList<>();
        for (String name : args.length == 0 ? new String[] { "all" } : args) {
            if (name.equals("all")) {
                selected.addAll(workloads.values());
            } else if (workloads.containsKey(name)) {
                selected.add(workloads.get(name));
            } else {
                System.err.println("unknown workload '" + name + "'; choose any of (default: all):");
                workloads.values().forEach(w -> System.err.println("  " + w.name() + ": " + w.description()));
                return 2;
            }
        }
        statements.prepare();
        boolean violated = false;
        for (Workload workload : selected) {
            LOG.infof("%s: %s", workload.name(), workload.description());
            database.truncateRepository();
            JsonLine line = workload.run().put("mode", mode.label());
            System.out.println(line);
            System.out.flush();
            violated |= line.hasViolations();
        }
        return violated ? 1 : 0;
    }
}
