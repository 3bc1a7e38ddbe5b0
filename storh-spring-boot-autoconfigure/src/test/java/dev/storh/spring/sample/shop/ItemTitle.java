package dev.storh.spring.sample.shop;

import org.springframework.beans.factory.annotation.Value;

/**
 * An interface projection of {@link Item}.
 */
public interface ItemTitle {

    String getTitle();

    Long getPrice();

    @Value("#{target.title + ' by ' + target.maker.name}")
    String getLabel();

}
