package io.durablebatch.jakarta.deployment.test.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import jakarta.batch.api.AbstractBatchlet;

import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.builder.BuildChainBuilder;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ServiceProviderBuildItem;
import io.quarkus.test.QuarkusUnitTest;

/**
 * What a native image must be told of: the artifact classes the runtime creates by reflection, named
 * by {@code batch.xml} or by a literal class-name ref (a ref that is no class of the application is
 * not registered), and the ServiceLoader entry point of {@code BatchRuntime.getJobOperator()}.
 */
class NativeRegistrationsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(ByClassName.class, ByBatchXml.class)
                    .addAsResource(new StringAsset("""
                            <job id="reflective" xmlns="https://jakarta.ee/xml/ns/jakartaee" version="2.0">
                                <step id="a" next="b"><batchlet ref="%s"/></step>
                                <step id="b" next="c"><batchlet ref="viaBatchXml"/></step>
                                <step id="c" next="d"><batchlet ref="someBean"/></step>
                                <step id="d"><batchlet ref="#{jobParameters['x']}"/></step>
                            </job>
                            """.formatted(ByClassName.class.getName())), "META-INF/batch-jobs/reflective.xml")
                    .addAsResource(new StringAsset("""
                            <batch-artifacts xmlns="https://jakarta.ee/xml/ns/jakartaee">
                                <ref id="viaBatchXml" class="%s"/>
                            </batch-artifacts>
                            """.formatted(ByBatchXml.class.getName())), "META-INF/batch.xml"))
            .addBuildChainCustomizer(inspect());

    public static class ByClassName extends AbstractBatchlet {
        @Override
        public String process() {
            return null;
        }
    }

    public static class ByBatchXml extends AbstractBatchlet {
        @Override
        public String process() {
            return null;
        }
    }

    @Test
    void theApplicationStarts() {
        // the build step below has checked what the build produced
    }

    private static Consumer<BuildChainBuilder> inspect() {
        return chain -> chain.addBuildStep(context -> {
            Set<String> registered = new TreeSet<>();
            for (ReflectiveClassBuildItem item : context.consumeMulti(ReflectiveClassBuildItem.class)) {
                item.getClassNames().stream().filter(name -> name.contains("NativeRegistrationsTest"))
                        .forEach(registered::add);
            }
            assertEquals(new TreeSet<>(List.of(ByBatchXml.class.getName(), ByClassName.class.getName())), registered);
            List<String> providers = context.consumeMulti(ServiceProviderBuildItem.class).stream()
                    .filter(item -> item.serviceDescriptorFile().endsWith("/jakarta.batch.operations.JobOperator"))
                    .flatMap(item -> item.providers().stream()).toList();
            assertEquals(List.of("io.durablebatch.jakarta.runtime.operator.BatchRuntimeJobOperator"), providers);
            context.produce(new FeatureBuildItem("jsl-reflection-inspection"));
        }).consumes(ReflectiveClassBuildItem.class).consumes(ServiceProviderBuildItem.class).produces(FeatureBuildItem.class)
                .build();
    }
}
