package io.durablebatch.benchmarks.peer;

import jakarta.batch.api.chunk.ItemProcessor;
import jakarta.inject.Named;

/** Turns a number into the row the writer inserts. */
@Named
public class PeerItemProcessor implements ItemProcessor {

    @Override
    public Object processItem(Object item) {
        long id = (Long) item;
        return new PeerItem(id, "item-" + id, id * 7 % 1000);
    }
}
