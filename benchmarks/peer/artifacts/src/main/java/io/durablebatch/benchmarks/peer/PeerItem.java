package io.durablebatch.benchmarks.peer;

/** One synthetic item as the writer inserts it. */
public record PeerItem(long id, String name, long amount) {
}
