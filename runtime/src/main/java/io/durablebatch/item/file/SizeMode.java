package io.durablebatch.item.file;

/** What {@link DelimitedFileItemReader#size()} reports, and what it costs to know it. */
public enum SizeMode {

    /** No size: progress is reported without an ETA. Costs nothing. */
    UNKNOWN,
    /**
     * An estimate: the file's size divided by the mean length of the lines in its first 64 KiB
     * (exact when the file is smaller). Costs one read of at most 64 KiB.
     */
    ESTIMATED,
    /** The exact number of records, counted by one scan of the whole file on the first call. */
    COUNTED
}
