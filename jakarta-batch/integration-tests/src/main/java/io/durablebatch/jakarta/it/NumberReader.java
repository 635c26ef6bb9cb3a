package io.durablebatch.jakarta.it;

import java.io.Serializable;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/** Reads 1..count; its checkpoint is the last number read, so a restart goes on after it. */
@Named
public class NumberReader extends AbstractItemReader {

    @Inject
    @BatchProperty
    String count;

    private long last;

    @Override
    public void open(Serializable checkpoint) {
        last = checkpoint == null ? 0 : (Long) checkpoint;
    }

    @Override
    public Object readItem() {
        return last < Long.parseLong(count) ? ++last : null;
    }

    @Override
    public Serializable checkpointInfo() {
        return last;
    }
}
