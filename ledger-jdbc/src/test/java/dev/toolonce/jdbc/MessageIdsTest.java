package dev.toolonce.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MessageIdsTest {

    @Test
    void layoutIsVersion7WithTheTimeInFront() {
        UUID random = UUID.fromString("f81d4fae-7dec-41d0-a765-00a0c91e6bf6");
        UUID id = MessageIds.at(0x0190_1234_5678L, random);
        assertEquals("01901234-5678-71d0-a765-00a0c91e6bf6", id.toString());
        assertEquals(7, id.version());
        assertEquals(2, id.variant());
    }

    @Test
    void laterIdsSortAfterEarlierOnesAsTextAndAsUuidBytes() {
        long ms = System.currentTimeMillis();
        UUID earlier = MessageIds.at(ms, UUID.fromString("ffffffff-ffff-4fff-bfff-ffffffffffff"));
        UUID later = MessageIds.at(ms + 1, UUID.fromString("00000000-0000-4000-8000-000000000000"));
        assertTrue(earlier.toString().compareTo(later.toString()) < 0, earlier + " then " + later);
        // PostgreSQL's uuid type orders by unsigned bytes: the time's 48 bits come first
        assertTrue(Long.compareUnsigned(earlier.getMostSignificantBits(), later.getMostSignificantBits()) < 0);
    }

    @Test
    void idsAreUniqueAndCarryTheCurrentTime() {
        long before = System.currentTimeMillis();
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            UUID id = MessageIds.next();
            assertTrue(seen.add(id), "repeated " + id);
            assertEquals(7, id.version());
        }
        long after = System.currentTimeMillis();
        long stamped = MessageIds.next().getMostSignificantBits() >>> 16;
        assertTrue(stamped >= before && stamped <= after + 1_000, stamped + " not in [" + before + ", " + after + "]");
    }
}
