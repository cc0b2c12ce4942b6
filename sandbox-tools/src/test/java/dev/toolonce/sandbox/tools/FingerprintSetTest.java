package dev.toolonce.sandbox.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class FingerprintSetTest {

    @Test
    void eachTextIsNewOnceAndSeenEveryTimeAfterThroughManyGrowths() {
        FingerprintSet set = new FingerprintSet();
        int n = 300_000; // the stripes start at 1,024 slots: each grows several times
        for (int i = 0; i < n; i++) {
            assertThat(set.add("acme:key-" + i)).as("first add of %d", i).isTrue();
        }
        for (int i = 0; i < n; i++) {
            assertThat(set.add("acme:key-" + i)).as("second add of %d", i).isFalse();
        }
        assertThat(set.size()).isEqualTo(n);
        assertThat(set.add("acme:key-" + n)).isTrue();
        assertThat(set.add("")).isTrue();
        assertThat(set.add("")).isFalse();
    }

    @Test
    void textsThatDifferInOneCharOrOnlyInLengthHaveDifferentFingerprints() {
        assertThat(FingerprintSet.fingerprint("acme:k-1")).isNotEqualTo(FingerprintSet.fingerprint("acme:k-2"));
        assertThat(FingerprintSet.fingerprint("ab")).isNotEqualTo(FingerprintSet.fingerprint("ba"));
        assertThat(FingerprintSet.fingerprint("a\u0000")).isNotEqualTo(FingerprintSet.fingerprint("a"));
    }

    @Test
    void concurrentAddsOfTheSameTextsCallEachNewExactlyOnce() throws Exception {
        FingerprintSet set = new FingerprintSet();
        int threads = 4;
        int texts = 50_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                tasks.add(() -> {
                    int fresh = 0;
                    for (int i = 0; i < texts; i++) {
                        fresh += set.add("op-" + i) ? 1 : 0;
                    }
                    return fresh;
                });
            }
            int fresh = 0;
            for (Future<Integer> f : pool.invokeAll(tasks)) {
                fresh += f.get();
            }
            assertThat(fresh).isEqualTo(texts);
            assertThat(set.size()).isEqualTo(texts);
        } finally {
            pool.shutdownNow();
        }
    }
}
