import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Draws a flame graph of a JFR recording or of folded stacks (async-profiler's {@code collapsed}
 * output, with {@code threads}): the folded stacks it drew ({@code OUTPUT.collapsed}, one
 * {@code [thread];root;...;leaf weight} line per distinct stack, the format of Brendan Gregg's
 * flamegraph.pl) and a self-contained SVG ({@code OUTPUT.svg}, a tooltip on each frame), drawn here
 * since no flame graph tool is packaged for this machine. Also prints the heaviest frames, by their
 * own weight (self) and with their callees (total), for reading the graph in a terminal.
 *
 * <pre>
 * java benchmarks/profiles/JfrFlameGraph.java INPUT(.jfr|.collapsed) OUTPUT [cpu|alloc] [STACK-REGEX] [TITLE]
 * </pre>
 *
 * From a recording, {@code cpu} weighs {@code jdk.ExecutionSample} events one each (threads running
 * Java code) and {@code alloc} weighs {@code jdk.ObjectAllocationSample} events by their sampled
 * bytes; folded stacks keep their weights. Only the stacks in which {@code STACK-REGEX} is found
 * (default: all) are drawn: a thread name ({@code durable-batch-execution}) or a frame
 * ({@code ChunkEtlBenchmark.bare}).
 */
public class JfrFlameGraph {

    /** One frame of the merged call tree. */
    static final class Node {
        final String name;
        final Map<String, Node> children = new LinkedHashMap<>();
        long weight;

        Node(String name) {
            this.name = name;
        }

        Node child(String frame) {
            return children.computeIfAbsent(frame, Node::new);
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: JfrFlameGraph INPUT(.jfr|.collapsed) OUTPUT [cpu|alloc] [STACK-REGEX] [TITLE]");
            System.exit(2);
        }
        Path input = Path.of(args[0]);
        String output = args[1];
        boolean allocations = args.length > 2 && args[2].equals("alloc");
        Pattern filter = Pattern.compile(args.length > 3 ? args[3] : "");
        String title = args.length > 4 ? args[4] : input.getFileName() + (allocations ? " (allocated bytes)" : " (CPU samples)");

        Map<String, Long> all = input.toString().endsWith(".jfr") ? fromRecording(input, allocations) : fromFolded(input);
        Map<String, Long> folded = new HashMap<>();
        Node root = new Node("all");
        all.forEach((stack, weight) -> {
            if (!filter.matcher(stack).find()) {
                return;
            }
            folded.put(stack, weight);
            Node node = root;
            root.weight += weight;
            for (String frame : stack.split(";")) {
                node = node.child(frame);
                node.weight += weight;
            }
        });
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(output + ".collapsed")))) {
            folded.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> out.println(e.getKey() + " " + e.getValue()));
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(output + ".svg")))) {
            new Svg(out, root, title, allocations ? "bytes" : "samples").write();
        }
        printHeaviest(folded, root.weight, allocations ? "bytes" : "samples");
    }

    /** The folded stacks of a recording's samples, each rooted at its thread. */
    private static Map<String, Long> fromRecording(Path recording, boolean allocations) throws IOException {
        String eventName = allocations ? "jdk.ObjectAllocationSample" : "jdk.ExecutionSample";
        Map<String, Long> folded = new HashMap<>();
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (!event.getEventType().getName().equals(eventName) || event.getStackTrace() == null) {
                    continue;
                }
                RecordedThread thread = allocations ? event.getThread() : event.getThread("sampledThread");
                String threadName = thread == null || thread.getJavaName() == null ? "?" : thread.getJavaName();
                long weight = allocations ? event.getLong("weight") : 1;
                folded.merge("[" + threadName + "];" + String.join(";", frames(event.getStackTrace())), weight,
                        Long::sum);
            }
        }
        return folded;
    }

    /** Folded stacks as async-profiler writes them; its class names in dotted form. */
    private static Map<String, Long> fromFolded(Path file) throws IOException {
        Map<String, Long> folded = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            int space = line.lastIndexOf(' ');
            if (space > 0) {
                folded.merge(line.substring(0, space).replace('/', '.'), Long.parseLong(line.substring(space + 1)),
                        Long::sum);
            }
        }
        return folded;
    }

    /** Root first; a truncated stack starts with a marker frame. */
    private static List<String> frames(RecordedStackTrace trace) {
        List<RecordedFrame> frames = trace.getFrames();
        List<String> names = new ArrayList<>(frames.size() + 1);
        if (trace.isTruncated()) {
            names.add("[truncated]");
        }
        for (int i = frames.size() - 1; i >= 0; i--) {
            RecordedFrame frame = frames.get(i);
            String type = frame.getMethod().getType().getName();
            names.add(type + "." + frame.getMethod().getName());
        }
        return names;
    }

    private static void printHeaviest(Map<String, Long> folded, long all, String unit) {
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> total = new HashMap<>();
        folded.forEach((stack, weight) -> {
            String[] frames = stack.split(";");
            self.merge(frames[frames.length - 1], weight, Long::sum);
            for (String frame : new java.util.LinkedHashSet<>(List.of(frames))) {
                total.merge(frame, weight, Long::sum);
            }
        });
        System.out.printf("%d %s in all%n%nself:%n", all, unit);
        print(self, all, 40);
        System.out.printf("%ntotal (with callees):%n");
        print(total, all, 80);
    }

    private static void print(Map<String, Long> weights, long all, int limit) {
        weights.entrySet().stream().sorted(Map.Entry.<String, Long> comparingByValue(Comparator.reverseOrder()))
                .limit(limit)
                .forEach(e -> System.out.printf("%6.2f%% %12d  %s%n", 100.0 * e.getValue() / all, e.getValue(), e.getKey()));
    }

    /** A flame graph, root at the bottom, each frame as wide as its weight. */
    static final class Svg {
        private static final int WIDTH = 1800;
        private static final int FRAME = 16;
        private static final double MIN_WIDTH = 0.5;

        private final PrintWriter out;
        private final Node root;
        private final String title;
        private final String unit;
        private final int depth;

        Svg(PrintWriter out, Node root, String title, String unit) {
            this.out = out;
            this.root = root;
            this.title = title;
            this.unit = unit;
            this.depth = depth(root);
        }

        private static int depth(Node node) {
            int deepest = 0;
            for (Node child : node.children.values()) {
                deepest = Math.max(deepest, depth(child));
            }
            return deepest + 1;
        }

        void write() {
            int height = (depth + 3) * FRAME;
            out.printf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"monospace\" "
                    + "font-size=\"11\">%n", WIDTH, height);
            out.printf("<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f8\"/>%n");
            out.printf("<text x=\"%d\" y=\"%d\" font-size=\"14\" text-anchor=\"middle\">%s</text>%n", WIDTH / 2, FRAME,
                    escape(title + ": " + root.weight + " " + unit));
            draw(root, 0, WIDTH, height - FRAME);
            out.println("</svg>");
        }

        private void draw(Node node, double x, double width, int y) {
            if (width < MIN_WIDTH) {
                return;
            }
            String label = node.name + " (" + node.weight + " " + unit + ", "
                    + String.format("%.2f", 100.0 * node.weight / root.weight) + "%)";
            out.printf("<g><title>%s</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                    + "stroke=\"#f8f8f8\" stroke-width=\"0.5\"/>", escape(label), x, y - FRAME, width, FRAME - 1,
                    color(node.name));
            int chars = (int) (width / 7);
            if (chars >= 3) {
                String text = shortName(node.name);
                out.printf("<text x=\"%.1f\" y=\"%d\">%s</text>", x + 2, y - 4,
                        escape(text.length() <= chars ? text : text.substring(0, chars - 2) + ".."));
            }
            out.println("</g>");
            double childX = x;
            List<Node> children = new ArrayList<>(node.children.values());
            children.sort(Comparator.comparing(child -> child.name));
            for (Node child : children) {
                double childWidth = width * child.weight / node.weight;
                draw(child, childX, childWidth, y - FRAME);
                childX += childWidth;
            }
        }

        /** The class's simple name and the method. */
        private static String shortName(String name) {
            int method = name.lastIndexOf('.');
            int type = method <= 0 ? -1 : name.lastIndexOf('.', method - 1);
            return type < 0 ? name : name.substring(type + 1);
        }

        /** Warm for the project's own code, blue for Hibernate, green for the JDBC driver and pool, grey for the JDK. */
        private static String color(String name) {
            int hash = Math.abs(name.hashCode());
            if (name.startsWith("io.durablebatch")) {
                return "rgb(" + (225 + hash % 30) + "," + (120 + hash % 60) + ",40)";
            } else if (name.startsWith("org.hibernate")) {
                return "rgb(90," + (130 + hash % 50) + "," + (200 + hash % 55) + ")";
            } else if (name.startsWith("org.postgresql") || name.startsWith("io.agroal")) {
                return "rgb(80," + (170 + hash % 60) + ",90)";
            } else if (name.startsWith("com.arjuna") || name.startsWith("io.quarkus") || name.startsWith("io.smallrye")) {
                return "rgb(" + (170 + hash % 50) + ",110," + (190 + hash % 50) + ")";
            } else if (name.startsWith("java.") || name.startsWith("jdk.") || name.startsWith("sun.")) {
                return "rgb(" + (160 + hash % 40) + "," + (160 + hash % 40) + "," + (160 + hash % 40) + ")";
            }
            return "rgb(" + (200 + hash % 55) + "," + (180 + hash % 50) + ",120)";
        }

        private static String escape(String text) {
            return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
        }
    }
}
