package io.durablebatch.jakarta.runtime.execution;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * Java deserialization that resolves classes with the thread's context class loader, where the
 * application's classes are: what a step keeps (persistent user data, checkpointInfo) holds the
 * artifacts' own types. A JDK type, or one of this library, falls back to the default resolution.
 */
final class ApplicationObjectInputStream extends ObjectInputStream {

    ApplicationObjectInputStream(InputStream in) throws IOException {
        super(in);
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass description) throws IOException, ClassNotFoundException {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader != null) {
            try {
                return Class.forName(description.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                // not the application's: the default resolution finds it
            }
        }
        return super.resolveClass(description);
    }
}
