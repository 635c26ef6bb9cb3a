package io.durablebatch.benchmarks;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.OptionalLong;

import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.ItemReader;

/**
 * The benchmark's input: items {@code [from, to)}, generated, so reading costs nothing and the
 * figures measure the commit path. The checkpoint is the next id.
 */
final class EtlItems implements ItemReader<EtlItems.Item> {

    /** One row of {@code etl_target}. */
    record Item(long id, String payload) {
    }

    private final long from;
    private final long to;
    private long next;

    EtlItems(long from, long to) {
        this.from = from;
        this.to = to;
    }

    static String payload(long id) {
        return "order " + id + " of the chunk ETL benchmark, fifty-odd characters";
    }

    @Override
    public void open(Optional<Checkpoint> checkpoint) {
        next = checkpoint.map(c -> ByteBuffer.wrap(c.bytes()).getLong()).orElse(from);
    }

    @Override
    public Item read() {
        return next < to ? new Item(next, payload(next++)) : null;
    }

    @Override
    public Checkpoint checkpoint() {
        return Checkpoint.of(ByteBuffer.allocate(Long.BYTES).putLong(next).array());
    }

    @Override
    public OptionalLong size() {
        return OptionalLong.of(to - from);
    }
}
