package io.durablebatch.runtime.repository;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.interceptor.InterceptorBinding;

/**
 * Marks the repository's entry points: every call is checked by {@link RepositoryCallInterceptor}
 * (no null argument, an active transaction) before the method runs.
 */
@InterceptorBinding
@Retention(RUNTIME)
@Target(TYPE)
public @interface RepositoryCall {
}
