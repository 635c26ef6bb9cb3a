package io.durablebatch.jakarta.runtime.jsl;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The children an element admits, as the schema's sequence: groups in order, each allowed once or
 * many times (a group of several names is a choice). One instance follows one element's children.
 */
final class ChildOrder {

    private record Group(Set<String> names, boolean repeatable) {
    }

    private final List<Group> groups = new ArrayList<>();
    private int current = -1;
    private String previous;

    ChildOrder once(String... names) {
        groups.add(new Group(Set.of(names), false));
        return this;
    }

    ChildOrder many(String... names) {
        groups.add(new Group(Set.of(names), true));
        return this;
    }

    /**
     * Records the next child.
     *
     * @return why the child is refused here, or {@code null} when it is accepted
     */
    String accept(String name, String parent) {
        for (int index = 0; index < groups.size(); index++) {
            if (!groups.get(index).names().contains(name)) {
                continue;
            }
            if (index < current) {
                return "must come before <" + previous + "> in <" + parent + ">";
            }
            if (index == current && !groups.get(index).repeatable()) {
                return groups.get(index).names().size() == 1 ? "may appear only once in <" + parent + ">"
                        : "only one of " + sorted(groups.get(index).names()) + " may appear in <" + parent + ">";
            }
            current = index;
            previous = name;
            return null;
        }
        List<String> allowed = new ArrayList<>();
        groups.forEach(group -> allowed.addAll(group.names()));
        return allowed.isEmpty() ? "<" + parent + "> has no child elements"
                : "not allowed in <" + parent + ">; allowed: " + sorted(allowed);
    }

    private static List<String> sorted(Collection<String> names) {
        return names.stream().sorted().toList();
    }
}
