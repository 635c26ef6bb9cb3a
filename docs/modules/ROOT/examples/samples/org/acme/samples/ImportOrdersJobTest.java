package org.acme.samples;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.durablebatch.operator.JobParameters;
import io.durablebatch.test.JobTester;
import io.quarkus.test.junit.QuarkusTest;

/** A test of {@link ImportOrdersJob} with the test library, package {@code io.durablebatch.test}. */
@QuarkusTest
class ImportOrdersJobTest {

    @Inject
    JobTester tester;

    @BeforeEach
    void reset() {
        tester.resetRepository();
    }

    @Test
    void importsEveryOrderWithAnAmountInChunksOfTheGivenSize() throws Exception {
        Path file = Files.createTempFile("orders-", ".csv");
        Files.writeString(file, "id,customer,amount\n1,ada,10.00\n2,bob,0.00\n3,cy,7.50\n4,di,1.25\n5,ed,3.00\n");
        JobParameters parameters = JobParameters.of(Map.of("day", LocalDate.of(2026, 12, 5), "file", file.toString()))
                .withNonIdentifying("chunkSize", 2L);

        tester.launch("importOrders", parameters)
                .assertCompleted()
                .step("import")
                .assertReadCount(5)
                .assertFilterCount(1) // the order of amount 0.00
                .assertWriteCount(4);
    }
}
