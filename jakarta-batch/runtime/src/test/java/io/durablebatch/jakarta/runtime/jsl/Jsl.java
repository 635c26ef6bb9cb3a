package io.durablebatch.jakarta.runtime.jsl;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Job XMLs written in a test: parsed as {@code META-INF/batch-jobs/test.xml}. */
final class Jsl {

    static final String FILE = "META-INF/batch-jobs/test.xml";

    private Jsl() {
    }

    static JslJob parse(String xml) {
        return JslParser.parse(FILE, new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    static JslJob resource(String name) {
        try (InputStream in = Jsl.class.getResourceAsStream("/jsl/" + name)) {
            return JslParser.parse(JslParser.JOB_XML_DIRECTORY + "/" + name, in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The parser's refusal of the XML. */
    static String refusal(String xml) {
        return assertThrows(JslException.class, () -> parse(xml)).getMessage();
    }

    /** The validator's problems with a job that parses. */
    static List<String> problems(String xml) {
        return JslValidator.validate(parse(xml)).stream().map(JslProblem::message).toList();
    }

    /** A job element around the given content. */
    static String job(String content) {
        return "<job id=\"test\" xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"2.0\">\n" + content
                + "\n</job>\n";
    }
}
