package io.durablebatch.deployment.test;

import static io.durablebatch.deployment.test.RepositoryTestSupport.freshKey;
import static io.durablebatch.deployment.test.RepositoryTestSupport.now;
import static io.durablebatch.deployment.test.RepositoryTestSupport.repositoryApp;
import static io.durablebatch.deployment.test.RepositoryTestSupport.tx;
import static io.restassured.RestAssured.when;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.durablebatch.execution.ExecutionStatus;
import io.durablebatch.execution.JobExecution;
import io.durablebatch.execution.StepExecution;
import io.durablebatch.execution.StepName;
import io.durablebatch.repository.JobExecutionRequest;
import io.durablebatch.repository.JobInstanceSelection;
import io.durablebatch.repository.LifecycleTransition;
import io.durablebatch.repository.spi.KernelRepository;
import io.quarkus.test.QuarkusUnitTest;
import io.quarkus.test.common.http.TestHTTPResource;

class RepositorySmokeTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = repositoryApp();

    @Inject
    KernelRepository repository;

    @TestHTTPResource
    URL application;

    @Test
    void listensOnARandomPortSoThatBuildsSideBySideNeverCollide() {
        assertTrue(application.getPort() > 0, application::toString);
        assertNotEquals(8081, application.getPort(), "the default test port: quarkus.http.test-port=0 did not apply");
        when().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void launchesOneStepJobToCompletion() {
        JobInstanceSelection selection = tx(() -> repository.selectOrCreateJobInstance(freshKey("smoke")));
        assertTrue(selection.created());
        JobExecution execution = tx(() -> repository.createJobExecution(JobExecutionRequest.of(selection.instance().id())));
        JobExecution started = tx(() -> repository.transitionJobExecution(execution.id(), execution.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, now())));
        StepExecution step = tx(() -> repository.createStepExecution(execution.id(), StepName.of("only")));
        StepExecution stepStarted = tx(() -> repository.transitionStepExecution(step.id(), step.version(),
                LifecycleTransition.to(ExecutionStatus.STARTED, now())));
        StepExecution stepDone = tx(() -> repository.transitionStepExecution(step.id(), stepStarted.version(),
                LifecycleTransition.to(ExecutionStatus.COMPLETED, now())));
        JobExecution done = tx(() -> repository.transitionJobExecution(execution.id(), started.version(),
                LifecycleTransition.to(ExecutionStatus.COMPLETED, now())));
        assertEquals(ExecutionStatus.COMPLETED, done.status());
        assertEquals("COMPLETED", done.exitStatus().code());
        assertEquals(2, done.version().value());
        assertEquals(ExecutionStatus.COMPLETED, stepDone.status());
        assertEquals(done, tx(() -> repository.getJobExecution(execution.id())).orElseThrow());
    }
}
