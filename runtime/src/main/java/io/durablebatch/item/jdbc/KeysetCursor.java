package io.durablebatch.item.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.durablebatch.Checks;
import io.durablebatch.execution.Checkpoint;
import io.durablebatch.item.support.CheckpointFormat;

/**
 * The position of a keyset reader ({@link JdbcPagingItemReader}, {@code JpaKeysetItemReader}): the
 * page it holds, the key of the last item it returned, and the checkpoint that key becomes. The
 * reader supplies the query of a page after a key; the cursor refuses a key that repeats, since a
 * page boundary between equal keys would lose items.
 *
 * @param <E> what fetching a page may throw
 */
public final class KeysetCursor<T, E extends Exception> {

    /** Fetches the page after {@code afterKey} ({@code null}: the first page) into {@code cursor}. */
    @FunctionalInterface
    public interface PageQuery<T, E extends Exception> {
        void fetch(Object afterKey, KeysetCursor<T, E> cursor) throws E;
    }

    private final CheckpointFormat format;
    private final SortKey sortKey;
    private final int pageSize;
    private final PageQuery<T, E> query;
    private final String reader;

    private final List<T> page = new ArrayList<>();
    private final List<Object> pageKeys = new ArrayList<>();
    private int next;
    private boolean lastPage;
    private Object lastKey;
    private boolean open;

    /** @param reader what the reader reads, for the message when it is used unopened */
    public KeysetCursor(CheckpointFormat format, SortKey sortKey, int pageSize, PageQuery<T, E> query, String reader) {
        this.format = Checks.notNull(format, "format");
        this.sortKey = Checks.notNull(sortKey, "sortKey");
        this.pageSize = (int) Checks.positive(pageSize, "pageSize");
        this.query = Checks.notNull(query, "query");
        this.reader = reader;
    }

    /** Positions the cursor after the checkpoint's key, or at the start. */
    public void open(Optional<Checkpoint> checkpoint) {
        Checks.notNull(checkpoint, "checkpoint");
        lastKey = null;
        if (checkpoint.isPresent()) {
            byte[] payload = format.decode(checkpoint.get());
            try {
                lastKey = payload.length == 0 ? null : sortKey.decode(payload);
            } catch (IllegalArgumentException e) {
                throw format.refused(checkpoint.get(), e.getMessage());
            }
        }
        clearPage();
        lastPage = false;
        open = true;
    }

    /** The next item, fetching the next page when this one is used up; {@code null} at the end. */
    public T read() throws E {
        requireOpen();
        if (next == page.size()) {
            if (lastPage) {
                return null;
            }
            clearPage();
            query.fetch(lastKey, this);
            lastPage = page.size() < pageSize;
            if (page.isEmpty()) {
                return null;
            }
        }
        lastKey = pageKeys.get(next);
        return page.get(next++);
    }

    /** Adds the next item of the page being fetched, with its key. */
    public void add(Object key, T item) {
        if (key == null) {
            throw new IllegalStateException("sort key " + sortKey.column() + " is null: it must be unique and not null");
        }
        if (key.equals(pageKeys.isEmpty() ? lastKey : pageKeys.get(pageKeys.size() - 1))) {
            // equal keys sort next to each other: a page boundary between them would lose items
            throw new IllegalStateException("sort key " + sortKey.column() + " is not unique: two rows have " + key);
        }
        page.add(item);
        pageKeys.add(key);
    }

    /** The position just after the last item returned. */
    public Checkpoint checkpoint() {
        requireOpen();
        return format.encode(lastKey == null ? new byte[0] : sortKey.encode(lastKey));
    }

    public void close() {
        open = false;
        clearPage();
    }

    private void clearPage() {
        page.clear();
        pageKeys.clear();
        next = 0;
    }

    private void requireOpen() {
        if (!open) {
            throw new IllegalStateException("the reader of " + reader + " is not open");
        }
    }
}
