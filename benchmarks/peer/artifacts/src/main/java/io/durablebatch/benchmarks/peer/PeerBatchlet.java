package io.durablebatch.benchmarks.peer;

import jakarta.batch.api.AbstractBatchlet;
import jakarta.inject.Named;

/** Does nothing: a launch of its job costs what the batch runtime costs. */
@Named
public class PeerBatchlet extends AbstractBatchlet {

    @Override
    public String process() {
        return "COMPLETED";
    }
}
