package io.durablebatch.benchmarks.peer;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import javax.sql.DataSource;

import jakarta.transaction.TransactionManager;

/**
 * The ceiling of the chunk workload ({@code peer.api=bare}): the same reader, processor and writer,
 * driven by a plain loop on the caller's thread with no batch runtime at all. Each chunk of
 * {@value #ITEM_COUNT} items is processed and written in one JTA transaction (the
 * {@code TransactionManager}'s begin and commit, as a batch runtime runs a chunk); nothing is recorded,
 * no checkpoint is asked for. Only the chunk job runs this way.
 */
final class BareChunks implements PeerLaunches {

    /** The job XML's item-count. */
    private static final int ITEM_COUNT = 1000;

    private final DataSource dataSource;
    private final TransactionManager transaction;
    private long written;
    private long asked;

    BareChunks(DataSource dataSource, TransactionManager transaction) {
        this.dataSource = dataSource;
        this.transaction = transaction;
    }

    @Override
    public long launchAndAwait(String job, Properties parameters) throws Exception {
        if (!job.equals("peer-chunk")) {
            throw new UnsupportedOperationException("the bare loop runs the chunk job only, not " + job);
        }
        PeerItemReader reader = new PeerItemReader();
        reader.items = parameters.getProperty("items");
        PeerItemProcessor processor = new PeerItemProcessor();
        PeerItemWriter writer = new PeerItemWriter();
        writer.dataSource = dataSource;
        reader.open(null);
        List<Object> read = new ArrayList<>(ITEM_COUNT);
        written = 0;
        asked = Long.parseLong(reader.items);
        boolean end = false;
        while (!end) {
            read.clear();
            Object item;
            while (read.size() < ITEM_COUNT && (item = reader.readItem()) != null) {
                read.add(item);
            }
            end = read.size() < ITEM_COUNT;
            transaction.begin();
            try {
                List<Object> processed = new ArrayList<>(read.size());
                for (Object each : read) {
                    processed.add(processor.processItem(each));
                }
                writer.writeItems(processed);
            } catch (Exception | Error e) {
                transaction.rollback();
                throw e;
            }
            transaction.commit();
            written += read.size();
        }
        return 0;
    }

    /** Whether the last loop read and wrote every item it was asked for. */
    @Override
    public boolean completed(long execution) {
        return written == asked;
    }
}
