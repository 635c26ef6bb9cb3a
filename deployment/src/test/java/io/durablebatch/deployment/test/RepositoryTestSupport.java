package io.durablebatch.deployment.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import org.junit.jupiter.api.function.Executable;

import io.durablebatch.repository.JobInstanceKey;
import io.durablebatch.repository.JobName;
import io.durablebatch.repository.RepositoryError;
import io.durablebatch.repository.RepositoryException;
import io.quarkus.narayana.jta.QuarkusTransaction;

/** Helpers shared by the repository tests: units of work, fresh keys, refusal assertions. */
public final class RepositoryTestSupport {

    private RepositoryTestSupport() {
    }

    /** Runs {@code work} in its own committed unit of work. */
    public static <T> T tx(Supplier<T> work) {
        return QuarkusTransaction.requiringNew().call(work::get);
    }

    public static void txRun(Runnable work) {
        QuarkusTransaction.requiringNew().run(work);
    }

    /** A key no other test uses, so tests sharing one database never see each other's rows. */
    public static JobInstanceKey freshKey(String job) {
        return JobInstanceKey.of(JobName.of(job + "-" + UUID.randomUUID()), Map.of("run", 1L));
    }

    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    /** Asserts that {@code call} is refused with {@code error}, inside its own unit of work. */
    public static RepositoryException assertRefused(RepositoryError error, Executable call) {
        RepositoryException refusal = assertThrows(RepositoryException.class,
                () -> QuarkusTransaction.requiringNew().run(() -> {
                    try {
                        call.execute();
                    } catch (RuntimeException e) {
                        throw e;
                    } catch (Throwable e) {
                        throw new IllegalStateException(e);
                    }
                }));
        assertEquals(error, refusal.error(), refusal::getMessage);
        return refusal;
    }
}
