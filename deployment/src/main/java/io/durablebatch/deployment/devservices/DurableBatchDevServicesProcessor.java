package io.durablebatch.deployment.devservices;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.jboss.logging.Logger;

import io.durablebatch.deployment.DurableBatchProcessor;
import io.durablebatch.deployment.RepositoryDataSourceBuildItem;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.datasource.common.runtime.DatabaseKind;
import io.quarkus.datasource.deployment.spi.DevServicesDatasourceConfigurationHandlerBuildItem;
import io.quarkus.datasource.runtime.DataSourceBuildTimeConfig;
import io.quarkus.datasource.runtime.DataSourcesBuildTimeConfig;
import io.quarkus.deployment.IsDevServicesSupportedByLaunchMode;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.DockerStatusBuildItem;
import io.quarkus.deployment.dev.devservices.DevServicesConfig;
import io.quarkus.runtime.configuration.ConfigUtils;

/**
 * Dev Services for the job repository's datasource in dev and test modes: where Quarkus' own
 * PostgreSQL Dev Service cannot run (no container runtime) or is not wanted, a local PostgreSQL
 * server, started with the application and stopped with it.
 */
@BuildSteps(onlyIf = { IsDevServicesSupportedByLaunchMode.class, DevServicesConfig.Enabled.class })
class DurableBatchDevServicesProcessor {

    private static final Logger LOG = Logger.getLogger(DurableBatchDevServicesProcessor.class);

    static final String DEFAULT_USERNAME = "quarkus";

    /** Silences Testcontainers' answer to the container runtime check: a step with no input, among the first. */
    @BuildStep
    QuietContainerProbeBuildItem quietContainerProbe() {
        return new QuietContainerProbeBuildItem();
    }

    /**
     * Decides whether the repository's datasource gets a local server: it has no URL, it is active,
     * and the mode asks for a local server or Quarkus' container Dev Service cannot provide one.
     */
    @BuildStep
    Optional<LocalPostgresBuildItem> plan(DurableBatchDevServicesConfig config, RepositoryDataSourceBuildItem repository,
            DataSourcesBuildTimeConfig dataSources, DockerStatusBuildItem containerRuntime,
            QuietContainerProbeBuildItem quiet) {
        try {
            return plan(config, repository.name(), dataSources, containerRuntime, quiet);
        } finally {
            quiet.end();
        }
    }

    private static Optional<LocalPostgresBuildItem> plan(DurableBatchDevServicesConfig config, String name,
            DataSourcesBuildTimeConfig dataSources, DockerStatusBuildItem containerRuntime,
            QuietContainerProbeBuildItem quiet) {
        if (!config.enabled() || config.mode() == DurableBatchDevServicesConfig.Mode.CONTAINER
                || ConfigUtils.isAnyPropertyPresent(DataSourceUtil.dataSourcePropertyKeys(name, "jdbc.url"))
                || !ConfigUtils.getFirstOptionalValue(DataSourceUtil.dataSourcePropertyKeys(name, "active"), Boolean.class)
                        .orElse(true)) {
            return Optional.empty();
        }
        DataSourceBuildTimeConfig dataSource = dataSources.dataSources().get(name);
        if (dataSource != null && !dataSource.dbKind().map(DatabaseKind::isPostgreSQL).orElse(true)) {
            return Optional.empty();
        }
        if (config.mode() == DurableBatchDevServicesConfig.Mode.AUTO
                && (dataSource == null || dataSource.devservices().enabled().orElse(true))
                && quiet.isContainerRuntimeAvailable(containerRuntime)) {
            LOG.debugf("Leaving datasource %s to Quarkus' PostgreSQL Dev Service: a container runtime is available", name);
            return Optional.empty();
        }
        String username = property(name, "username").orElse(DEFAULT_USERNAME);
        String password = property(name, "password").orElse(DEFAULT_USERNAME);
        return Optional.of(new LocalPostgresBuildItem(name, new LocalPostgres.Settings(name, username, password,
                config.port(), config.local().binaries(), config.local().path(), config.local().embeddedVersion())));
    }

    /**
     * Tells Quarkus' datasource Dev Services that the datasource is taken care of: without it, they
     * fail the test start for want of a container runtime (and warn in dev mode).
     */
    @BuildStep
    DevServicesDatasourceConfigurationHandlerBuildItem claimDataSource(Optional<LocalPostgresBuildItem> local) {
        if (local.isEmpty()) {
            return null;
        }
        String claimed = local.get().dataSource();
        return new DevServicesDatasourceConfigurationHandlerBuildItem(DatabaseKind.POSTGRESQL,
                (name, running) -> Map.of(), name -> Map.of(), claimed::equals);
    }

    /**
     * The local server as an owned Dev Service: Quarkus starts it before the application, keeps it
     * across dev-mode restarts while this configuration is unchanged (the data survives a reload)
     * and closes it with the application.
     */
    @BuildStep
    DevServicesResultBuildItem localServer(Optional<LocalPostgresBuildItem> local) {
        if (local.isEmpty()) {
            return null;
        }
        LocalPostgres.Settings settings = local.get().settings();
        Map<String, String> credentials = new HashMap<>();
        Map<String, Function<LocalPostgres, String>> url = new HashMap<>();
        for (String key : DataSourceUtil.dataSourcePropertyKeys(settings.dataSource(), "username")) {
            credentials.put(key, settings.username());
        }
        for (String key : DataSourceUtil.dataSourcePropertyKeys(settings.dataSource(), "password")) {
            credentials.put(key, settings.password());
        }
        for (String key : DataSourceUtil.dataSourcePropertyKeys(settings.dataSource(), "jdbc.url")) {
            url.put(key, LocalPostgres::jdbcUrl);
        }
        return DevServicesResultBuildItem.<LocalPostgres> owned()
                .feature(DurableBatchProcessor.FEATURE)
                .serviceName(settings.dataSource())
                .description("PostgreSQL for the job repository (local server)")
                .serviceConfig(settings)
                .startable(() -> new LocalPostgres(settings))
                .config(credentials)
                .configProvider(url)
                .build();
    }

    private static Optional<String> property(String dataSource, String name) {
        return ConfigUtils.getFirstOptionalValue(DataSourceUtil.dataSourcePropertyKeys(dataSource, name), String.class);
    }
}
