package io.durablebatch.runtime.repository;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import io.durablebatch.Checks;
import io.durablebatch.runtime.sql.TransactionGuard;

/**
 * The rules every repository call obeys before it reaches a store, in one place: no argument is
 * null (refused with the parameter's name, nothing changed), and the call runs inside the caller's
 * active JTA transaction (refused with {@code TRANSACTION_REQUIRED} otherwise). What a single call
 * checks beyond that (ranges, the elements of a list) stays in the call.
 */
@RepositoryCall
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE)
public class RepositoryCallInterceptor {

    private final TransactionGuard transactions;
    private final Map<Method, String[]> parameterNames = new ConcurrentHashMap<>();

    RepositoryCallInterceptor(TransactionGuard transactions) {
        this.transactions = transactions;
    }

    @AroundInvoke
    Object checked(InvocationContext call) throws Exception {
        Method method = call.getMethod();
        Object[] arguments = call.getParameters();
        String[] names = parameterNames.computeIfAbsent(method,
                m -> Arrays.stream(m.getParameters()).map(Parameter::getName).toArray(String[]::new));
        for (int i = 0; i < arguments.length; i++) {
            Checks.notNull(arguments[i], names[i]);
        }
        transactions.requireActive(method.getName());
        return call.proceed();
    }
}
