package dev.storh.spring.data.repository.support;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

import org.springframework.data.repository.core.RepositoryInformation;
import org.springframework.util.ReflectionUtils;

/**
 * The last advice a storh repository proxy runs before Spring Data's own: a call of a CRUD or
 * paging method that the base class {@link SimpleStorhRepository} implements goes straight to the
 * repository's target instead of through Spring Data's query, composition and invoker layers,
 * which would look the method up again on every call and then call the same target method.
 * <p>
 * A method is sent straight to the target only when Spring Data would call the base class's
 * method with the same arguments and return its result unchanged: an interface declares the
 * method, it is neither a default method nor a query method, no repository fragment (custom
 * implementation) provides it, and the base class's method declares the same return type (so no
 * result conversion applies). While any repository method invocation listener is registered
 * (metrics), every call takes Spring Data's path, which reports to the listeners. Every advice
 * before this one (validation, transactions, events, exception translation) runs as before.
 * Thread-safe.
 */
final class BaseMethodShortcut implements MethodInterceptor {

    private final Object target;

    private final RepositoryInformation information;

    private final BooleanSupplier listening;

    /** The target method a repository method goes straight to; empty for a method that must not. */
    private final ConcurrentHashMap<Method, Optional<Method>> direct = new ConcurrentHashMap<>();

    /**
     * @param target the repository's target, a {@link SimpleStorhRepository}
     * @param information the repository's information (fragments, query methods)
     * @param listening whether invocation listeners are registered now
     */
    BaseMethodShortcut(Object target, RepositoryInformation information, BooleanSupplier listening) {
        this.target = target;
        this.information = information;
        this.listening = listening;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Method method = invocation.getMethod();
        Optional<Method> targetMethod = this.direct.get(method);
        if (targetMethod == null) {
            targetMethod = this.direct.computeIfAbsent(method, this::targetMethod);
        }
        if (targetMethod.isEmpty() || this.listening.getAsBoolean()) {
            return invocation.proceed();
        }
        try {
            return targetMethod.get().invoke(this.target, invocation.getArguments());
        }
        catch (InvocationTargetException ex) {
            throw ex.getTargetException();
        }
    }

    private Optional<Method> targetMethod(Method method) {
        if (!method.getDeclaringClass().isInterface() || method.isDefault() || this.information.isQueryMethod(method)
                || this.information.isCustomMethod(method) || !this.information.isBaseClassMethod(method)) {
            return Optional.empty();
        }
        Method targetMethod = this.information.getTargetClassMethod(method);
        if (targetMethod == null || targetMethod.getReturnType() != method.getReturnType()
                || !targetMethod.getDeclaringClass().isInstance(this.target)) {
            return Optional.empty();
        }
        ReflectionUtils.makeAccessible(targetMethod);
        return Optional.of(targetMethod);
    }

}
