package io.durablebatch.jakarta.runtime.jsl;

import static javax.xml.stream.XMLStreamConstants.CDATA;
import static javax.xml.stream.XMLStreamConstants.CHARACTERS;
import static javax.xml.stream.XMLStreamConstants.END_ELEMENT;
import static javax.xml.stream.XMLStreamConstants.START_ELEMENT;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a job XML into a {@link JslJob}, holding it to the JSL 2.1 schema: unknown elements and
 * attributes, children out of order or repeated, missing required attributes and malformed
 * substitutions are refused with the file, line and element. What the schema cannot say (targets,
 * scopes, loops, attribute values) is {@link JslValidator}'s part.
 * <p>
 * Two leniencies that the specification's own TCK relies on: the namespace may be absent (or Batch
 * 1.0's), and so may {@code version}.
 */
public final class JslParser {

    /** Where an application's job XMLs are, and what {@code JobOperator.start} finds by name. */
    public static final String JOB_XML_DIRECTORY = "META-INF/batch-jobs";

    static final String NAMESPACE = "https://jakarta.ee/xml/ns/jakartaee";
    /** Batch 1.0 (JSR 352) job XMLs; the elements are the same. */
    static final String JAVAEE_NAMESPACE = "http://xmlns.jcp.org/xml/ns/javaee";
    private static final Set<String> NAMESPACES = Set.of(NAMESPACE, JAVAEE_NAMESPACE, "");
    private static final Set<String> VERSIONS = Set.of("1.0", "2.0");

    private static final String[] EXECUTION_ELEMENTS = { "decision", "flow", "split", "step" };
    private static final String[] TRANSITIONS = { "next", "end", "fail", "stop" };
    private static final String[] EXCEPTION_FILTERS = { "skippable-exception-classes",
            "retryable-exception-classes", "no-rollback-exception-classes" };
    private static final String[] NAMING_ATTRIBUTES = { "id", "ref", "name", "on", "class" };

    private static final XMLInputFactory FACTORY = factory();

    private final String file;
    private final XMLStreamReader xml;

    private JslParser(String file, XMLStreamReader xml) {
        this.file = file;
        this.xml = xml;
    }

    /**
     * @param file the resource path, e.g. {@code META-INF/batch-jobs/payroll.xml}; messages name it
     * @throws JslException when the XML is not a job XML
     */
    public static JslJob parse(String file, InputStream in) {
        XMLStreamReader xml;
        try {
            xml = FACTORY.createXMLStreamReader(in);
        } catch (XMLStreamException e) {
            throw notXml(file, e);
        }
        try {
            return new JslParser(file, xml).job();
        } catch (XMLStreamException e) {
            throw notXml(file, e);
        } finally {
            try {
                xml.close();
            } catch (XMLStreamException ignored) {
                // the input is closed by the caller
            }
        }
    }

    /** The name a job XML is started by: its file name without {@code .xml}. */
    public static String jobName(String file) {
        String name = file.substring(file.lastIndexOf('/') + 1);
        return name.endsWith(".xml") ? name.substring(0, name.length() - ".xml".length()) : name;
    }

    private JslJob job() throws XMLStreamException {
        toRootElement();
        if (!"job".equals(xml.getLocalName())) {
            throw problem(here(xml.getLocalName()), "the root element of a job XML must be <job>");
        }
        Tag job = new Tag("id", "version", "restartable");
        Optional<String> version = job.optional("version");
        if (version.isPresent() && !VERSIONS.contains(version.get())) {
            throw problem(job.location, "version=\"" + version.get() + "\" is not a JSL version; expected 2.0 (or 1.0)");
        }
        ChildOrder order = new ChildOrder().once("properties").once("listeners").many(EXECUTION_ELEMENTS);
        JslProperties properties = JslProperties.NONE;
        List<JslArtifact> listeners = List.of();
        List<JslExecutionElement> elements = new ArrayList<>();
        while (nextChild(job)) {
            switch (child(job, order)) {
                case "properties" -> properties = properties(false);
                case "listeners" -> listeners = listeners();
                default -> elements.add(executionElement());
            }
        }
        return new JslJob(jobName(file), job.required("id"), job.optional("restartable"), properties, listeners,
                elements, job.location);
    }

    /** Past the prolog (declaration, comments) to the root element. */
    private void toRootElement() {
        try {
            while (xml.next() != START_ELEMENT) {
                // prolog
            }
        } catch (XMLStreamException e) {
            throw new JslException(new JslProblem(JslLocation.inFile(file, 0),
                    "holds no <job> element (" + reason(e) + ")"));
        }
    }

    private JslExecutionElement executionElement() throws XMLStreamException {
        return switch (xml.getLocalName()) {
            case "step" -> step();
            case "flow" -> flow();
            case "split" -> split();
            default -> decision();
        };
    }

    private JslStep step() throws XMLStreamException {
        Tag step = new Tag("id", "next", "start-limit", "allow-start-if-complete");
        ChildOrder order = new ChildOrder().once("properties").once("listeners").once("batchlet", "chunk")
                .once("partition").many(TRANSITIONS);
        JslProperties properties = JslProperties.NONE;
        List<JslArtifact> listeners = List.of();
        Optional<JslStepWork> work = Optional.empty();
        Optional<JslPartition> partition = Optional.empty();
        List<JslTransition> transitions = new ArrayList<>();
        while (nextChild(step)) {
            switch (child(step, order)) {
                case "properties" -> properties = properties(false);
                case "listeners" -> listeners = listeners();
                case "batchlet" -> work = Optional.of(new JslBatchlet(artifact()));
                case "chunk" -> work = Optional.of(chunk());
                case "partition" -> partition = Optional.of(partition());
                default -> transitions.add(transition());
            }
        }
        return new JslStep(step.required("id"), step.optional("next"), step.optional("start-limit"),
                step.optional("allow-start-if-complete"), properties, listeners, work, partition, transitions,
                step.location);
    }

    private JslFlow flow() throws XMLStreamException {
        Tag flow = new Tag("id", "next");
        ChildOrder order = new ChildOrder().many(EXECUTION_ELEMENTS).many(TRANSITIONS);
        List<JslExecutionElement> elements = new ArrayList<>();
        List<JslTransition> transitions = new ArrayList<>();
        while (nextChild(flow)) {
            String child = child(flow, order);
            if (List.of(TRANSITIONS).contains(child)) {
                transitions.add(transition());
            } else {
                elements.add(executionElement());
            }
        }
        return new JslFlow(flow.required("id"), flow.optional("next"), elements, transitions, flow.location);
    }

    private JslSplit split() throws XMLStreamException {
        Tag split = new Tag("id", "next");
        ChildOrder order = new ChildOrder().many("flow");
        List<JslFlow> flows = new ArrayList<>();
        while (nextChild(split)) {
            child(split, order);
            flows.add(flow());
        }
        return new JslSplit(split.required("id"), split.optional("next"), flows, split.location);
    }

    private JslDecision decision() throws XMLStreamException {
        Tag decision = new Tag("id", "ref");
        ChildOrder order = new ChildOrder().once("properties").many(TRANSITIONS);
        JslProperties properties = JslProperties.NONE;
        List<JslTransition> transitions = new ArrayList<>();
        while (nextChild(decision)) {
            if (child(decision, order).equals("properties")) {
                properties = properties(false);
            } else {
                transitions.add(transition());
            }
        }
        JslArtifact decider = new JslArtifact(decision.required("ref"), properties, decision.location);
        return new JslDecision(decision.required("id"), decider, transitions, decision.location);
    }

    private JslTransition transition() throws XMLStreamException {
        JslTransition.Kind kind = JslTransition.Kind.valueOf(xml.getLocalName().toUpperCase(Locale.ROOT));
        Tag transition = switch (kind) {
            case NEXT -> new Tag("on", "to");
            case STOP -> new Tag("on", "exit-status", "restart");
            default -> new Tag("on", "exit-status");
        };
        empty(transition);
        Optional<String> to = kind == JslTransition.Kind.NEXT ? Optional.of(transition.required("to"))
                : Optional.empty();
        return new JslTransition(kind, transition.required("on"), to, transition.optional("exit-status"),
                transition.optional("restart"), transition.location);
    }

    private JslChunk chunk() throws XMLStreamException {
        Tag chunk = new Tag("checkpoint-policy", "item-count", "time-limit", "skip-limit", "retry-limit");
        ChildOrder order = new ChildOrder().once("reader").once("processor").once("writer")
                .once("checkpoint-algorithm");
        Stream.of(EXCEPTION_FILTERS).forEach(order::once);
        Map<String, JslArtifact> artifacts = new HashMap<>();
        Map<String, JslExceptionFilter> filters = new HashMap<>();
        while (nextChild(chunk)) {
            String child = child(chunk, order);
            if (List.of(EXCEPTION_FILTERS).contains(child)) {
                filters.put(child, exceptionFilter());
            } else {
                artifacts.put(child, artifact());
            }
        }
        for (String required : List.of("reader", "writer")) {
            if (!artifacts.containsKey(required)) {
                throw problem(chunk.location, "missing <" + required + ">");
            }
        }
        return new JslChunk(artifacts.get("reader"), Optional.ofNullable(artifacts.get("processor")),
                artifacts.get("writer"), Optional.ofNullable(artifacts.get("checkpoint-algorithm")),
                filters.getOrDefault(EXCEPTION_FILTERS[0], JslExceptionFilter.NONE),
                filters.getOrDefault(EXCEPTION_FILTERS[1], JslExceptionFilter.NONE),
                filters.getOrDefault(EXCEPTION_FILTERS[2], JslExceptionFilter.NONE), chunk.optional("checkpoint-policy"),
                chunk.optional("item-count"), chunk.optional("time-limit"), chunk.optional("skip-limit"),
                chunk.optional("retry-limit"), chunk.location);
    }

    private JslExceptionFilter exceptionFilter() throws XMLStreamException {
        Tag filter = new Tag();
        ChildOrder order = new ChildOrder().many("include").many("exclude");
        List<String> include = new ArrayList<>();
        List<String> exclude = new ArrayList<>();
        while (nextChild(filter)) {
            List<String> into = child(filter, order).equals("include") ? include : exclude;
            Tag exceptionClass = new Tag("class");
            empty(exceptionClass);
            into.add(exceptionClass.required("class"));
        }
        return new JslExceptionFilter(include, exclude);
    }

    private JslPartition partition() throws XMLStreamException {
        Tag partition = new Tag();
        ChildOrder order = new ChildOrder().once("mapper", "plan").once("collector").once("analyzer")
                .once("reducer");
        Map<String, JslArtifact> artifacts = new HashMap<>();
        Optional<JslPartitionPlan> plan = Optional.empty();
        while (nextChild(partition)) {
            String child = child(partition, order);
            if (child.equals("plan")) {
                plan = Optional.of(plan());
            } else {
                artifacts.put(child, artifact());
            }
        }
        return new JslPartition(Optional.ofNullable(artifacts.get("mapper")), plan,
                Optional.ofNullable(artifacts.get("collector")), Optional.ofNullable(artifacts.get("analyzer")),
                Optional.ofNullable(artifacts.get("reducer")), partition.location);
    }

    private JslPartitionPlan plan() throws XMLStreamException {
        Tag plan = new Tag("partitions", "threads");
        ChildOrder order = new ChildOrder().many("properties");
        List<JslProperties> properties = new ArrayList<>();
        while (nextChild(plan)) {
            child(plan, order);
            properties.add(properties(true));
        }
        return new JslPartitionPlan(plan.optional("partitions"), plan.optional("threads"), properties,
                plan.location);
    }

    private List<JslArtifact> listeners() throws XMLStreamException {
        Tag listeners = new Tag();
        ChildOrder order = new ChildOrder().many("listener");
        List<JslArtifact> artifacts = new ArrayList<>();
        while (nextChild(listeners)) {
            child(listeners, order);
            artifacts.add(artifact());
        }
        return artifacts;
    }

    /** Any element that names a batch artifact: {@code ref} and its properties. */
    private JslArtifact artifact() throws XMLStreamException {
        Tag artifact = new Tag("ref");
        ChildOrder order = new ChildOrder().once("properties");
        JslProperties properties = JslProperties.NONE;
        while (nextChild(artifact)) {
            child(artifact, order);
            properties = properties(false);
        }
        return new JslArtifact(artifact.required("ref"), properties, artifact.location);
    }

    /** {@code partition} is an attribute of the properties of a plan only. */
    private JslProperties properties(boolean ofPlan) throws XMLStreamException {
        Tag properties = ofPlan ? new Tag("partition") : new Tag();
        ChildOrder order = new ChildOrder().many("property");
        List<JslProperty> entries = new ArrayList<>();
        while (nextChild(properties)) {
            child(properties, order);
            Tag property = new Tag("name", "value");
            empty(property);
            entries.add(new JslProperty(property.required("name"), property.required("value")));
        }
        return new JslProperties(properties.optional("partition"), entries);
    }

    /** Advances to the next child's start tag (true) or to the parent's end tag (false). */
    private boolean nextChild(Tag parent) throws XMLStreamException {
        while (true) {
            int event = xml.next();
            if (event == START_ELEMENT) {
                return true;
            }
            if (event == END_ELEMENT) {
                return false;
            }
            if ((event == CHARACTERS || event == CDATA) && !xml.isWhiteSpace()) {
                throw problem(parent.location, "text is not allowed here: \"" + xml.getText().strip() + "\"");
            }
        }
    }

    /** The child the reader is at, if {@code order} admits it here. */
    private String child(Tag parent, ChildOrder order) {
        String name = xml.getLocalName();
        checkNamespace(name);
        String refusal = order.accept(name, parent.name);
        if (refusal != null) {
            throw problem(here(name), refusal);
        }
        return name;
    }

    private void empty(Tag tag) throws XMLStreamException {
        ChildOrder none = new ChildOrder();
        while (nextChild(tag)) {
            child(tag, none);
        }
    }

    private void checkNamespace(String name) {
        String namespace = xml.getNamespaceURI() == null ? "" : xml.getNamespaceURI();
        if (!NAMESPACES.contains(namespace)) {
            throw problem(here(name), "namespace " + namespace + " is not JSL's (" + NAMESPACE + ")");
        }
    }

    private JslLocation here(String element) {
        return new JslLocation(file, xml.getLocation().getLineNumber(), element, Optional.empty());
    }

    private static JslException problem(JslLocation location, String reason) {
        return new JslException(new JslProblem(location, reason));
    }

    private static JslException notXml(String file, XMLStreamException e) {
        int line = e.getLocation() == null ? 0 : e.getLocation().getLineNumber();
        return new JslException(new JslProblem(JslLocation.inFile(file, line), "not well-formed XML: " + reason(e)));
    }

    /** The parser's reason without its own "ParseError at [row,col]" prefix: the location is given apart. */
    private static String reason(XMLStreamException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int reason = message.indexOf("Message: ");
        return reason < 0 ? message : message.substring(reason + "Message: ".length());
    }

    private static XMLInputFactory factory() {
        // The JDK's own parser: the same messages whatever else is on the class path.
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        // A job XML has no business with a DTD; refusing them refuses entity expansion attacks too.
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        return factory;
    }

    /** The start tag the reader is at: its attributes checked against those the element admits. */
    private final class Tag {

        final String name;
        final JslLocation location;
        private final Map<String, String> attributes = new LinkedHashMap<>();

        Tag(String... allowed) {
            name = xml.getLocalName();
            checkNamespace(name);
            JslLocation bare = here(name);
            List<String> admitted = List.of(allowed);
            for (int index = 0; index < xml.getAttributeCount(); index++) {
                String namespace = xml.getAttributeNamespace(index);
                if (namespace != null && !namespace.isEmpty()) {
                    continue; // xsi:schemaLocation and the like
                }
                String attribute = xml.getAttributeLocalName(index);
                if (!admitted.contains(attribute)) {
                    throw problem(bare, "unknown attribute '" + attribute + "'"
                            + (admitted.isEmpty() ? "; <" + name + "> has none" : "; allowed: " + admitted));
                }
                attributes.put(attribute, xml.getAttributeValue(index));
            }
            location = new JslLocation(file, bare.line(), name, naming());
            attributes.forEach((attribute, value) -> {
                try {
                    Substitution.parse(value);
                } catch (IllegalArgumentException e) {
                    throw problem(location, "attribute " + attribute + ": " + e.getMessage());
                }
            });
        }

        String required(String attribute) {
            String value = attributes.get(attribute);
            if (value == null) {
                throw problem(location, "missing required attribute '" + attribute + "'");
            }
            if (value.isBlank()) {
                throw problem(location, "attribute '" + attribute + "' is empty");
            }
            // ids are what transitions, restarts and step executions name: fixed when the XML is written
            if (attribute.equals("id") && !Substitution.parse(value).isLiteral()) {
                throw problem(location, "an id cannot be a substitution");
            }
            return value;
        }

        Optional<String> optional(String attribute) {
            return Optional.ofNullable(attributes.get(attribute));
        }

        private Optional<String> naming() {
            return Stream.of(NAMING_ATTRIBUTES).filter(attributes::containsKey).findFirst()
                    .map(attribute -> attribute + "=\"" + attributes.get(attribute) + "\"");
        }
    }
}
