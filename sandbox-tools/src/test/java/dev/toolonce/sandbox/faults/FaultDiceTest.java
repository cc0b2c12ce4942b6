package dev.toolonce.sandbox.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.sandbox.faults.FaultDice.AfterApply;
import dev.toolonce.sandbox.faults.FaultDice.Refusal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultDiceTest {

    private static final FaultConfig RATES = new FaultConfig(0, 0.3, 0.2, 0.5, 0, 0);

    @Test
    void noFaultsMeansApplyAndRespond() {
        FaultDice dice = new FaultDice(1L);
        for (int i = 0; i < 1000; i++) {
            assertThat(dice.beforeApply(FaultConfig.NONE)).isEqualTo(Refusal.NONE);
            assertThat(dice.afterApply(FaultConfig.NONE, false)).isEqualTo(AfterApply.RESPOND);
        }
    }

    @Test
    void certainRatesAlwaysFire() {
        FaultDice dice = new FaultDice(7L);
        assertThat(dice.beforeApply(new FaultConfig(0, 0, 1.0, 0, 0, 0))).isEqualTo(Refusal.TOO_MANY_REQUESTS);
        assertThat(dice.beforeApply(new FaultConfig(0, 1.0, 0, 0, 0, 0))).isEqualTo(Refusal.UNAVAILABLE);
        assertThat(dice.afterApply(new FaultConfig(0, 0, 0, 1.0, 0, 0), false)).isEqualTo(AfterApply.DROP);
    }

    @Test
    void rate429IsDecidedBefore5xx() {
        FaultDice dice = new FaultDice(3L);
        FaultConfig both = new FaultConfig(0, 1.0, 1.0, 0, 0, 0);
        assertThat(dice.beforeApply(both)).isEqualTo(Refusal.TOO_MANY_REQUESTS);
    }

    @Test
    void failNextDropsBeforeAnyDraw() {
        FaultDice dice = new FaultDice(3L);
        assertThat(dice.afterApply(new FaultConfig(0, 0, 0, 0, 500, 1), true)).isEqualTo(AfterApply.DROP_FAIL_NEXT);
    }

    @Test
    void stallWhenNotDropped() {
        FaultDice dice = new FaultDice(3L);
        assertThat(dice.afterApply(new FaultConfig(0, 0, 0, 0, 500, 0), false)).isEqualTo(AfterApply.STALL);
    }

    @Test
    void sameSeedGivesSameSequence() {
        assertThat(sequence(new FaultDice(42L))).isEqualTo(sequence(new FaultDice(42L)));
    }

    @Test
    void ratesAreRoughlyHonoured() {
        FaultDice dice = new FaultDice(11L);
        int refused429 = 0;
        int refused503 = 0;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            switch (dice.beforeApply(RATES)) {
                case TOO_MANY_REQUESTS -> refused429++;
                case UNAVAILABLE -> refused503++;
                default -> { }
            }
        }
        // 429 first with 0.2; 503 with 0.3 of the remaining 0.8 = 0.24.
        assertThat(refused429 / (double) n).isBetween(0.18, 0.22);
        assertThat(refused503 / (double) n).isBetween(0.22, 0.26);
    }

    private static List<String> sequence(FaultDice dice) {
        List<String> decisions = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            decisions.add(dice.beforeApply(RATES) + "/" + dice.afterApply(RATES, false));
        }
        return decisions;
    }
}
