package io.durablebatch.item.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

import org.junit.jupiter.api.Test;

class ListItemWriterTest {

    @Test
    void keepsEachChunkAsWrittenAndTheItemsInOrder() {
        ListItemWriter<Integer> writer = new ListItemWriter<>();
        List<Integer> chunk = new ArrayList<>(List.of(1, 2));
        writer.write(chunk);
        chunk.clear();
        writer.write(List.of(3));
        assertEquals(List.of(List.of(1, 2), List.of(3)), writer.chunks());
        assertEquals(List.of(1, 2, 3), writer.items());
    }

    @Test
    void keepsEveryChunkOfConcurrentWriters() throws Exception {
        ListItemWriter<Integer> writer = new ListItemWriter<>();
        int threads = 4;
        int chunksPerThread = 500;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int worker = t;
            workers.add(new Thread(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                for (int c = 0; c < chunksPerThread; c++) {
                    writer.write(List.of(worker, c));
                }
            }));
        }
        workers.forEach(Thread::start);
        for (Thread worker : workers) {
            worker.join();
        }
        assertEquals(threads * chunksPerThread, writer.chunks().size());
        assertEquals(threads * chunksPerThread * 2, writer.items().size());
    }
}
