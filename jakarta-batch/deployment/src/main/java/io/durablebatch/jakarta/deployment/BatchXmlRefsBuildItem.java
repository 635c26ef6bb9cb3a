package io.durablebatch.jakarta.deployment;

import java.util.Map;
import java.util.TreeMap;

import io.quarkus.builder.item.SimpleBuildItem;

/** The {@code <ref id class>} entries of every {@code META-INF/batch.xml} of the application: JSL ref id to class. */
public final class BatchXmlRefsBuildItem extends SimpleBuildItem {

    private final Map<String, String> refs;

    BatchXmlRefsBuildItem(Map<String, String> refs) {
        this.refs = Map.copyOf(refs);
    }

    public Map<String, String> refs() {
        return new TreeMap<>(refs);
    }
}
