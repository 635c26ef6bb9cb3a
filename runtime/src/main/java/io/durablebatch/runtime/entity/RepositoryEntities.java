package io.durablebatch.runtime.entity;

import java.util.List;
import java.util.stream.Stream;

/** The repository's entities: one per table Flyway creates. */
public final class RepositoryEntities {

    /** Their package: what a named persistence unit lists in its {@code packages}. */
    public static final String PACKAGE = RepositoryEntities.class.getPackageName();

    public static final List<Class<?>> CLASSES = List.of(
            JobInstanceEntity.class,
            JobExecutionEntity.class,
            StepExecutionEntity.class,
            DefinitionUpgradeEntity.class,
            RecoveryDecisionEntity.class,
            FlowNodeEntity.class,
            FlowDecisionEntity.class,
            FlowDecisionHeadEntity.class,
            StepPartitionPlanEntity.class,
            StepPartitionEntity.class,
            PartitionReleaseEntity.class,
            OperatorRequestEntity.class,
            RetentionHoldEntity.class,
            RetentionActionEntity.class);

    /** The entities and the mapped types they share: what the persistence unit is given. */
    public static final List<Class<?>> MODEL = Stream.concat(
            Stream.of(VersionedColumns.class, ExecutionColumns.class, AuditColumns.class, StepCountersColumns.class),
            CLASSES.stream()).toList();

    private RepositoryEntities() {
    }
}
