package io.durablebatch.benchmarks.peer;

import java.io.Serializable;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/** Reads the synthetic items 1..items; its checkpoint is the last one read. */
@Named
public class PeerItemReader extends AbstractItemReader {

    @Inject
    @BatchProperty
    String items;

    private long last;
    private long count;

    @Override
    public void open(Serializable checkpoint) {
        last = checkpoint == null ? 0 : (Long) checkpoint;
        count = Long.parseLong(items);
    }

    @Override
    public Object readItem() {
        return last < count ? ++last : null;
    }

    @Override
    public Serializable checkpointInfo() {
        return last;
    }
}
