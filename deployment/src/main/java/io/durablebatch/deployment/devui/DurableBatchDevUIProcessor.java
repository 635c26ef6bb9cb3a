package io.durablebatch.deployment.devui;

import io.durablebatch.deployment.KernelEnabled;
import io.durablebatch.runtime.dev.DurableBatchJsonRPCService;
import io.quarkus.deployment.IsLocalDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;

/**
 * The Dev UI card, in local dev mode and only with the kernel: the jobs with their flow graphs, the
 * latest executions with their progress, a drill-down into one execution's steps, flow decisions
 * and partitions, and the operator's actions (start, stop, restart, recover). Its data come from
 * the running application through {@link DurableBatchJsonRPCService} (in the dev-only runtime
 * module), never from the build.
 */
@BuildSteps(onlyIf = { IsLocalDevelopment.class, KernelEnabled.class })
class DurableBatchDevUIProcessor {

    @BuildStep
    CardPageBuildItem card() {
        CardPageBuildItem card = new CardPageBuildItem();
        card.addPage(Page.webComponentPageBuilder()
                .title("Jobs")
                .icon("font-awesome-solid:diagram-project")
                .componentLink("qwc-durable-batch-jobs.js")
                .dynamicLabelJsonRPCMethodName("jobCount"));
        card.addPage(Page.webComponentPageBuilder()
                .title("Executions")
                .icon("font-awesome-solid:list-check")
                .componentLink("qwc-durable-batch-executions.js"));
        card.addPage(Page.webComponentPageBuilder()
                .title("Schedules")
                .icon("font-awesome-solid:clock")
                .componentLink("qwc-durable-batch-schedules.js"));
        return card;
    }

    @BuildStep
    JsonRPCProvidersBuildItem jsonRpcService() {
        return new JsonRPCProvidersBuildItem(DurableBatchJsonRPCService.class);
    }
}
