package io.durablebatch.jakarta.runtime.jsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.durablebatch.jakarta.runtime.jsl.Substitution.Operator;

class SubstitutionTest {

    /** One value per operator; anything else is not defined. */
    private static final Substitution.Lookup LOOKUP = (operator, name) -> Map.of(
            Operator.JOB_PARAMETERS, Map.of("file", "in.csv", "empty", ""),
            Operator.JOB_PROPERTIES, Map.of("region", "eu"),
            Operator.SYSTEM_PROPERTIES, Map.of("file.separator", "/"),
            Operator.PARTITION_PLAN, Map.of("bank", "north")).get(operator).get(name);

    private static String resolve(String value) {
        return Substitution.parse(value).resolve(LOOKUP);
    }

    @Test
    void eachOperatorReadsItsOwnSource() {
        assertEquals("in.csv eu / north", resolve("#{jobParameters['file']} #{jobProperties['region']} "
                + "#{systemProperties['file.separator']} #{partitionPlan['bank']}"));
    }

    @Test
    void literalTextAroundReferencesIsKept() {
        assertEquals("/data/in.csv.bak", resolve("/data/#{jobParameters['file']}.bak"));
        assertEquals("*:in.csv", resolve("*:#{jobParameters['file']}"));
    }

    @Test
    void anUndefinedReferenceIsEmpty() {
        assertEquals("[]", resolve("[#{jobParameters['missing']}]"));
    }

    @Test
    void aDefaultReplacesAnUndefinedReferenceOnlyAndEndsAtTheSemicolon() {
        assertEquals("myfile1.txt", resolve("#{jobParameters['missing']}?:myfile1.txt;"));
        assertEquals("in.csv", resolve("#{jobParameters['file']}?:myfile1.txt;"));
        assertEquals("", resolve("#{jobParameters['empty']}?:unused;"), "defined but empty is defined");
        assertEquals("x.txt;y", resolve("#{jobParameters['missing']}?:x.txt;;y"));
    }

    /** As in the TCK's job_properties2.xml: a default made of references, then more of the value. */
    @Test
    void aDefaultMayHoldReferences() {
        assertEquals("/in.csv.txt", resolve("#{jobParameters['missing']}?:#{systemProperties['file.separator']};"
                + "#{jobParameters['file']}?:#{systemProperties['file.name.junit']};.txt"));
        assertEquals("eu-fallback", resolve("#{jobParameters['missing']}?:#{jobProperties['region']}-fallback;"));
    }

    @Test
    void doubleQuotesWorkLikeSingleOnes() {
        assertEquals("in.csv", resolve("#{jobParameters[\"file\"]}"));
    }

    @Test
    void aHashWithoutBraceIsLiteral() {
        assertEquals("#1 #ok {x}", resolve("#1 #ok {x}"));
        assertTrue(Substitution.parse("#1 #ok {x}").isLiteral());
        assertFalse(Substitution.parse("a#{jobParameters['x']}").isLiteral());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "#{jobParams['x']}|character 3|unknown operator 'jobParams'",
            "#{jobParameters}|character 3|expected operator['name']",
            "#{jobParameters[x]}|character 17|expected a quoted name",
            "#{jobParameters['x}|character 17|not closed by '",
            "#{jobParameters['']}|character 17|the name is empty",
            "#{jobParameters['x']|character 20|expected ]} after the name",
            "#{jobParameters['x']}?:never closed|character 36|must end with ;",
            "#{jobParameters['x']}?:#{jobParameters['y']}?:z;;|character 45|cannot hold another default" })
    void brokenSyntaxIsRefusedWithWhere(String value, String where, String reason) {
        IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class,
                () -> Substitution.parse(value));
        assertTrue(refusal.getMessage().contains(where) && refusal.getMessage().contains(reason),
                refusal::getMessage);
    }
}
