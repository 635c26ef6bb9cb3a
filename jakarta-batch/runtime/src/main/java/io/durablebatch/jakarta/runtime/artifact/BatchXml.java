package io.durablebatch.jakarta.runtime.artifact;

import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * {@code META-INF/batch.xml}: the {@code <ref id="..." class="..."/>} entries that map a JSL ref to
 * an artifact class. Read at build time; the runtime gets the map.
 */
public final class BatchXml {

    public static final String RESOURCE = "META-INF/batch.xml";

    private BatchXml() {
    }

    /**
     * @throws IllegalArgumentException naming the file and line for a broken file, a ref without
     *         {@code id} or {@code class}, or an id given twice
     */
    public static Map<String, String> refs(String origin, InputStream in) {
        // the JDK's own parser: a build may run with another on its class path (Maven plugins bring Xerces)
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        Map<String, String> refs = new LinkedHashMap<>();
        try {
            XMLStreamReader reader = factory.createXMLStreamReader(in);
            while (reader.hasNext()) {
                if (reader.next() == XMLStreamConstants.START_ELEMENT && reader.getLocalName().equals("ref")) {
                    String id = reader.getAttributeValue(null, "id");
                    String className = reader.getAttributeValue(null, "class");
                    String where = origin + " line " + reader.getLocation().getLineNumber();
                    if (id == null || className == null) {
                        throw new IllegalArgumentException(where + ": <ref> needs both id and class");
                    }
                    if (refs.putIfAbsent(id, className) != null) {
                        throw new IllegalArgumentException(where + ": <ref id=\"" + id + "\"> is given twice");
                    }
                }
            }
        } catch (XMLStreamException e) {
            throw new IllegalArgumentException(origin + ": " + e.getMessage(), e);
        }
        return refs;
    }
}
