package dev.storh.sample.cities;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The sample's REST controllers answer a request they refuse ({@link IllegalArgumentException}:
 * a bad parameter or id) with 400 and {@code {"error": <message>}}; each controller maps a
 * {@code StorageException} to its own status.
 */
@RestControllerAdvice(assignableTypes = {CityController.class, ActivityController.class})
class ErrorResponses {

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<Map<String, String>> badRequest(IllegalArgumentException e) {
        return error(HttpStatus.BAD_REQUEST, e);
    }

    /**
     * @param status the response status
     * @param e the failure, whose message the body carries
     * @return the response {@code {"error": <message>}}
     */
    static ResponseEntity<Map<String, String>> error(HttpStatus status, Exception e) {
        return ResponseEntity.status(status).body(Map.of("error", String.valueOf(e.getMessage())));
    }
}
