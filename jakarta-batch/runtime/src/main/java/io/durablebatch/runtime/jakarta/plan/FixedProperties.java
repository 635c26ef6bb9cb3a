package io.durablebatch.runtime.jakarta.plan;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.durablebatch.runtime.jakarta.jsl.JslProperties;
import io.durablebatch.runtime.jakarta.jsl.JslProperty;
import io.durablebatch.runtime.jakarta.jsl.Substitution;

/**
 * The job's and an element's {@code <properties>} as far as the job XML fixes them: a property whose
 * value is written out, or refers only to such properties, is the same in every execution, so an
 * attribute that shapes the plan may use it ({@code next="#{jobProperties['then']}"}). A property that
 * reads job parameters, system properties or a partition plan is not fixed, nor is one that refers to
 * it. The scoping is {@link io.durablebatch.runtime.jakarta.jsl.PropertyScope}'s: an element's
 * properties see the enclosing ones and those written before them, and may override them.
 */
final class FixedProperties {

    static final FixedProperties NONE = new FixedProperties(null, Map.of(), Set.of());

    private final FixedProperties enclosing;
    private final Map<String, String> fixed;
    private final Set<String> unfixed;

    private FixedProperties(FixedProperties enclosing, Map<String, String> fixed, Set<String> unfixed) {
        this.enclosing = enclosing;
        this.fixed = fixed;
        this.unfixed = unfixed;
    }

    /** The scope of an element with these properties, inside this one. */
    FixedProperties enter(JslProperties element) {
        Map<String, String> fixedHere = new HashMap<>();
        Set<String> unfixedHere = new HashSet<>();
        FixedProperties inner = new FixedProperties(this, fixedHere, unfixedHere);
        for (JslProperty property : element.entries()) {
            Optional<String> value = inner.resolve(property.value());
            if (value.isPresent()) {
                fixedHere.put(property.name(), value.get());
                unfixedHere.remove(property.name());
            } else {
                unfixedHere.add(property.name());
                fixedHere.remove(property.name());
            }
        }
        return new FixedProperties(this, Map.copyOf(fixedHere), Set.copyOf(unfixedHere));
    }

    /** What {@code value} is in every execution, if the job XML fixes it; empty if an execution decides it. */
    Optional<String> resolve(String value) {
        boolean[] decidedPerExecution = { false };
        String resolved = Substitution.parse(value).resolve((operator, name) -> {
            if (operator != Substitution.Operator.JOB_PROPERTIES) {
                decidedPerExecution[0] = true;
                return null;
            }
            for (FixedProperties scope = this; scope != null; scope = scope.enclosing) {
                if (scope.unfixed.contains(name)) {
                    decidedPerExecution[0] = true;
                    return null;
                }
                String found = scope.fixed.get(name);
                if (found != null) {
                    return found;
                }
            }
            // no element defines it: it resolves the same way (to its default, or to nothing) every time
            return null;
        });
        return decidedPerExecution[0] ? Optional.empty() : Optional.of(resolved);
    }
}
