package io.pinion.web;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Completes the generated OpenAPI document with what the resources do not each repeat, so that a client generated
 * from it is right: the one error shape ({@code Error}: {@code error}, {@code message}, {@code requestId}) for every
 * error response an operation can give (400 for bad input, 401 and 403 where a token is required, 404 where the path
 * names an object, 409 and 429 for writes, 503 when a backend it needs is down), also for the error responses that
 * were declared without a body (the 400 of bean validation, the 401 and 403 of {@code @RolesAllowed}), the
 * {@code X-Request-Id} header, and the {@code limit} and {@code cursor} parameters of every list under the one paging
 * rule ({@code io.pinion.paging.Limits}). The bearer scheme itself is declared in the configuration
 * ({@code quarkus.smallrye-openapi.security-scheme}). Every operation names its {@code operationId} in its resource.
 */
public class OpenApiContract implements OASFilter {

    private static final String ERROR = "#/components/schemas/Error";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        openAPI.getComponents().addSchema("Error", errorSchema());
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
            for (Map.Entry<PathItem.HttpMethod, Operation> operation : path.getValue().getOperations().entrySet()) {
                complete(path.getKey(), operation.getKey(), operation.getValue());
            }
        }
    }

    private static void complete(String path, PathItem.HttpMethod method, Operation operation) {
        boolean write = method != PathItem.HttpMethod.GET && method != PathItem.HttpMethod.HEAD;
        boolean secured = operation.getSecurity() != null && !operation.getSecurity().isEmpty();
        boolean named = path.contains("{");
        boolean input = named || write || (operation.getParameters() != null && !operation.getParameters().isEmpty());
        APIResponses responses = operation.getResponses();
        if (responses == null) {
            responses = OASFactory.createAPIResponses();
            operation.setResponses(responses);
        }
        if (input) {
            error(responses, "400", "Bad input: the code names what (invalid_id, invalid_limit, validation_failed, …)");
        }
        if (secured) {
            error(responses, "401", "No valid bearer token");
            error(responses, "403", "The token's user lacks the role or grant");
        }
        if (named) {
            error(responses, "404", "No such object");
        }
        if (write) {
            error(responses, "409", "Conflicts with the object's state");
            error(responses, "429", "Over the write or login limit; the Retry-After header says when to retry");
        }
        error(responses, "503", "A backend this request needs is unavailable, or the service is overloaded; retry");
        responses.getAPIResponses().forEach((status, response) -> {
            if (status.startsWith("4") || status.startsWith("5")) {
                if (response.getContent() == null || response.getContent().getMediaTypes() == null
                        || response.getContent().getMediaTypes().isEmpty()) {
                    response.setContent(errorContent());
                }
            }
        });
        responses.getAPIResponses().values().forEach(response -> response.addHeader(RequestIds.HEADER,
                OASFactory.createHeader().description("The request's id: the caller's X-Request-Id when valid, else a"
                                + " new one; also in the error body and the log lines of the request")
                        .schema(OASFactory.createSchema().type(List.of(Schema.SchemaType.STRING)))));
        if (operation.getParameters() != null) {
            operation.getParameters().forEach(OpenApiContract::paging);
        }
    }

    private static void error(APIResponses responses, String status, String description) {
        if (responses.hasAPIResponse(status)) {
            return;
        }
        responses.addAPIResponse(status,
                OASFactory.createAPIResponse().description(description).content(errorContent()));
    }

    private static Content errorContent() {
        return OASFactory.createContent().addMediaType("application/json",
                OASFactory.createMediaType().schema(OASFactory.createSchema().ref(ERROR)));
    }

    private static void paging(Parameter parameter) {
        if (parameter.getIn() != Parameter.In.QUERY) {
            return;
        }
        if ("limit".equals(parameter.getName())) {
            if (parameter.getDescription() == null) {
                parameter.setDescription("Page size: a whole number of at least 1; 25 when absent; larger values "
                        + "are capped at 100 on public lists and refused (400 invalid_limit) where the caller sizes "
                        + "its work by the answer");
            }
            parameter.setSchema(OASFactory.createSchema().type(List.of(Schema.SchemaType.INTEGER)).minimum(
                    java.math.BigDecimal.ONE));
        } else if ("cursor".equals(parameter.getName()) && parameter.getDescription() == null) {
            parameter.setDescription("The nextCursor of the previous page, as it was given (opaque and signed); "
                    + "absent for the first page");
        }
    }

    private static Schema errorSchema() {
        return OASFactory.createSchema().type(List.of(Schema.SchemaType.OBJECT))
                .description("Every 4xx/5xx response has this shape.")
                .addProperty("error", OASFactory.createSchema().type(List.of(Schema.SchemaType.STRING))
                        .description("Stable machine-readable code, e.g. not_found"))
                .addProperty("message", OASFactory.createSchema().type(List.of(Schema.SchemaType.STRING))
                        .description("Human-readable explanation"))
                .addProperty("requestId", OASFactory.createSchema().type(List.of(Schema.SchemaType.STRING))
                        .description("The request's id (its X-Request-Id response header)"))
                .required(List.of("error", "message"));
    }
}
