package dev.toolonce.sandbox;

import dev.toolonce.sandbox.faults.FaultAdmin;
import dev.toolonce.sandbox.faults.FaultDice;
import dev.toolonce.sandbox.faults.FaultInjector;
import dev.toolonce.sandbox.faults.FaultRegistry;
import dev.toolonce.sandbox.ledger.EffectLedger;
import dev.toolonce.sandbox.ledger.LedgerView;
import dev.toolonce.sandbox.tools.CounterTool;
import dev.toolonce.sandbox.tools.EmailTool;
import dev.toolonce.sandbox.tools.IdempotencyRecords;
import dev.toolonce.sandbox.tools.NativeIdempotency;
import dev.toolonce.sandbox.tools.ObjectIds;
import dev.toolonce.sandbox.tools.PaymentRecords;
import dev.toolonce.sandbox.tools.PaymentsTool;
import dev.toolonce.sandbox.tools.TicketRecords;
import dev.toolonce.sandbox.tools.TicketsTool;
import dev.toolonce.sandbox.tools.UnguardedEffect;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Wires the ledger, the four tools and the fault knobs. */
@Configuration(proxyBeanMethods = false)
public class SandboxConfiguration {

    @Bean
    EffectLedger effectLedger(JdbcClient jdbc) {
        return new EffectLedger(jdbc);
    }

    @Bean
    ObjectIds objectIds(JdbcClient jdbc) {
        return new ObjectIds(jdbc);
    }

    @Bean
    TransactionTemplate sandboxTransactions(PlatformTransactionManager transactionManager) {
        return new TransactionTemplate(transactionManager);
    }

    @Bean
    PaymentsTool paymentsTool(SandboxProperties properties, EffectLedger ledger, ObjectIds ids,
                              TransactionTemplate sandboxTransactions, JdbcClient jdbc) {
        NativeIdempotency idempotency = new NativeIdempotency(PaymentsTool.NAME,
                properties.payments().idempotencyWindow(), ledger, new IdempotencyRecords(jdbc), ids,
                sandboxTransactions);
        return new PaymentsTool(idempotency, new PaymentRecords(jdbc));
    }

    @Bean
    TicketsTool ticketsTool(EffectLedger ledger, ObjectIds ids, TransactionTemplate sandboxTransactions,
                            JdbcClient jdbc) {
        return new TicketsTool(ledger, new TicketRecords(jdbc), ids, sandboxTransactions);
    }

    @Bean
    UnguardedEffect unguardedEffect(EffectLedger ledger, ObjectIds ids, TransactionTemplate sandboxTransactions) {
        return new UnguardedEffect(ledger, ids, sandboxTransactions);
    }

    @Bean
    EmailTool emailTool(UnguardedEffect unguardedEffect) {
        return new EmailTool(unguardedEffect);
    }

    @Bean
    CounterTool counterTool(UnguardedEffect unguardedEffect) {
        return new CounterTool(unguardedEffect);
    }

    @Bean
    FaultRegistry faultRegistry() {
        return new FaultRegistry(List.of(PaymentsTool.NAME, TicketsTool.NAME, EmailTool.NAME, CounterTool.NAME));
    }

    @Bean
    FaultInjector faultInjector(FaultRegistry registry, SandboxProperties properties) {
        return new FaultInjector(registry, new FaultDice(properties.faultSeed()));
    }

    @Bean
    FaultAdmin faultAdmin(FaultRegistry registry) {
        return new FaultAdmin(registry);
    }

    @Bean
    LedgerView ledgerView(EffectLedger ledger) {
        return new LedgerView(ledger);
    }
}
