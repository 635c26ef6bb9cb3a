package io.durablebatch.jakarta.runtime.jsl;

import java.util.Objects;
import java.util.Optional;

/**
 * Where an element of a job XML was written: the resource path, the line its start tag ends on, its name
 * and its {@code id} (or {@code ref}, {@code name}) when it has one, so a message points at it.
 */
public record JslLocation(String file, int line, String element, Optional<String> name) {

    public JslLocation {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(element, "element");
        Objects.requireNonNull(name, "name");
    }

    /** A place in the file that is no element (the XML itself is broken there); line 0 is the whole file. */
    public static JslLocation inFile(String file, int line) {
        return new JslLocation(file, line, "", Optional.empty());
    }

    /** {@code META-INF/batch-jobs/x.xml line 12: <step id="s1">} */
    @Override
    public String toString() {
        String where = line > 0 ? file + " line " + line : file;
        return element.isEmpty() ? where : where + ": <" + element + name.map(n -> " " + n).orElse("") + ">";
    }
}
