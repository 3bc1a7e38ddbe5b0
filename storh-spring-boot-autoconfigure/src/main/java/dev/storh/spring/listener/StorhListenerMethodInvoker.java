package dev.storh.spring.listener;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;

import dev.storh.StorageRecord;
import dev.storh.queue.QueueJob;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.Assert;
import org.springframework.util.ReflectionUtils;

/**
 * Calls one {@link StorhListener} method for a job: resolves each parameter by its type (the
 * {@link QueueJob}, its {@link StorageRecord}, or the payload converted by Jackson) and invokes the
 * method. Thread-safe: the mapper is, and nothing else changes after construction.
 */
final class StorhListenerMethodInvoker {

    private enum Kind {

        JOB, RECORD, PAYLOAD

    }

    private final Object bean;

    private final Method method;

    private final JsonMapper mapper;

    private final Kind[] kinds;

    private final JavaType[] types;

    /**
     * @param endpoint the target bean and its annotated method (of the bean's class or a proxy's
     * interface)
     * @param mapper converts payloads
     * @throws IllegalStateException naming the method when it has more than one payload parameter
     */
    StorhListenerMethodInvoker(StorhListenerEndpoint endpoint, JsonMapper mapper) {
        Assert.notNull(endpoint, "'endpoint' must not be null");
        Assert.notNull(mapper, "'mapper' must not be null");
        this.bean = endpoint.bean();
        this.method = endpoint.method();
        this.mapper = mapper;
        Class<?>[] parameters = this.method.getParameterTypes();
        Type[] generic = this.method.getGenericParameterTypes();
        this.kinds = new Kind[parameters.length];
        this.types = new JavaType[parameters.length];
        boolean payload = false;
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i] == QueueJob.class) {
                this.kinds[i] = Kind.JOB;
            }
            else if (parameters[i] == StorageRecord.class) {
                this.kinds[i] = Kind.RECORD;
            }
            else {
                if (payload) {
                    throw new IllegalStateException("@StorhListener method " + describe(this.method)
                            + " has more than one payload parameter; use one payload type, plus QueueJob or "
                            + "StorageRecord parameters");
                }
                payload = true;
                this.kinds[i] = Kind.PAYLOAD;
                this.types[i] = mapper.constructType(generic[i]);
            }
        }
        ReflectionUtils.makeAccessible(this.method);
    }

    /**
     * @param job the claimed job
     * @throws StorhListenerPayloadException when the payload cannot be converted
     * @throws Throwable whatever the method throws
     */
    void invoke(QueueJob job) throws Throwable {
        Object[] args = new Object[this.kinds.length];
        for (int i = 0; i < args.length; i++) {
            args[i] = switch (this.kinds[i]) {
                case JOB -> job;
                case RECORD -> job.record();
                case PAYLOAD -> convert(job, this.types[i]);
            };
        }
        try {
            this.method.invoke(this.bean, args);
        }
        catch (InvocationTargetException ex) {
            throw ex.getTargetException();
        }
    }

    private Object convert(QueueJob job, JavaType type) {
        try {
            return this.mapper.convertValue(job.payload(), type);
        }
        catch (JacksonException | IllegalArgumentException ex) {
            throw new StorhListenerPayloadException("Cannot convert the payload of job " + job.id() + " to "
                    + type.toCanonical() + " for " + describe(this.method) + ": " + ex.getMessage(), ex);
        }
    }

    static String describe(Method method) {
        return method.getDeclaringClass().getName() + "." + method.getName();
    }

}
