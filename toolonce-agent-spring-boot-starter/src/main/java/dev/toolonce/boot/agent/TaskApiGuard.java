package dev.toolonce.boot.agent;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Refuses to start an application that enables the task API ({@code toolonce.agent.api=true}) without securing it:
 * {@code /tasks} approves and changes pending tool calls, so it is never served anonymously. Secured means
 * {@code dev.toolonce:security} on the classpath, and either a credential source for its bearer chain
 * ({@code toolonce.security.tokens-file} or {@code toolonce.security.jwt.*}) or a Spring Security filter chain of
 * the application's own.
 *
 * <p>A service whose main job is something else (inbox-consumer, which consumes results) may set
 * {@code toolonce.agent.api-unsecured=deny-all}: it then starts, logs why, and its {@code /tasks} answers every request
 * 401 — as secure as refusing, without stopping the result consumer.
 */
final class TaskApiGuard implements SmartInitializingSingleton {
    private static final Logger log = LoggerFactory.getLogger(TaskApiGuard.class);
    static final String OURS = "toolonceSecurityFilterChain";
    private final ListableBeanFactory beans;
    private final Environment env;

    TaskApiGuard(ListableBeanFactory beans, Environment env) {
        this.beans = beans;
        this.env = env;
    }

    @Override
    public void afterSingletonsInstantiated() {
        ClassLoader cl = getClass().getClassLoader();
        if (!ClassUtils.isPresent("dev.toolonce.security.TenantScope", cl)
                || !ClassUtils.isPresent("org.springframework.security.web.SecurityFilterChain", cl)) {
            throw new IllegalStateException("toolonce.agent.api=true serves /tasks, which approves and changes pending "
                    + "tool calls, and it is never served without a credential: add the dependency dev.toolonce:security "
                    + "and set toolonce.security.tokens-file (or toolonce.security.jwt.*), or set toolonce.agent.api=false");
        }
        String[] chains = beans.getBeanNamesForType(
                ClassUtils.resolveClassName("org.springframework.security.web.SecurityFilterChain", cl));
        boolean onlyOurs = chains.length == 1 && chains[0].equals(OURS);
        if (chains.length > 0 && onlyOurs && !credentialSourceConfigured()
                && "deny-all".equals(env.getProperty("toolonce.agent.api-unsecured"))) {
            log.warn("toolonce.agent.api=true without a credential "
                    + "source: /tasks answers every request 401 (toolonce.agent.api-unsecured=deny-all); set "
                    + "toolonce.security.tokens-file or toolonce.security.jwt.* to use it");
            return;
        }
        if (chains.length == 0 || (onlyOurs && !credentialSourceConfigured())) {
            throw new IllegalStateException("toolonce.agent.api=true serves /tasks, but no credential can reach it: set "
                    + "toolonce.security.tokens-file (./toolonce tokens create) or toolonce.security.jwt.issuer-uri "
                    + "(or jwk-set-uri, public-key-location), give the application a Spring Security filter chain of "
                    + "its own, or set toolonce.agent.api=false");
        }
    }

    private boolean credentialSourceConfigured() {
        for (String key : new String[] {"toolonce.security.tokens-file", "toolonce.security.jwt.issuer-uri",
                "toolonce.security.jwt.jwk-set-uri", "toolonce.security.jwt.public-key-location"}) {
            String v = env.getProperty(key);
            if (v != null && !v.isBlank()) {
                return true;
            }
        }
        return false;
    }
}
