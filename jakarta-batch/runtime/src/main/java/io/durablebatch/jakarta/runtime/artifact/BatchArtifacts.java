package io.durablebatch.jakarta.runtime.artifact;

import java.lang.reflect.InvocationTargetException;
import java.util.Map;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InstanceHandle;

/**
 * Finds the batch artifact a JSL {@code ref} names, in the specification's order: the CDI bean
 * {@code @Named} so; else the class {@code META-INF/batch.xml} maps the ref to, or else the class of
 * that name: its CDI bean if it is one, else a new instance the batch runtime injects itself.
 */
public final class BatchArtifacts {

    private final Map<String, String> batchXmlRefs;

    /** @param batchXmlRefs the {@code <ref id class>} entries of {@code META-INF/batch.xml} */
    public BatchArtifacts(Map<String, String> batchXmlRefs) {
        this.batchXmlRefs = Map.copyOf(batchXmlRefs);
    }

    /**
     * The artifact for {@code ref}, created with {@code current} bound; close it after use (a
     * {@code @Dependent} bean is destroyed then).
     *
     * @throws IllegalStateException naming the ref and where it is written if nothing answers to it,
     *         or if what answers is no {@code type}
     */
    public <T> Resolved<T> resolve(String ref, Class<T> type, CurrentArtifact current) throws Exception {
        return current.call(() -> {
            ArcContainer container = Arc.container();
            InstanceHandle<Object> named = container.instance(ref);
            if (named.isAvailable()) {
                return checked(ref, type, current, named.get(), named);
            }
            String className = batchXmlRefs.getOrDefault(ref, ref);
            Class<?> artifactClass;
            try {
                artifactClass = Class.forName(className, true, Thread.currentThread().getContextClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("no batch artifact answers to ref \"" + ref + "\" of " + current.where()
                        + ": no CDI bean is @Named so, " + (batchXmlRefs.containsKey(ref) ? "and the class "
                                + className + " that META-INF/batch.xml maps it to does not exist"
                                : "META-INF/batch.xml maps no ref of that id, and no class has that name"));
            }
            InstanceHandle<?> bean = container.instance(artifactClass);
            if (bean.isAvailable()) {
                return checked(ref, type, current, bean.get(), bean);
            }
            return checked(ref, type, current, created(artifactClass, current), null);
        });
    }

    private static Object created(Class<?> artifactClass, CurrentArtifact current) throws Exception {
        Object artifact;
        try {
            artifact = artifactClass.getDeclaredConstructor().newInstance();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("batch artifact " + artifactClass.getName() + " of " + current.where()
                    + " is no CDI bean and has no constructor without parameters", e);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
        BatchProperties.inject(artifact, current);
        return artifact;
    }

    private static <T> Resolved<T> checked(String ref, Class<T> type, CurrentArtifact current, Object artifact,
            InstanceHandle<?> handle) {
        if (!type.isInstance(artifact)) {
            if (handle != null) {
                handle.close();
            }
            throw new IllegalStateException("batch artifact \"" + ref + "\" of " + current.where() + " is a "
                    + artifact.getClass().getName() + ", not a " + type.getName());
        }
        return new Resolved<>(type.cast(artifact), handle);
    }

    /** A resolved artifact; closing it destroys a {@code @Dependent} bean. */
    public static final class Resolved<T> implements AutoCloseable {
        private final T artifact;
        private final InstanceHandle<?> handle;

        Resolved(T artifact, InstanceHandle<?> handle) {
            this.artifact = artifact;
            this.handle = handle;
        }

        public T get() {
            return artifact;
        }

        @Override
        public void close() {
            if (handle != null) {
                handle.close();
            }
        }
    }
}
