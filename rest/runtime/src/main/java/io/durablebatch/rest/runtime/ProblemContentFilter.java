package io.durablebatch.rest.runtime;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;

import io.durablebatch.rest.Problem;

/**
 * Every error response of the API's operations (those tagged {@value ApiDocs#TAG}) is a problem
 * document: this filter gives each one without content the {@link Problem} schema as
 * {@value Problem#MEDIA_TYPE}, so that an endpoint's annotation names only its status and problem
 * codes. The schema itself is the one the resources' class-level 503 response declares. The
 * extension adds the filter to the document SmallRye OpenAPI builds (public: built at build time).
 */
public class ProblemContentFilter implements OASFilter {

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        for (PathItem path : openAPI.getPaths().getPathItems().values()) {
            for (Operation operation : path.getOperations().values()) {
                if (operation.getTags() != null && operation.getTags().contains(ApiDocs.TAG)
                        && operation.getResponses() != null && operation.getResponses().getAPIResponses() != null) {
                    operation.getResponses().getAPIResponses().forEach(ProblemContentFilter::problem);
                }
            }
        }
    }

    private static void problem(String status, APIResponse response) {
        if (response.getContent() == null && status.length() == 3 && status.charAt(0) >= '4') {
            response.setContent(OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE,
                    OASFactory.createMediaType().schema(OASFactory.createSchema().ref(Problem.class.getSimpleName()))));
        }
    }
}
