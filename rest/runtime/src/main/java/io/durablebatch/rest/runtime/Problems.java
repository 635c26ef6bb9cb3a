package io.durablebatch.rest.runtime;

import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.durablebatch.rest.Problem;

/**
 * Writes the API's problem documents, and logs each under the correlation id the document carries.
 * What a caller reads is never what only the server should know: a 5xx says that the server failed
 * and under which id its log has the cause (logged at ERROR with the stack); a 4xx whose detail would
 * show SQL, a PostgreSQL message, a Java class name or a stack frame (a message of a library, or the
 * caller's own input echoed back) gets a neutral detail instead, the original going to the log.
 */
final class Problems {

    private static final Logger LOG = Logger.getLogger("io.durablebatch.rest");

    /**
     * What a caller must not read: SQL statements, PostgreSQL's and JDBC's words, qualified Java
     * names ({@code java.}, {@code org.postgresql}, {@code io.durablebatch.x.Y}), stack frames.
     */
    private static final Pattern INTERNAL = Pattern.compile(String.join("|",
            "\\b(SELECT|UPDATE|INSERT|DELETE)\\b[\\s\\S]{0,400}?\\b(FROM|SET|INTO|WHERE)\\b",
            "\\b(select|update|insert into|delete from)\\s+[\\w.*, ()]{0,200}?\\b(from|set|values|where)\\b",
            "(?i:\\bsqlstate\\b|\\bjdbc\\b|\\bhibernate\\b|\\bagroal\\b|\\bnarayana\\b)", "\\bERROR:\\s", "postgresql",
            "\\b(java|javax|jakarta|org|com|io|sun|jdk)\\.[a-z_$][\\w$]*",
            "\\bat [\\w$.]+\\([\\w$]*\\.java", "\\b[a-z_][\\w$]*(\\.[a-z_][\\w$]*)+\\.[A-Z][\\w$]*",
            "\\w*(Exception|Error)\\b(?<!\\bError)"));

    private Problems() {
    }

    /**
     * The problem of a refusal or failure, logged: detail is what the caller may read unless it is
     * a 5xx or shows internals; cause, if any, goes to the log only.
     */
    static Problem of(int status, String code, String detail, Optional<String> field, String path,
            Optional<Long> currentVersion, Throwable cause) {
        String correlationId = UUID.randomUUID().toString();
        String shown = detail == null ? "" : detail;
        if (status >= 500) {
            LOG.errorf(cause, "%s %s %s (correlation id %s): %s", status, code, path, correlationId, shown);
            shown = status == 503 ? "the job repository is unavailable for a moment: retry after Retry-After seconds, "
                    + "with the same Idempotency-Key" : "the server failed to answer this request";
            shown = shown + "; its log has the cause under correlation id " + correlationId;
        } else if (INTERNAL.matcher(shown).find()) {
            LOG.infof(cause, "%s %s %s (correlation id %s), detail withheld from the caller: %s", status, code, path,
                    correlationId, shown);
            shown = "the request was refused (" + title(code).toLowerCase(Locale.ROOT) + "); the server's log has "
                    + "the detail under correlation id " + correlationId;
        } else {
            LOG.debugf(cause, "%s %s %s (correlation id %s): %s", status, code, path, correlationId, shown);
        }
        return new Problem(Problem.typeOf(code), title(code), status, shown, code, field, Optional.of(path),
                currentVersion, correlationId);
    }

    /** The JSON text of a problem. */
    static String json(ObjectMapper json, Problem problem) {
        try {
            return json.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem document could not be written", e);
        }
    }

    /** Whether a text would show a caller something only the server should know. */
    static boolean showsInternals(String text) {
        return INTERNAL.matcher(text).find();
    }

    /** {@code EXECUTION_ACTIVE} reads "Execution active". */
    static String title(String code) {
        String words = code.toLowerCase(Locale.ROOT).replace('_', ' ');
        return Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }
}
