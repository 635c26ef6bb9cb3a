package io.durablebatch.rest.deployment;

import io.durablebatch.rest.Problem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.IndexDependencyBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;

/** The operator REST API: its resource and actions, and the problem document it writes itself. */
class DurableBatchRestProcessor {

    private static final String FEATURE = "durable-batch-rest";

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
     * The exception mappers serialize {@link Problem} with Jackson outside a resource method's return
     * type, which native images register by themselves only for return types.
     */
    @BuildStep
    ReflectiveClassBuildItem problem() {
        return ReflectiveClassBuildItem.builder(Problem.class).constructors().methods().fields().build();
    }
}
