package io.durablebatch.runtime.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One repository statement, written with named placeholders ({@code :instanceId}) and parsed once,
 * when its store is built. A name may appear several times and is bound once; the statement runs as
 * JDBC text with {@code ?} in each place. Casts ({@code ::bigint}), string literals, quoted
 * identifiers and comments are left alone; a {@code ?} outside them is refused, so a statement is
 * bound by name or not at all.
 */
public final class SqlStatement {

    private final String owner;
    private final String name;
    private final String text;
    private final String jdbcText;
    private final String numberedText;
    private final Map<String, Parameter> parameters;

    /** A named parameter: its index in order of first appearance (from 0), and its JDBC positions. */
    record Parameter(int index, int[] positions) {
    }

    private SqlStatement(String owner, String name, String text, String jdbcText, String numberedText,
            Map<String, Parameter> parameters) {
        this.owner = owner;
        this.name = name;
        this.text = text;
        this.jdbcText = jdbcText;
        this.numberedText = numberedText;
        this.parameters = parameters;
    }

    /** Parses {@code text}, a statement of {@code owner} (a store) known there as {@code name}. */
    public static SqlStatement parse(String owner, String name, String text) {
        StringBuilder jdbc = new StringBuilder(text.length());
        StringBuilder numbered = new StringBuilder(text.length());
        Map<String, List<Integer>> positions = new LinkedHashMap<>();
        Map<String, Integer> numbers = new LinkedHashMap<>();
        int position = 0;
        int i = 0;
        while (i < text.length()) {
            int end = skipQuotedOrComment(text, i);
            if (end > i) {
                jdbc.append(text, i, end);
                numbered.append(text, i, end);
                i = end;
                continue;
            }
            char c = text.charAt(i);
            if (c == '?') {
                throw new IllegalArgumentException(owner + "." + name + ": positional '?' at " + i
                        + "; name the parameter (:name)");
            }
            if (c == ':' && i + 1 < text.length() && text.charAt(i + 1) == ':') {
                jdbc.append("::");
                numbered.append("::");
                i += 2;
                continue;
            }
            if (c == ':' && i + 1 < text.length() && Character.isJavaIdentifierStart(text.charAt(i + 1))) {
                int nameEnd = i + 1;
                while (nameEnd < text.length() && Character.isJavaIdentifierPart(text.charAt(nameEnd))) {
                    nameEnd++;
                }
                String parameter = text.substring(i + 1, nameEnd);
                positions.computeIfAbsent(parameter, unused -> new ArrayList<>()).add(++position);
                jdbc.append('?');
                numbered.append('$').append(numbers.computeIfAbsent(parameter, unused -> numbers.size() + 1));
                i = nameEnd;
                continue;
            }
            jdbc.append(c);
            numbered.append(c);
            i++;
        }
        if (positions.size() > Long.SIZE) {
            throw new IllegalArgumentException(owner + "." + name + ": more than " + Long.SIZE + " parameter names");
        }
        Map<String, Parameter> parameters = new LinkedHashMap<>();
        positions.forEach((parameter, places) -> parameters.put(parameter,
                new Parameter(parameters.size(), places.stream().mapToInt(Integer::intValue).toArray())));
        return new SqlStatement(owner, name, text, jdbc.toString(), numbered.toString(),
                Collections.unmodifiableMap(parameters));
    }

    /** The end of a string literal, quoted identifier or comment starting at {@code i}, else {@code i}. */
    private static int skipQuotedOrComment(String text, int i) {
        char c = text.charAt(i);
        if (c == '\'' || c == '"') {
            int end = i + 1;
            while (end < text.length()) {
                if (text.charAt(end) == c) {
                    // a doubled quote escapes itself
                    if (end + 1 < text.length() && text.charAt(end + 1) == c) {
                        end += 2;
                        continue;
                    }
                    return end + 1;
                }
                end++;
            }
            throw new IllegalArgumentException("unterminated " + c + " at " + i + " in: " + text);
        }
        if (text.startsWith("--", i)) {
            int end = text.indexOf('\n', i);
            return end < 0 ? text.length() : end;
        }
        if (text.startsWith("/*", i)) {
            int end = text.indexOf("*/", i + 2);
            if (end < 0) {
                throw new IllegalArgumentException("unterminated comment at " + i + " in: " + text);
            }
            return end + 2;
        }
        return i;
    }

    /** The store that runs this statement. */
    public String owner() {
        return owner;
    }

    /** What the store calls this statement. */
    public String name() {
        return name;
    }

    /** The statement as written, tables and lease terms substituted, with its named placeholders. */
    public String text() {
        return text;
    }

    /** The text the driver prepares: each placeholder a {@code ?}. */
    public String jdbcText() {
        return jdbcText;
    }

    /**
     * The text with each distinct name as {@code $1}, {@code $2}, … in order of first appearance: what
     * {@code PREPARE} takes, so the statement can be explained as the server plans it.
     */
    public String numberedText() {
        return numberedText;
    }

    /** The number of JDBC placeholders ({@code ?}) in {@link #jdbcText}. */
    int placeholders() {
        int count = 0;
        for (Parameter parameter : parameters.values()) {
            count += parameter.positions().length;
        }
        return count;
    }

    /** The parameter names, in order of first appearance (the {@code $n} of {@link #numberedText}). */
    public Set<String> parameterNames() {
        return parameters.keySet();
    }

    Parameter parameter(String parameter) {
        Parameter found = parameters.get(parameter);
        if (found == null) {
            throw new IllegalArgumentException(owner + "." + name + " has no parameter :" + parameter
                    + "; it has " + parameters.keySet());
        }
        return found;
    }

    @Override
    public String toString() {
        return owner + "." + name;
    }
}
