package io.durablebatch.runtime.jakarta.plan;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Whether two exit status patterns ({@code *} any run of characters, {@code ?} one character) match
 * some exit status in common. Only such a pair can be taken in another order by the kernel (most
 * specific pattern first) than by JSL (first in document order).
 */
final class PatternOverlap {

    private PatternOverlap() {
    }

    /**
     * A walk over the pairs of positions in both patterns, reading one common character at a time; a
     * {@code *} may also be left without reading. Both patterns used up at once means a common match.
     */
    static boolean overlap(String left, String right) {
        int width = right.length() + 1;
        boolean[] seen = new boolean[(left.length() + 1) * width];
        Deque<int[]> pending = new ArrayDeque<>();
        pending.push(new int[] { 0, 0 });
        while (!pending.isEmpty()) {
            int[] at = pending.pop();
            int l = at[0];
            int r = at[1];
            if (seen[l * width + r]) {
                continue;
            }
            seen[l * width + r] = true;
            if (l == left.length() && r == right.length()) {
                return true;
            }
            boolean leftStar = l < left.length() && left.charAt(l) == '*';
            boolean rightStar = r < right.length() && right.charAt(r) == '*';
            if (leftStar) {
                pending.push(new int[] { l + 1, r });
            }
            if (rightStar) {
                pending.push(new int[] { l, r + 1 });
            }
            if (l < left.length() && r < right.length() && compatible(left.charAt(l), right.charAt(r))) {
                // a star reads the character and stays; anything else moves on
                pending.push(new int[] { leftStar ? l : l + 1, rightStar ? r : r + 1 });
            }
        }
        return false;
    }

    private static boolean compatible(char left, char right) {
        return left == '*' || right == '*' || left == '?' || right == '?' || left == right;
    }
}
