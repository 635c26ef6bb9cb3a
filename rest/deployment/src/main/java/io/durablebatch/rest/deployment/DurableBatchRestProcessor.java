package io.durablebatch.rest.deployment;

import java.lang.reflect.Modifier;

import jakarta.inject.Inject;
import jakarta.ws.rs.Path;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.durablebatch.rest.Problem;
import io.durablebatch.rest.runtime.DurableBatchRestBuildTimeConfig;
import io.durablebatch.rest.runtime.OperatorResource;
import io.durablebatch.rest.runtime.ProblemMapper;
import io.durablebatch.rest.runtime.ProblemResponses;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.IndexDependencyBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.gizmo.ClassCreator;
import io.quarkus.gizmo.MethodCreator;
import io.quarkus.gizmo.MethodDescriptor;
import io.quarkus.gizmo.ResultHandle;
import io.quarkus.resteasy.reactive.spi.GeneratedJaxRsResourceBuildItem;
import io.quarkus.resteasy.reactive.spi.GeneratedJaxRsResourceGizmoAdaptor;
import io.quarkus.runtime.configuration.ConfigurationException;

/** The operator REST API: its resource and actions, and the problem document it writes itself. */
class DurableBatchRestProcessor {

    private static final String FEATURE = "durable-batch-rest";

    /** The generated subclass of {@link OperatorResource} that Quarkus REST serves. */
    static final String ROOTED_RESOURCE = "io.durablebatch.rest.runtime.RootedOperatorResource";

    private static final DotName PROBLEM_MAPPER = DotName.createSimple(ProblemMapper.class);

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    /**
     * The runtime jar joins the index: Quarkus REST finds its resource and ArC its beans there, and
     * SmallRye OpenAPI its endpoints and the schemas of their bodies, like the application's own.
     */
    @BuildStep
    IndexDependencyBuildItem resources() {
        return new IndexDependencyBuildItem("io.durablebatch", "quarkus-durable-batch-rest");
    }

    /**
     * The resource Quarkus REST serves: a subclass of {@link OperatorResource} generated with the
     * configured root as its class-level {@code @Path}, so that the {@link ProblemMapper} methods it
     * overrides as {@code @ServerExceptionMapper} are class-level mappers, for the API's requests only.
     * (A path-less resource registered with {@code AdditionalResourceClassBuildItem} moves too, but
     * Quarkus REST then takes its mappers as global ones.) The mappers are declared in
     * {@link ProblemResponses}, the resource's superclass.
     */
    @BuildStep
    void operatorResource(CombinedIndexBuildItem index, DurableBatchRestBuildTimeConfig config,
            BuildProducer<GeneratedJaxRsResourceBuildItem> resources) {
        String root = config.rootPath();
        if (!root.startsWith("/") || root.length() < 2 || root.endsWith("/")) {
            throw new ConfigurationException("quarkus.durable-batch.rest.root-path must start with / and must not end "
                    + "with one, e.g. /batch: " + root);
        }
        ClassInfo resource = index.getIndex().getClassByName(DotName.createSimple(OperatorResource.class));
        try (ClassCreator subclass = ClassCreator.builder().classOutput(new GeneratedJaxRsResourceGizmoAdaptor(resources))
                .className(ROOTED_RESOURCE).superClass(OperatorResource.class).build()) {
            subclass.addAnnotation(Path.class).addValue("value", root);
            // Quarkus REST reads @Blocking and @Produces from the class it serves, not from its superclass.
            resource.declaredAnnotations().forEach(subclass::addAnnotation);
            MethodInfo constructor = resource.constructors().get(0);
            MethodCreator creator = subclass.getMethodCreator(MethodDescriptor.ofConstructor(ROOTED_RESOURCE,
                    constructor.parameterTypes().stream().map(type -> type.name().toString()).toArray()));
            creator.setModifiers(Modifier.PUBLIC);
            creator.addAnnotation(Inject.class);
            creator.invokeSpecialMethod(MethodDescriptor.of(constructor), creator.getThis(), parameters(creator, constructor));
            creator.returnValue(null);
            ClassInfo mappers = index.getIndex().getClassByName(DotName.createSimple(ProblemResponses.class));
            for (MethodInfo mapper : mappers.methods()) {
                if (mapper.hasDeclaredAnnotation(PROBLEM_MAPPER)) {
                    MethodCreator override = subclass.getMethodCreator(mapper.name(), mapper.returnType().name().toString(),
                            mapper.parameterTypes().stream().map(type -> type.name().toString()).toArray());
                    override.setModifiers(Modifier.PUBLIC);
                    if (mapper.genericSignatureIfRequired() != null) {
                        override.setSignature(mapper.genericSignatureIfRequired());
                    }
                    override.addAnnotation(ServerExceptionMapper.class);
                    override.returnValue(override.invokeSpecialMethod(MethodDescriptor.of(mapper), override.getThis(),
                            parameters(override, mapper)));
                }
            }
        }
    }

    private static ResultHandle[] parameters(MethodCreator creator, MethodInfo method) {
        ResultHandle[] parameters = new ResultHandle[method.parametersCount()];
        for (int i = 0; i < parameters.length; i++) {
            parameters[i] = creator.getMethodParam(i);
        }
        return parameters;
    }

    /**
     * The exception mappers serialize {@link Problem} with Jackson outside a resource method's return
     * type, which native images register by themselves only for return types.
     */
    @BuildStep
    ReflectiveClassBuildItem problem() {
        return ReflectiveClassBuildItem.builder(Problem.class).constructors().methods().fields().build();
    }
}
