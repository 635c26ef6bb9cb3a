package io.durablebatch.rest.runtime;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of {@link ProblemResponses} (the superclass of every {@link ApiResource}) that maps
 * an exception to a problem. It is not a
 * {@code @ServerExceptionMapper} itself: on a class without a class-level {@code @Path} Quarkus REST
 * would take that as a global mapper, for the application's resources too. The extension generates
 * each resource at the configured root as a subclass that overrides each marked method with a
 * {@code @ServerExceptionMapper}, so the mapping stays the API's alone.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface ProblemMapper {
}
