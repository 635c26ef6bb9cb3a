package io.durablebatch.runtime.jakarta.plan;

import static io.durablebatch.runtime.jakarta.plan.PatternOverlap.overlap;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Two exit status patterns overlap when some exit status matches both. */
class PatternOverlapTest {

    @Test
    void literalsOverlapOnlyWhenEqual() {
        assertTrue(overlap("DONE", "DONE"));
        assertFalse(overlap("DONE", "DONE2"));
        assertFalse(overlap("", "A"));
    }

    @Test
    void aStarMatchesAnyRunIncludingNone() {
        assertTrue(overlap("*", "ANYTHING"));
        assertTrue(overlap("DONE*", "DONE"));
        assertTrue(overlap("DONE*", "DONE_BADLY"));
        assertFalse(overlap("DONE*", "FAILED"));
        assertTrue(overlap("*A", "B*"), "BA");
        assertFalse(overlap("*A", "*B"));
        assertTrue(overlap("A*C", "*B*"), "ABC");
    }

    @Test
    void aQuestionMarkMatchesExactlyOneCharacter() {
        assertTrue(overlap("?", "X"));
        assertFalse(overlap("?", "XY"));
        assertFalse(overlap("?", ""));
        assertTrue(overlap("A?C", "*C"));
        assertFalse(overlap("A??", "A?"));
    }
}
