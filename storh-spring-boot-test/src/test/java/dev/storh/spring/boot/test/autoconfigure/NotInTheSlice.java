package dev.storh.spring.boot.test.autoconfigure;

import org.springframework.stereotype.Component;

/**
 * An application component that a {@link StorhTest} leaves out.
 */
@Component
class NotInTheSlice {

}
