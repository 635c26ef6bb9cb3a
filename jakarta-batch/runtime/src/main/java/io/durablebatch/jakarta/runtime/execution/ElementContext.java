package io.durablebatch.jakarta.runtime.execution;

import java.util.Map;
import java.util.Properties;

/** What the job's and a step's context share: the element's resolved properties and the transient user data. */
abstract class ElementContext {

    private final Map<String, String> properties;
    private volatile Object transientUserData;

    ElementContext(Map<String, String> properties) {
        this.properties = Map.copyOf(properties);
    }

    public Object getTransientUserData() {
        return transientUserData;
    }

    public void setTransientUserData(Object data) {
        this.transientUserData = data;
    }

    /** The element's {@code <properties>}, resolved for this execution; a copy. */
    public Properties getProperties() {
        Properties copy = new Properties();
        copy.putAll(properties);
        return copy;
    }
}
