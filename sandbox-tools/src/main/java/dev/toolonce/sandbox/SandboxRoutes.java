package dev.toolonce.sandbox;

import dev.toolonce.sandbox.faults.FaultAdmin;
import dev.toolonce.sandbox.faults.FaultInjector;
import dev.toolonce.sandbox.http.Json;
import dev.toolonce.sandbox.http.Response;
import dev.toolonce.sandbox.http.Router;
import dev.toolonce.sandbox.http.SandboxHttpServer;
import dev.toolonce.sandbox.ledger.LedgerView;
import dev.toolonce.sandbox.tools.CounterTool;
import dev.toolonce.sandbox.tools.EmailTool;
import dev.toolonce.sandbox.tools.NoopTool;
import dev.toolonce.sandbox.tools.PaymentsTool;
import dev.toolonce.sandbox.tools.TicketsTool;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The route table and the HTTP server. Faults wrap the tools' effect endpoints; lookups only answer the
 * deterministic {@code lookupFailStatus}; {@code /_ledger} and {@code /_faults} are never faulted.
 */
@Configuration(proxyBeanMethods = false)
public class SandboxRoutes {

    @Bean
    Router sandboxRouter(PaymentsTool payments, TicketsTool tickets, EmailTool email, CounterTool counter,
                         FaultInjector faults, FaultAdmin faultAdmin, LedgerView ledger) {
        NoopTool noop = new NoopTool(); // zero-cost: no ledger, no faults (benchmarks measure ToolOnce, not the tool)
        return Router.builder()
                .get("/ready", request -> Response.json(200, Json.object().put("status", "ready")))
                .post("/payments/charges", faults.wrap(PaymentsTool.NAME, payments::charge))
                .get("/payments/charges", faults.wrapLookup(PaymentsTool.NAME, payments::findCharge))
                // the charge's dry run has no effect: nothing for the faults to lose or duplicate
                .post("/payments/charges/validate", payments::validateCharge)
                .post("/payments/refunds", faults.wrap(PaymentsTool.NAME, payments::refund))
                .post("/tickets", faults.wrap(TicketsTool.NAME, tickets::create))
                .get("/tickets", faults.wrapLookup(TicketsTool.NAME, tickets::find))
                .post("/tickets/{id}/cancel", faults.wrap(TicketsTool.NAME, tickets::cancel))
                .post("/emails", faults.wrap(EmailTool.NAME, email::send))
                .post("/counter/apply", faults.wrap(CounterTool.NAME, counter::apply))
                .post("/noop/apply", noop::apply)
                .get("/noop/stats", noop::stats)
                .get("/_ledger", ledger::list)
                .get("/_faults", faultAdmin::report)
                .put("/_faults/{tool}", faultAdmin::configure)
                .delete("/_faults", faultAdmin::clear)
                .build();
    }

    @Bean
    SandboxHttpServer sandboxHttpServer(SandboxProperties properties, Router sandboxRouter) {
        return new SandboxHttpServer(properties.bindAddress(), properties.port(), properties.threads(),
                sandboxRouter);
    }
}
