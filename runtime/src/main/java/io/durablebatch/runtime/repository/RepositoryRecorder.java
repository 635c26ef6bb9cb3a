package io.durablebatch.runtime.repository;

import java.lang.annotation.Annotation;
import java.util.function.Function;

import jakarta.enterprise.inject.Default;

import io.agroal.api.AgroalDataSource;
import io.durablebatch.runtime.schema.SchemaMigrator;
import io.quarkus.agroal.DataSource;
import io.quarkus.arc.Arc;
import io.quarkus.arc.SyntheticCreationalContext;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.runtime.annotations.Recorder;

/** What the build decided about the repository, carried into the running application. */
@Recorder
public class RepositoryRecorder {

    /** The repository's datasource bean: the datasource of that name, chosen and checked at build time. */
    public Function<SyntheticCreationalContext<AgroalDataSource>, AgroalDataSource> repositoryDataSource(String name) {
        return context -> context.getInjectedReference(AgroalDataSource.class, qualifier(name));
    }

    /** Brings the repository's schema to this version's (or validates it), before anything reads it. */
    public void migrate() {
        Arc.container().instance(SchemaMigrator.class).get().migrate();
    }

    /** The qualifier of the datasource named {@code name}, as Quarkus declares its datasource beans. */
    public static Annotation qualifier(String name) {
        return DataSourceUtil.isDefault(name) ? Default.Literal.INSTANCE : new DataSource.DataSourceLiteral(name);
    }
}
