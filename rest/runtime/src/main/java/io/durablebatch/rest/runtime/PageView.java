package io.durablebatch.rest.runtime;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.durablebatch.repository.Page;

/**
 * One page of a listing; {@code next}, absent on the last page, is the {@code cursor} of the page
 * after it (also in the {@code Link: <...>; rel="next"} header).
 *
 * @param <T> the listed items
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record PageView<T>(List<T> items, Optional<String> next) {

    static <S, T> PageView<T> of(Page<S> page, Function<S, T> view) {
        return new PageView<>(page.items().stream().map(view).toList(), page.next().map(cursor -> cursor.value()));
    }
}
