package io.durablebatch.rest.deployment;

import java.lang.reflect.Modifier;

import jakarta.inject.Inject;
import jakarta.ws.rs.Path;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.durablebatch.rest.Problem;
import io.durablebatch.rest.runtime.ApiResource;
import io.durablebatch.rest.runtime.DurableBatchRestBuildTimeConfig;
import io.durablebatch.rest.runtime.ProblemContentFilter;
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
import io.quarkus.smallrye.openapi.deployment.spi.AddToOpenAPIDefinitionBuildItem;

/** The operator REST API: its resource and actions, and the problem document it writes itself. */
class DurableBatchRestProcessor {

    private static final String FEATURE = "durable-batch-rest";

    /** The prefix of the name of the generated subclass of each resource, the class Quarkus REST serves. */
    static final String ROOTED = "Rooted";

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
     * The resources Quarkus REST serves: for each of {@link ApiResource#RESOURCES} a subclass
     * generated with the configured root as its class-level {@code @Path}, so that the
     * {@link ProblemMapper} methods it overrides as {@code @ServerExceptionMapper} are class-level
     * mappers, for the API's requests only. (A path-less resource registered with
     * {@code AdditionalResourceClassBuildItem} moves too, but Quarkus REST then takes its mappers as
     * global ones.) The mappers are declared in {@link ProblemResponses}, the resources' superclass;
     * Quarkus REST merges the resources that share the root into one set of paths.
     */
    @BuildStep
    void operatorResources(CombinedIndexBuildItem index, DurableBatchRestBuildTimeConfig config,
            BuildProducer<GeneratedJaxRsResourceBuildItem> resources) {
        String root = config.rootPath();
        if (!root.startsWith("/") || root.length() < 2 || root.endsWith("/")) {
            throw new ConfigurationException("quarkus.durable-batch.rest.root-path must start with / and must not end "
                    + "with one, e.g. /batch: " + root);
        }
        ClassInfo shared = index.getIndex().getClassByName(DotName.createSimple(ApiResource.class));
        ClassInfo mappers = index.getIndex().getClassByName(DotName.createSimple(ProblemResponses.class));
        for (Class<? extends ApiResource> resource : ApiResource.RESOURCES) {
            rooted(index.getIndex().getClassByName(DotName.createSimple(resource)), shared, mappers, root, resources);
        }
    }

    private static void rooted(ClassInfo resource, ClassInfo shared, ClassInfo mappers, String root,
            BuildProducer<GeneratedJaxRsResourceBuildItem> resources) {
        String name = resource.name().packagePrefix() + "." + ROOTED + resource.simpleName();
        try (ClassCreator subclass = ClassCreator.builder().classOutput(new GeneratedJaxRsResourceGizmoAdaptor(resources))
                .className(name).superClass(resource.name().toString()).build()) {
            subclass.addAnnotation(Path.class).addValue("value", root);
            // Quarkus REST reads @Blocking and @Produces, and SmallRye OpenAPI a class's tag and
            // responses, from the class it serves, not from its superclasses.
            shared.declaredAnnotations().forEach(subclass::addAnnotation);
            resource.declaredAnnotations().forEach(subclass::addAnnotation);
            MethodInfo constructor = resource.constructors().get(0);
            MethodCreator creator = subclass.getMethodCreator(MethodDescriptor.ofConstructor(name,
                    constructor.parameterTypes().stream().map(type -> type.name().toString()).toArray()));
            creator.setModifiers(Modifier.PUBLIC);
            creator.addAnnotation(Inject.class);
            creator.invokeSpecialMethod(MethodDescriptor.of(constructor), creator.getThis(), parameters(creator, constructor));
            creator.returnValue(null);
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

    /**
     * The media type and schema of every problem response in the OpenAPI document, written once
     * ({@link ProblemContentFilter}); used only where the application has SmallRye OpenAPI.
     */
    @BuildStep
    AddToOpenAPIDefinitionBuildItem problemContent() {
        return new AddToOpenAPIDefinitionBuildItem(new ProblemContentFilter());
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
