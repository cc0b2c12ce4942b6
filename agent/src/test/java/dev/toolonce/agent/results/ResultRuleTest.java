package dev.toolonce.agent.results;

import static dev.toolonce.agent.results.ResultRule.Verdict.APPLY;
import static dev.toolonce.agent.results.ResultRule.Verdict.MESSAGE_ID_REUSED;
import static dev.toolonce.agent.results.ResultRule.Verdict.NOT_NEWER;
import static dev.toolonce.agent.results.ResultRule.Verdict.NOT_OWN_INTENT;
import static dev.toolonce.agent.results.ResultRule.decide;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.schemas.ResultStatus;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every case of {@link ResultRule}: each clause on its own, then every combination of its inputs. */
class ResultRuleTest {
    private static final List<String> CODES = Arrays.asList(null, "UNKNOWN_TOOL", "MESSAGE_ID_REUSED");

    @Test
    void aNewerVersionOfAnOutcomeApplies() {
        assertThat(decide(ResultStatus.COMMITTED, null, 1, -1, true)).isEqualTo(APPLY);
        assertThat(decide(ResultStatus.NEEDS_REVIEW, "X", 2, 1, true)).isEqualTo(APPLY);
    }

    @Test
    void anOutcomeAppliesWhicheverIntentItIsAddressedTo() {
        // A replay to a re-published intent, or an operator's decision sent to the original's intent.
        for (ResultStatus s : List.of(ResultStatus.COMMITTED, ResultStatus.FAILED_FINAL, ResultStatus.NEEDS_REVIEW,
                ResultStatus.COMPENSATED)) {
            assertThat(decide(s, null, 3, 2, false)).as(s.name()).isEqualTo(APPLY);
        }
    }

    @Test
    void theSameOrAnOlderVersionDoesNotApply() {
        assertThat(decide(ResultStatus.COMMITTED, null, 2, 2, true)).isEqualTo(NOT_NEWER);
        assertThat(decide(ResultStatus.COMMITTED, null, 1, 2, true)).isEqualTo(NOT_NEWER);
    }

    @Test
    void aRejectionAppliesOnlyToItsOwnIntentAndOnlyAsTheCallsFirstAnswer() {
        assertThat(decide(ResultStatus.REJECTED, "UNKNOWN_TOOL", 0, -1, true)).isEqualTo(APPLY);
        assertThat(decide(ResultStatus.REJECTED, "IDEMPOTENCY_PARAMETER_MISMATCH", 0, -1, false))
                .isEqualTo(NOT_OWN_INTENT);
        assertThat(decide(ResultStatus.REJECTED, "UNKNOWN_TOOL", 0, 0, true)).isEqualTo(NOT_NEWER);
        assertThat(decide(ResultStatus.REJECTED, "UNKNOWN_TOOL", 0, 1, true)).isEqualTo(NOT_NEWER);
    }

    @Test
    void aMessageIdReusedRejectionNeverApplies() {
        assertThat(decide(ResultStatus.REJECTED, "MESSAGE_ID_REUSED", 0, -1, true)).isEqualTo(MESSAGE_ID_REUSED);
        assertThat(decide(ResultStatus.REJECTED, "MESSAGE_ID_REUSED", 5, -1, false)).isEqualTo(MESSAGE_ID_REUSED);
        assertThat(ResultRule.neverApplies(ResultStatus.REJECTED, "MESSAGE_ID_REUSED")).isTrue();
    }

    @Test
    void aRejectionByAShardThatDoesNotServeTheTenantNeverAppliesTheStepWaitsForItsShard() {
        assertThat(decide(ResultStatus.REJECTED, "TENANT_NOT_SERVED", 0, -1, true))
                .isEqualTo(ResultRule.Verdict.TENANT_NOT_SERVED);
        assertThat(ResultRule.neverApplies(ResultStatus.REJECTED, "TENANT_NOT_SERVED")).isTrue();
        assertThat(ResultRule.Verdict.TENANT_NOT_SERVED.reason()).contains("shard");
    }

    @Test
    void theCodeMessageIdReusedMattersOnlyOnARejection() {
        assertThat(decide(ResultStatus.FAILED_FINAL, "MESSAGE_ID_REUSED", 1, -1, true)).isEqualTo(APPLY);
        assertThat(ResultRule.neverApplies(ResultStatus.FAILED_FINAL, "MESSAGE_ID_REUSED")).isFalse();
    }

    @Test
    void everyCombinationGetsTheVerdictOfTheFirstClauseItFails() {
        int cases = 0;
        for (ResultStatus status : ResultStatus.values()) {
            for (String code : CODES) {
                for (long version = 0; version <= 3; version++) {
                    for (long applied = -1; applied <= 3; applied++) {
                        for (boolean own : new boolean[] {true, false}) {
                            boolean rejected = status == ResultStatus.REJECTED;
                            ResultRule.Verdict expected = rejected && "MESSAGE_ID_REUSED".equals(code) ? MESSAGE_ID_REUSED
                                    : version <= applied ? NOT_NEWER
                                    : rejected && !own ? NOT_OWN_INTENT
                                    : APPLY;
                            assertThat(decide(status, code, version, applied, own))
                                    .as("%s %s v%d over v%d, own intent %s", status, code, version, applied, own)
                                    .isEqualTo(expected);
                            cases++;
                        }
                    }
                }
            }
        }
        assertThat(cases).isEqualTo(ResultStatus.values().length * CODES.size() * 4 * 5 * 2);
    }

    @Test
    void everyVerdictButApplyHasAReasonThatSaysWhyNot() {
        assertThat(APPLY.reason()).isEqualTo("applied");
        assertThat(NOT_NEWER.reason()).contains("not older");
        assertThat(MESSAGE_ID_REUSED.reason()).contains("MESSAGE_ID_REUSED");
        assertThat(NOT_OWN_INTENT.reason()).contains("own intent");
    }
}
