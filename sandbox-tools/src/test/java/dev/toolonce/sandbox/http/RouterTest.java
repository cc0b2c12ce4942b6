package dev.toolonce.sandbox.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.Headers;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouterTest {

    private final Router router = Router.builder()
            .post("/tickets/{id}/cancel", request -> Response.json(200, Json.object().put("id", request.pathParam("id"))))
            .get("/tickets", request -> Response.json(200, Json.object().put("ref", request.requiredQuery("external_reference"))))
            .post("/fail", request -> { throw HttpProblem.badRequest("amount is required"); })
            .build();

    @Test
    void matchesPathParameters() {
        Response response = router.dispatch(request("POST", "/tickets/tk_5/cancel", Map.of()));
        assertThat(response.body().get("id").stringValue()).isEqualTo("tk_5");
    }

    @Test
    void unknownPathIs404AndWrongMethodIs405() {
        assertThat(router.dispatch(request("GET", "/nope", Map.of())).status()).isEqualTo(404);
        assertThat(router.dispatch(request("DELETE", "/tickets", Map.of())).status()).isEqualTo(405);
    }

    @Test
    void problemsBecomeJsonErrors() {
        Response response = router.dispatch(request("POST", "/fail", Map.of()));
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.body().get("error").stringValue()).isEqualTo("amount is required");
        Response missing = router.dispatch(request("GET", "/tickets", Map.of()));
        assertThat(missing.body().get("error").stringValue()).contains("external_reference");
    }

    @Test
    void parsesQueryStrings() {
        assertThat(Request.parseQuery("external_reference=a%2Fb&x")).containsEntry("external_reference", "a/b")
                .containsEntry("x", "");
    }

    @Test
    void rejectsNonIntegerFence() {
        Headers headers = new Headers();
        headers.add(Request.FENCE_HEADER, "abc");
        Request request = new Request("POST", "/", Map.of(), Map.of(), headers, new byte[0]);
        org.assertj.core.api.Assertions.assertThatThrownBy(request::fence).hasMessageContaining(Request.FENCE_HEADER);
    }

    private static Request request(String method, String path, Map<String, String> query) {
        return new Request(method, path, Map.of(), query, new Headers(), new byte[0]);
    }
}
