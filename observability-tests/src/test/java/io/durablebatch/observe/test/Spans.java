package io.durablebatch.observe.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;

/** The in-memory exporter (the application's only span exporter), and reading what it exported. */
@Singleton
public class Spans {

    @Produces
    @Singleton
    InMemorySpanExporter exporter() {
        return InMemorySpanExporter.create();
    }

    /** Waits until the exported spans hold one that {@code test} accepts; returns them all. */
    static List<SpanData> awaitSpan(InMemorySpanExporter exporter, Predicate<SpanData> test) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            List<SpanData> spans = exporter.getFinishedSpanItems();
            if (spans.stream().anyMatch(test)) {
                return spans;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no such span among " + exporter.getFinishedSpanItems().stream()
                .map(SpanData::getName).toList());
    }

    static List<SpanData> childrenOf(List<SpanData> spans, SpanData parent) {
        return spans.stream().filter(span -> span.getParentSpanId().equals(parent.getSpanId())
                && span.getTraceId().equals(parent.getTraceId()))
                .sorted(Comparator.comparing(SpanData::getStartEpochNanos)).toList();
    }

    static long attribute(SpanData span, String key) {
        Long value = span.getAttributes().get(AttributeKey.longKey(key));
        if (value == null) {
            throw new AssertionError(span.getName() + " has no " + key + ": " + span.getAttributes());
        }
        return value;
    }

    static String text(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    /** The span tree under {@code root}, one span a line, as operating.adoc shows it. */
    static String tree(List<SpanData> spans, SpanData root) {
        List<String> lines = new ArrayList<>();
        render(spans, root, "", lines, root.getStartEpochNanos());
        return String.join("\n", lines);
    }

    private static void render(List<SpanData> spans, SpanData span, String indent, List<String> lines, long origin) {
        String attributes = span.getAttributes().asMap().entrySet().stream()
                .filter(entry -> entry.getKey().getKey().startsWith("durablebatch.")
                        || entry.getKey().getKey().startsWith("exception."))
                .map(entry -> entry.getKey().getKey().substring(entry.getKey().getKey().indexOf('.') + 1) + "="
                        + entry.getValue())
                .sorted().collect(Collectors.joining(" "));
        lines.add(String.format("%s%s  [+%d ms, %d ms, %s] %s%s", indent, span.getName(),
                (span.getStartEpochNanos() - origin) / 1_000_000,
                (span.getEndEpochNanos() - span.getStartEpochNanos()) / 1_000_000, span.getStatus().getStatusCode(),
                attributes, span.getLinks().isEmpty() ? ""
                        : " links=" + span.getLinks().stream().map(link -> link.getAttributes().get(
                                AttributeKey.stringKey("durablebatch.link")) + ":"
                                + link.getSpanContext().getTraceId()
                                        .substring(0, 8))
                                .toList()));
        for (SpanData child : childrenOf(spans, span)) {
            render(spans, child, indent + "  ", lines, origin);
        }
    }
}
