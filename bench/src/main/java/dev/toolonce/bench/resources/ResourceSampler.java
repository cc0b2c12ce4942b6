package dev.toolonce.bench.resources;

import dev.toolonce.bench.BenchTarget;
import dev.toolonce.bench.report.ResourceUse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CPU seconds and peak resident memory of every component of the stack over one interval: CPU from the
 * {@code /proc} tick counters read at {@link #start()} and {@link #stop(long)}, memory sampled once a second
 * in between. PIDs come from {@code <runDir>/<name>.pid} (what {@code stack.sh} writes) or explicit
 * overrides; a component with neither, or whose process is gone, is left out.
 */
public final class ResourceSampler {
    static final List<String> COMPONENTS =
            List.of("postgres", "kafka", "sandbox-tools", "tool-executor", "inbox-consumer", "outbox-relay");

    private final List<Component> components;
    private final Map<String, Long> ticksAtStart = new LinkedHashMap<>();
    private final Map<String, List<Long>> pidsAtStart = new LinkedHashMap<>();
    private final Map<String, Long> peakRss = new ConcurrentHashMap<>();
    private final long ticksPerSecond = Proc.clockTicksPerSecond();
    private Thread sampler;
    private volatile boolean running;

    public ResourceSampler(BenchTarget target) {
        this.components = discover(target);
    }

    private static List<Component> discover(BenchTarget target) {
        List<Component> found = new ArrayList<>();
        for (String name : COMPONENTS) {
            Long pid = target.pids().containsKey(name) ? target.pids().get(name) : pidFile(target.runDir(), name);
            if (pid != null && Proc.alive(pid)) {
                found.add(Component.of(name, pid, name.equals("postgres")));
                if (name.equals("postgres")) {
                    found.add(Component.walsendersOf(pid));
                }
            }
        }
        return found;
    }

    private static Long pidFile(Path runDir, String name) {
        Path file = runDir == null ? null : runDir.resolve(name + ".pid");
        try {
            return file != null && Files.isRegularFile(file) ? Long.parseLong(Files.readString(file).trim()) : null;
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    /** Reads the CPU counters and starts sampling memory. */
    public void start() {
        components.forEach(c -> {
            ticksAtStart.put(c.name(), c.cpuTicks());
            pidsAtStart.put(c.name(), c.pids());
        });
        running = true;
        sampler = new Thread(this::sampleEverySecond, "bench-resources");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sampleEverySecond() {
        while (running) {
            sampleOnce();
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sampleOnce() {
        components.forEach(c -> peakRss.merge(c.name(), c.rssKiB(), Math::max));
    }

    /**
     * Stops sampling and reads the CPU counters again.
     *
     * @param calls calls answered in the interval, for CPU seconds per 1,000 calls
     */
    public List<ResourceUse> stop(long calls) throws InterruptedException {
        running = false;
        sampler.interrupt();
        sampler.join();
        sampleOnce();
        List<ResourceUse> uses = new ArrayList<>();
        for (Component c : components) {
            double peak = peakRss.getOrDefault(c.name(), 0L) / 1024.0;
            // A walsender that ended meanwhile took its ticks with it (to the postmaster's reaped children).
            if (!c.sameProcess() || (c.walsenders() && !c.pids().equals(pidsAtStart.get(c.name())))) {
                uses.add(ResourceUse.gone(c.name(), peak));
                continue;
            }
            double cpu = (double) (c.cpuTicks() - ticksAtStart.get(c.name())) / ticksPerSecond;
            uses.add(new ResourceUse(c.name(), c.pids().size(), cpu, calls == 0 ? 0.0 : cpu * 1000 / calls, peak,
                    c.hwmKiB() / 1024.0, null));
        }
        return uses;
    }
}
