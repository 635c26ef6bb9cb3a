package io.durablebatch.item.file;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The names of a file's fields with their positions, shared by all the records of one file. */
final class FieldNames {

    private final List<String> names;
    private final Map<String, Integer> positions;

    private FieldNames(List<String> names, Map<String, Integer> positions) {
        this.names = names;
        this.positions = positions;
    }

    /** The names, which must be non-blank and unique. */
    static FieldNames of(List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("names must not be empty");
        }
        Map<String, Integer> positions = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("names must not be blank, name " + (i + 1) + " is");
            }
            if (positions.putIfAbsent(name, i) != null) {
                throw new IllegalArgumentException("names must be unique, '" + name + "' appears twice");
            }
        }
        return new FieldNames(List.copyOf(names), Map.copyOf(positions));
    }

    List<String> list() {
        return names;
    }

    int size() {
        return names.size();
    }

    int position(String name) {
        Integer position = positions.get(name);
        if (position == null) {
            throw new IllegalArgumentException("no field named '" + name + "', the fields are " + names);
        }
        return position;
    }
}
