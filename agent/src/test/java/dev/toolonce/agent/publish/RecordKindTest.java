package dev.toolonce.agent.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolonce.schemas.Contract;
import dev.toolonce.schemas.signing.Power;
import org.junit.jupiter.api.Test;

class RecordKindTest {

    @Test
    void onlyACompensationRequestIsItsOwnRecordTypeSignedWithTheCompensatePower() {
        assertThat(RecordKind.of("charge.compensate")).isEqualTo(RecordKind.COMPENSATION);
        assertThat(RecordKind.COMPENSATION.type).isEqualTo(Contract.COMPENSATION_TYPE);
        assertThat(RecordKind.COMPENSATION.power).isEqualTo(Power.COMPENSATE);

        for (String op : new String[] {"charge", "charge.dry-run", "compensate", ".compensate"}) {
            assertThat(RecordKind.of(op)).as(op).isEqualTo(RecordKind.INTENT);
        }
        assertThat(RecordKind.INTENT.type).isEqualTo(Contract.INTENT_TYPE);
        assertThat(RecordKind.INTENT.power).isEqualTo(Power.INTENT);
    }
}
