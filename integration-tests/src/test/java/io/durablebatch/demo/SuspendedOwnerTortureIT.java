package io.durablebatch.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.durablebatch.demo.DemoDatabase.StoredExecution;
import io.durablebatch.demo.DemoDatabase.StoredStep;
import io.durablebatch.demo.Torture.Input;

/**
 * SIGSTOP of the owner past its lease, like a GC pause or a suspended VM: the other node recovers
 * the execution and restarts it; then the frozen owner wakes up (SIGCONT) with a chunk in flight and
 * must commit nothing more: its step rows were resolved by the recovery, its chunk transaction is
 * refused and rolled back with its business writes, and its log says why it gave the work up.
 * Woken after the restart completed, and woken while the restart still runs (when a zombie's
 * commit would collide with the restart's rows).
 */
class SuspendedOwnerTortureIT {

    static final long ORDERS = 100_000;
    static final int FILES = 4;

    /** How a woken owner may say that the execution is no longer its own. */
    private static final Pattern GAVE_UP = Pattern.compile("(?i)lease|no longer|fenc|recovered|not active|lost");

    @Test
    void anOwnerWokenAfterItsRestartCompletedCommitsNothingMore() throws Exception {
        DemoDatabase database = Torture.sharedDatabase("torture_stop_late");
        SplittableRandom random = new SplittableRandom(Torture.seed());
        Input input = Input.fresh(ORDERS, FILES);
        try (ChildApplication owner = Torture.start("sigstop-owner", Torture.node(database, "sigstop-owner"));
                ChildApplication peer = Torture.start("sigstop-peer", Torture.node(database, "sigstop-peer"))) {
            long frozen = Torture.launch(owner, input);
            Torture.awaitRows(database, input, frozen, ORDERS / 10 + random.nextLong(ORDERS / 2));
            owner.suspend();
            try {
                Torture.awaitCompleted(database, frozen, Duration.ofMinutes(2), Duration.ofSeconds(20), peer, owner);
            } catch (AssertionError e) {
                throw new AssertionError("the peer did not complete the job while its first owner was frozen", e);
            }
            long instance = database.instanceOf(frozen);
            List<StoredExecution> before = database.executions(instance);
            List<StoredStep> resolved = database.steps(frozen);

            String woken = wake(owner, database, frozen, resolved);

            assertEquals(before, database.executions(instance), "the woken owner changed no execution");
            assertEquals(resolved, database.steps(frozen), "the woken owner changed none of its step rows");
            assertEquals("system:lease", database.recoveryActor(frozen));
            Torture.assertImportedExactlyOnce(database, input);
            System.out.println("SIGSTOP, woken after the restart completed: " + woken);
            Torture.discard(database, input);
        }
    }

    @Test
    void anOwnerWokenWhileItsRestartRunsCommitsNothingMore() throws Exception {
        DemoDatabase database = Torture.sharedDatabase("torture_stop_early");
        SplittableRandom random = new SplittableRandom(Torture.seed());
        Input input = Input.fresh(ORDERS, FILES);
        try (ChildApplication owner = Torture.start("sigstop-early-owner", Torture.node(database, "sigstop-early-owner"));
                ChildApplication peer = Torture.start("sigstop-early-peer", Torture.node(database, "sigstop-early-peer"))) {
            long frozen = Torture.launch(owner, input);
            Torture.awaitRows(database, input, frozen, ORDERS / 10 + random.nextLong(ORDERS / 3));
            owner.suspend();
            Thread.sleep(100);
            long atSuspend = Torture.importedRows(database, input.day());
            long instance = database.instanceOf(frozen);
            awaitRestartProgress(database, input, instance, frozen, atSuspend, peer, owner);
            List<StoredStep> resolved = database.steps(frozen);

            String woken = wake(owner, database, frozen, resolved);

            StoredExecution completed = Torture.awaitCompleted(database, frozen, Duration.ofMinutes(2),
                    Duration.ofSeconds(20), peer, owner);
            assertEquals(List.of("FAILED", "COMPLETED"),
                    database.executions(instance).stream().map(StoredExecution::status).toList(),
                    "the recovered attempt and its restart, nothing else\n" + Torture.history(database, instance));
            assertEquals(resolved, database.steps(frozen), "the woken owner changed none of its step rows");
            Torture.assertStepsResolved(database, completed.id());
            Torture.assertImportedExactlyOnce(database, input);
            System.out.println("SIGSTOP, woken while the restart ran: " + woken);
            Torture.discard(database, input);
        }
    }

    /** Waits until the restart of the frozen execution runs and has committed chunks of its own. */
    private static void awaitRestartProgress(DemoDatabase database, Input input, long instance, long frozen,
            long atSuspend, ChildApplication peer, ChildApplication owner) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (true) {
            Optional<StoredExecution> restart = database.executions(instance).stream().filter(e -> e.id() != frozen)
                    .findFirst();
            if (restart.isPresent() && (!restart.get().active()
                    || Torture.importedRows(database, input.day()) > atSuspend)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail("the peer did not restart the execution of its frozen owner within a minute:\n"
                        + Torture.diagnosis(database, instance, peer, owner));
            }
            Thread.sleep(20);
        }
    }

    /**
     * SIGCONT, then waits (at most 20 s) until the woken owner logs why it gave the execution up, and
     * 3 s more for a late commit; returns those log lines.
     */
    private static String wake(ChildApplication owner, DemoDatabase database, long frozen, List<StoredStep> steps)
            throws Exception {
        Set<Long> ids = new HashSet<>(List.of(frozen));
        steps.forEach(step -> ids.add(step.id()));
        int before = owner.log().length();
        owner.resume();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        List<String> told = List.of();
        while (System.nanoTime() < deadline) {
            String since = owner.log().substring(before);
            told = Torture.linesMentioning(since, ids).stream().filter(line -> GAVE_UP.matcher(line).find()).toList();
            if (!told.isEmpty()) {
                break;
            }
            Thread.sleep(100);
        }
        Thread.sleep(3000);
        String since = owner.log().substring(before);
        assertFalse(told.isEmpty(), "the woken owner logged no reason for giving execution " + frozen + " up; "
                + "it logged after waking:\n" + since);
        return Torture.lines(told);
    }
}
