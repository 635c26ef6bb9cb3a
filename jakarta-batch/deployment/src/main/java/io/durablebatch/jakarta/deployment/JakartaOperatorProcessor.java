package io.durablebatch.jakarta.deployment;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.Batchlet;
import jakarta.batch.api.Decider;
import jakarta.batch.runtime.context.JobContext;
import jakarta.batch.runtime.context.StepContext;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.logging.Logger;

import io.durablebatch.jakarta.runtime.JakartaBatchRecorder;
import io.durablebatch.jakarta.runtime.JakartaJobs;
import io.durablebatch.jakarta.runtime.artifact.BatchArtifactProducers;
import io.durablebatch.jakarta.runtime.artifact.BatchXml;
import io.durablebatch.jakarta.runtime.execution.AttemptContexts;
import io.durablebatch.jakarta.runtime.execution.BatchletRuns;
import io.durablebatch.jakarta.runtime.execution.DeciderRuns;
import io.durablebatch.jakarta.runtime.execution.ExecutionContexts;
import io.durablebatch.jakarta.runtime.execution.JobListenerRuns;
import io.durablebatch.jakarta.runtime.execution.PartitionAnalyses;
import io.durablebatch.jakarta.runtime.execution.PartitionPlans;
import io.durablebatch.jakarta.runtime.execution.StepRuns;
import io.durablebatch.jakarta.runtime.jsl.JslArtifact;
import io.durablebatch.jakarta.runtime.jsl.JslBatchlet;
import io.durablebatch.jakarta.runtime.jsl.JslChunk;
import io.durablebatch.jakarta.runtime.jsl.JslDecision;
import io.durablebatch.jakarta.runtime.jsl.JslException;
import io.durablebatch.jakarta.runtime.jsl.JslExecutionElement;
import io.durablebatch.jakarta.runtime.jsl.JslFlow;
import io.durablebatch.jakarta.runtime.jsl.JslJob;
import io.durablebatch.jakarta.runtime.jsl.JslStep;
import io.durablebatch.jakarta.runtime.jsl.Substitution;
import io.durablebatch.jakarta.runtime.operator.BatchRuntimeJobOperator;
import io.durablebatch.jakarta.runtime.operator.JakartaJobOperator;
import io.durablebatch.jakarta.runtime.plan.JslPlans;
import io.durablebatch.job.JobDefinition;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AutoAddScopeBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.processor.BuiltinScope;
import io.quarkus.deployment.ApplicationArchive;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.AdditionalIndexedClassesBuildItem;
import io.quarkus.deployment.builditem.ApplicationArchivesBuildItem;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ServiceProviderBuildItem;

/**
 * Jakarta Batch at runtime: the {@code JobOperator} bean, the job XMLs that run as kernel job
 * definitions, and batch artifacts as CDI beans.
 */
class JakartaOperatorProcessor {

    private static final Logger LOG = Logger.getLogger(JakartaOperatorProcessor.class);

    /** The artifact kinds this runtime calls; their beans are looked up by name, so Arc must keep them. */
    private static final Class<?>[] ARTIFACT_TYPES = { Batchlet.class, AbstractBatchlet.class, Decider.class,
            jakarta.batch.api.listener.JobListener.class, jakarta.batch.api.listener.AbstractJobListener.class,
            jakarta.batch.api.chunk.ItemReader.class, jakarta.batch.api.chunk.AbstractItemReader.class,
            jakarta.batch.api.chunk.ItemProcessor.class, jakarta.batch.api.chunk.ItemWriter.class,
            jakarta.batch.api.chunk.AbstractItemWriter.class, jakarta.batch.api.listener.StepListener.class,
            jakarta.batch.api.listener.AbstractStepListener.class, jakarta.batch.api.chunk.listener.ChunkListener.class,
            jakarta.batch.api.chunk.listener.AbstractChunkListener.class,
            jakarta.batch.api.chunk.listener.ItemReadListener.class,
            jakarta.batch.api.chunk.listener.AbstractItemReadListener.class,
            jakarta.batch.api.chunk.listener.ItemProcessListener.class,
            jakarta.batch.api.chunk.listener.AbstractItemProcessListener.class,
            jakarta.batch.api.chunk.listener.ItemWriteListener.class,
            jakarta.batch.api.chunk.listener.AbstractItemWriteListener.class,
            jakarta.batch.api.chunk.listener.SkipReadListener.class,
            jakarta.batch.api.chunk.listener.SkipProcessListener.class,
            jakarta.batch.api.chunk.listener.SkipWriteListener.class,
            jakarta.batch.api.chunk.listener.RetryReadListener.class,
            jakarta.batch.api.chunk.listener.RetryProcessListener.class,
            jakarta.batch.api.chunk.listener.RetryWriteListener.class,
            jakarta.batch.api.chunk.CheckpointAlgorithm.class, jakarta.batch.api.chunk.AbstractCheckpointAlgorithm.class,
            jakarta.batch.api.partition.PartitionMapper.class, jakarta.batch.api.partition.PartitionCollector.class,
            jakarta.batch.api.partition.PartitionAnalyzer.class, jakarta.batch.api.partition.AbstractPartitionAnalyzer.class,
            jakarta.batch.api.partition.PartitionReducer.class, jakarta.batch.api.partition.AbstractPartitionReducer.class };

    /**
     * A class annotated {@code @Named} that is a batch artifact (implements or extends an artifact
     * type) is a {@code @Dependent} bean, as in a Jakarta EE container that discovers every class and
     * as Jakarta Batch applications write them: in Quarkus {@code @Named} alone defines no bean.
     */
    @BuildStep
    AutoAddScopeBuildItem namedArtifactsAreDependentBeans() {
        Set<DotName> types = new HashSet<>();
        for (Class<?> type : ARTIFACT_TYPES) {
            types.add(DotName.createSimple(type));
        }
        return AutoAddScopeBuildItem.builder().isAnnotatedWith(DotName.createSimple(Named.class))
                .and((clazz, annotations, index) -> isArtifact(clazz, types, index))
                .defaultScope(BuiltinScope.DEPENDENT).unremovable().reason("a @Named Jakarta Batch artifact").build();
    }

    /** Whether the class, a superclass or an interface of theirs is one of {@code types}. */
    private static boolean isArtifact(ClassInfo clazz, Set<DotName> types, IndexView index) {
        for (ClassInfo type = clazz; type != null; type = type.superName() == null ? null
                : index.getClassByName(type.superName())) {
            if (types.contains(type.name()) || (type.superName() != null && types.contains(type.superName()))
                    || type.interfaceNames().stream().anyMatch(types::contains)) {
                return true;
            }
        }
        return false;
    }

    @BuildStep
    AdditionalBeanBuildItem beans() {
        return AdditionalBeanBuildItem.builder().addBeanClasses(JakartaJobOperator.class, ExecutionContexts.class,
                BatchletRuns.class, DeciderRuns.class, JobListenerRuns.class, StepRuns.class, BatchArtifactProducers.class,
                PartitionPlans.class, PartitionAnalyses.class, AttemptContexts.class).setUnremovable().build();
    }

    /**
     * The API's qualifier and the types artifacts implement or inject are in no indexed archive;
     * Arc needs them indexed to see {@code @BatchProperty} as a qualifier and the artifact bean types.
     */
    @BuildStep
    AdditionalIndexedClassesBuildItem apiTypes() {
        List<String> types = new ArrayList<>(List.of(BatchProperty.class.getName(), JobContext.class.getName(),
                StepContext.class.getName(), jakarta.batch.operations.JobOperator.class.getName()));
        for (Class<?> type : ARTIFACT_TYPES) {
            types.add(type.getName());
        }
        return new AdditionalIndexedClassesBuildItem(types.toArray(String[]::new));
    }

    /** {@code BatchRuntime.getJobOperator()} finds the runtime with a ServiceLoader, in a native image too. */
    @BuildStep
    ServiceProviderBuildItem batchRuntimeEntryPoint() {
        return new ServiceProviderBuildItem(jakarta.batch.operations.JobOperator.class.getName(),
                BatchRuntimeJobOperator.class.getName());
    }

    /** A job XML names its artifacts as strings, which no injection point shows Arc: keep every artifact bean. */
    @BuildStep
    UnremovableBeanBuildItem keepArtifacts(BatchXmlRefsBuildItem batchXml) {
        DotName[] types = new DotName[ARTIFACT_TYPES.length];
        for (int i = 0; i < types.length; i++) {
            types[i] = DotName.createSimple(ARTIFACT_TYPES[i]);
        }
        return UnremovableBeanBuildItem.beanTypes(types);
    }

    /** Every {@code META-INF/batch.xml} of the application archives; an id given by two is refused. */
    @BuildStep
    BatchXmlRefsBuildItem batchXml(ApplicationArchivesBuildItem archives) {
        Map<String, String> refs = new HashMap<>();
        for (ApplicationArchive archive : archives.getAllApplicationArchives()) {
            archive.accept(tree -> tree.accept(BatchXml.RESOURCE, visit -> {
                if (visit == null) {
                    return;
                }
                try (InputStream in = Files.newInputStream(visit.getPath())) {
                    BatchXml.refs(BatchXml.RESOURCE + " in " + archive.getKey(), in).forEach((id, className) -> {
                        String other = refs.putIfAbsent(id, className);
                        if (other != null && !other.equals(className)) {
                            throw new IllegalArgumentException(BatchXml.RESOURCE + ": ref id \"" + id + "\" maps to both "
                                    + other + " and " + className);
                        }
                    });
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + BatchXml.RESOURCE + " in " + archive.getKey(), e);
                }
            }));
        }
        return new BatchXmlRefsBuildItem(refs);
    }

    /**
     * The artifact classes the runtime creates itself (no CDI bean answers to their ref): named by
     * {@code batch.xml} or by a literal ref that is a class of the application. They are created and
     * injected by reflection, which a native image must be told of. A ref that is a substitution names
     * its class only at run time; such a class must be registered by the application.
     */
    @BuildStep
    void artifactClasses(JslJobsBuildItem jobXmls, BatchXmlRefsBuildItem batchXml, CombinedIndexBuildItem index,
            BuildProducer<ReflectiveClassBuildItem> reflective) {
        Map<String, String> refs = batchXml.refs();
        Set<String> classes = new TreeSet<>();
        for (JslJob job : jobXmls.jobs().values()) {
            List<JslArtifact> artifacts = new ArrayList<>(job.listeners());
            job.elements().forEach(element -> addArtifacts(element, artifacts));
            for (JslArtifact artifact : artifacts) {
                if (Substitution.parse(artifact.ref()).isLiteral()) {
                    String className = refs.getOrDefault(artifact.ref(), artifact.ref());
                    if (index.getIndex().getClassByName(DotName.createSimple(className)) != null) {
                        classes.add(className);
                    }
                }
            }
        }
        if (!classes.isEmpty()) {
            reflective.produce(ReflectiveClassBuildItem.builder(classes.toArray(String[]::new)).constructors().fields()
                    .reason(getClass().getName()).build());
        }
    }

    /**
     * The artifacts of an element that this runtime creates: a step's (its work's, its listeners', its
     * partition's), a decider, those of a flow's elements.
     */
    private static void addArtifacts(JslExecutionElement element, List<JslArtifact> artifacts) {
        if (element instanceof JslStep step) {
            artifacts.addAll(step.listeners());
            if (step.work().orElse(null) instanceof JslBatchlet batchlet) {
                artifacts.add(batchlet.artifact());
            } else if (step.work().orElse(null) instanceof JslChunk chunk) {
                artifacts.add(chunk.reader());
                chunk.processor().ifPresent(artifacts::add);
                artifacts.add(chunk.writer());
                chunk.checkpointAlgorithm().ifPresent(artifacts::add);
            }
            step.partition().ifPresent(partition -> Stream.of(partition.mapper(), partition.collector(),
                    partition.analyzer(), partition.reducer()).flatMap(Optional::stream).forEach(artifacts::add));
        } else if (element instanceof JslDecision decision) {
            artifacts.add(decision.decider());
        } else if (element instanceof JslFlow flow) {
            flow.elements().forEach(inner -> addArtifacts(inner, artifacts));
        }
    }

    /**
     * The runtime's catalogue of job XMLs, and a kernel job definition bean for each that this
     * runtime can run. One it cannot run yet (a chunk, a split...) does not fail the build: its start
     * is refused, naming file and element, so an application may hold job XMLs for later.
     */
    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    void jobs(JslJobsBuildItem jobXmls, BatchXmlRefsBuildItem batchXml, JakartaBatchRecorder recorder,
            BuildProducer<SyntheticBeanBuildItem> beans) {
        Map<String, String> files = new HashMap<>();
        Map<String, String> sources = new HashMap<>();
        Map<String, String> refused = new HashMap<>();
        jobXmls.refused().forEach((name, problems) -> refused.put(name, new JslException(problems).getMessage()));
        Map<String, String> texts = jobXmls.sources();
        for (Map.Entry<String, JslJob> entry : jobXmls.jobs().entrySet()) {
            String name = entry.getKey();
            try {
                JslPlans.plan(entry.getValue());
                files.put(name, entry.getValue().location().file());
                sources.put(name, texts.get(name));
            } catch (JslException e) {
                LOG.warnf("Job %s cannot run yet; starting it will be refused: %s", name, e.getMessage());
                refused.put(name, e.getMessage());
            }
        }
        beans.produce(SyntheticBeanBuildItem.configure(JakartaJobs.class).scope(Singleton.class).unremovable()
                .supplier(recorder.jobs(files, sources, refused, batchXml.refs())).done());
        for (String name : sources.keySet()) {
            beans.produce(SyntheticBeanBuildItem.configure(JobDefinition.class).identifier("jakarta-batch-" + name)
                    .scope(Singleton.class).unremovable().supplier(recorder.definition(name)).done());
        }
    }

}
