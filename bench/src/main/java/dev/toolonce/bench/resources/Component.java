package dev.toolonce.bench.resources;

import java.util.ArrayList;
import java.util.List;

/**
 * One measured part of the stack: a JVM, or PostgreSQL as its postmaster plus every backend and helper it
 * forked. For a group, CPU time also counts children that exited meanwhile (the postmaster's reaped-children
 * ticks), so short-lived backends are not lost between two readings.
 *
 * @param name    {@code postgres}, {@code kafka} or a service name
 * @param pid     the process (the postmaster for PostgreSQL)
 * @param started the process's start time in ticks, telling a restarted component from the one first seen
 * @param group   whether the process's children belong to the component
 * @param walsenders whether the component is only the postmaster's walsenders, a part of PostgreSQL shown on its own
 *                line: logical decoding of every outbox's WAL is their work, not the backends'
 */
record Component(String name, long pid, long started, boolean group, boolean walsenders) {
    /** The name of the walsenders' row. */
    static final String WALSENDERS = "postgres walsenders";

    static Component of(String name, long pid, boolean group) {
        return new Component(name, pid, Proc.startTicks(pid), group, false);
    }

    /** The walsenders among the postmaster's children: counted in {@code postgres} too. */
    static Component walsendersOf(long postmaster) {
        return new Component(WALSENDERS, postmaster, Proc.startTicks(postmaster), true, true);
    }

    /** Whether the process first seen still runs (not exited, not replaced by a restart under a recycled PID). */
    boolean sameProcess() {
        return started >= 0 && Proc.startTicks(pid) == started;
    }

    List<Long> pids() {
        if (walsenders) {
            return Proc.children(pid).stream().filter(Proc::isWalsender).toList();
        }
        List<Long> pids = new ArrayList<>();
        pids.add(pid);
        if (group) {
            pids.addAll(Proc.children(pid));
        }
        return pids;
    }

    long cpuTicks() {
        long ticks = group && !walsenders ? Proc.reapedChildTicks(pid) : 0;
        for (long p : pids()) {
            ticks += Proc.ownTicks(p);
        }
        return ticks;
    }

    long rssKiB() {
        return pids().stream().mapToLong(Proc::rssKiB).sum();
    }

    long hwmKiB() {
        return pids().stream().mapToLong(Proc::hwmKiB).sum();
    }
}
