package io.durablebatch.runtime.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The fire times of a cron expression in a time zone, daylight-saving changes included. */
class FireTimesTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static Instant berlin(String localDateTime) {
        return ZonedDateTime.of(java.time.LocalDateTime.parse(localDateTime), BERLIN).toInstant();
    }

    @Test
    void aFireTimeClocksSkipOverDoesNotFireThatDay() {
        // 2026-03-29: Berlin's clocks jump from 02:00 to 03:00, so 02:30 does not exist that day
        FireTimes times = FireTimes.parse("0 30 2 * * ?", "quartz", BERLIN);
        assertEquals(List.of(berlin("2026-03-28T02:30:00"), berlin("2026-03-30T02:30:00")),
                times.next(berlin("2026-03-27T12:00:00"), 2));
    }

    @Test
    void aFireTimeClocksPassTwiceFiresOnce() {
        // 2026-10-25: Berlin's clocks fall back from 03:00 to 02:00, so 02:30 happens twice
        FireTimes times = FireTimes.parse("0 30 2 * * ?", "quartz", BERLIN);
        List<Instant> next = times.next(berlin("2026-10-24T12:00:00"), 2);
        // the first 02:30 (summer time, 00:30 UTC), not the second one an hour later
        assertEquals(List.of(Instant.parse("2026-10-25T00:30:00Z"), Instant.parse("2026-10-26T01:30:00Z")), next);
        assertEquals(java.time.Duration.ofHours(25), java.time.Duration.between(next.get(0), next.get(1)),
                "the day is 25 hours long and fires once");
    }

    @Test
    void anHourlyScheduleAcrossTheSpringChangeHasOneFireLess() {
        FireTimes times = FireTimes.parse("0 0 * * * ?", "quartz", BERLIN);
        // local midnight to midnight on the short day: 23 hours, so 23 fires
        FireTimes.Gap gap = times.between(berlin("2026-03-29T00:00:00"), berlin("2026-03-30T00:00:00"), 2);
        assertEquals(23, gap.count());
        assertEquals(List.of(berlin("2026-03-29T23:00:00"), berlin("2026-03-30T00:00:00")), gap.latest());
    }

    @Test
    void theSameCronInAnotherZoneFiresAtAnotherInstant() {
        Instant after = Instant.parse("2026-06-01T00:00:00Z");
        Instant utc = FireTimes.parse("0 0 2 * * ?", "quartz", ZoneId.of("UTC")).next(after).orElseThrow();
        Instant berlin = FireTimes.parse("0 0 2 * * ?", "quartz", BERLIN).next(after).orElseThrow();
        assertEquals(Instant.parse("2026-06-01T02:00:00Z"), utc);
        assertEquals(Instant.parse("2026-06-02T00:00:00Z"), berlin, "02:00 CEST is 00:00 UTC; the one of June 1 passed");
    }

    @Test
    void aGapCountsEveryMissedTimeAndKeepsTheLatest() {
        FireTimes times = FireTimes.parse("0/2 * * * * ?", "quartz", ZoneId.of("UTC"));
        FireTimes.Gap gap = times.between(Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:00:10Z"), 3);
        assertEquals(5, gap.count(), "00:02, 04, 06, 08, 10: the start excluded, the end included");
        assertEquals(List.of(Instant.parse("2026-01-01T00:00:06Z"), Instant.parse("2026-01-01T00:00:08Z"),
                Instant.parse("2026-01-01T00:00:10Z")), gap.latest());
        assertTrue(times.between(Instant.parse("2026-01-01T00:00:10Z"), Instant.parse("2026-01-01T00:00:11Z"), 3)
                .isEmpty());
    }

    @Test
    void unixSyntaxIsTheSchedulersToo() {
        FireTimes times = FireTimes.parse("30 2 * * *", "unix", ZoneId.of("UTC"));
        assertEquals(Instant.parse("2026-01-01T02:30:00Z"), times.next(Instant.parse("2026-01-01T00:00:00Z")).orElseThrow());
        assertThrows(IllegalArgumentException.class, () -> FireTimes.parse("30 2 * * *", "quartz", ZoneId.of("UTC")));
        assertThrows(IllegalArgumentException.class, () -> FireTimes.parse("0 0 23 * * *", "quartz", ZoneId.of("UTC")),
                "Quartz needs ? in one of the day fields");
    }
}
