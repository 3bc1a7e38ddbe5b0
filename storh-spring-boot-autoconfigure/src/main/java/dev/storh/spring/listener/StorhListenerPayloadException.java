package dev.storh.spring.listener;

/**
 * A job's payload cannot be converted to the listener method's parameter type. Retrying cannot
 * help, so the container dead-letters the job at once, with this exception's class and message.
 */
public class StorhListenerPayloadException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message names the job, the target type and the method
     * @param cause the mapper's exception
     */
    public StorhListenerPayloadException(String message, Throwable cause) {
        super(message, cause);
    }

}
