package dev.toolonce.sandbox.tools;

import dev.toolonce.sandbox.http.HttpProblem;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Validation of request-body fields; every failure is a 400 naming the field. */
final class Fields {

    private static final Pattern CURRENCY = Pattern.compile("[A-Za-z]{3}");

    private Fields() {
    }

    static String requiredString(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || !node.isString() || node.stringValue().isBlank()) {
            throw HttpProblem.badRequest(field + " is required and must be a non-empty string");
        }
        return node.stringValue();
    }

    static String optionalString(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString()) {
            throw HttpProblem.badRequest(field + " must be a string");
        }
        return node.stringValue();
    }

    static long positiveInteger(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() <= 0) {
            throw HttpProblem.badRequest(field + " is required and must be a positive integer");
        }
        return node.longValue();
    }

    static String currency(ObjectNode body, String field) {
        JsonNode node = body.get(field);
        if (node == null || !node.isString() || !CURRENCY.matcher(node.stringValue()).matches()) {
            throw HttpProblem.badRequest(field + " is required and must be 3 letters");
        }
        return node.stringValue();
    }
}
