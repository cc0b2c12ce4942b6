package dev.toolonce.relay.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.debezium.bean.DefaultBeanRegistry;
import io.debezium.config.CommonConnectorConfig;
import io.debezium.config.Configuration;
import io.debezium.connector.base.ChangeEventQueue;
import io.debezium.connector.base.QueueProvider;
import io.debezium.connector.base.QueueProviderService;
import io.debezium.connector.base.QueueProviderServiceProvider;
import io.debezium.connector.postgresql.PostgresConnectorTask;
import io.debezium.pipeline.ChangeEventSourceCoordinator;
import io.debezium.service.DefaultServiceRegistry;
import io.debezium.service.spi.ServiceProvider;
import io.debezium.service.spi.ServiceRegistry;

/**
 * The Debezium internals that {@link RelayPostgresTask} relies on, checked one by one so that an upgrade that
 * changes them fails here, naming what changed, instead of quietly turning the relay's hand-over into a 500 ms
 * poll. If this fails after a Debezium upgrade: read RelayPostgresTask's comment, then either adapt it or drop it
 * (and {@code max.batch.size=1} in EngineSettings) for Debezium's own poll, measuring the latency with the bench.
 */
class DebeziumInternalsTest {

    @Test
    void theTaskHooksItOverridesStillExistAndCanBeOverridden() {
        assertOverridable(PostgresConnectorTask.class, "start", ChangeEventSourceCoordinator.class, Configuration.class);
        assertOverridable(PostgresConnectorTask.class, "registerServiceProviders", void.class, ServiceRegistry.class);
        assertOverridable(PostgresConnectorTask.class, "doPoll", List.class);
    }

    @Test
    void theTaskStillBuildsItsChangeEventQueueFromTheQueueProviderServiceAfterRegisteringProviders() throws IOException {
        // Not a reflection question: which methods PostgresConnectorTask's own code calls. Its class file names every
        // method it calls in its constant pool, so a task that stopped calling these would no longer name them.
        String classFile = classFileText(PostgresConnectorTask.class);
        assertThat(classFile).as("PostgresConnectorTask calls registerServiceProviders")
                .contains("registerServiceProviders");
        assertThat(classFile).as("PostgresConnectorTask builds its queue over QueueProviderService's provider")
                .contains("io/debezium/connector/base/QueueProviderService").contains("getQueueProvider")
                .contains("queueProvider");
        assertMethod(ChangeEventQueue.Builder.class, "queueProvider", ChangeEventQueue.Builder.class,
                QueueProvider.class);
    }

    @Test
    void theServiceRegistryAndQueueProviderSpiHaveTheShapeTheTaskImplements() {
        assertMethod(ServiceRegistry.class, "registerServiceProvider", void.class, ServiceProvider.class);
        assertMethod(ServiceRegistry.class, "getService", io.debezium.service.Service.class, Class.class);
        assertThat(abstractMethods(ServiceProvider.class)).containsExactlyInAnyOrder("createService", "getServiceClass");
        assertThat(abstractMethods(QueueProvider.class))
                .containsExactlyInAnyOrder("name", "configure", "enqueue", "poll", "size");
        try {
            QueueProviderService.class.getConstructor(QueueProvider.class);
        } catch (NoSuchMethodException e) {
            fail("QueueProviderService(QueueProvider) is gone: RelayPostgresTask.install cannot wrap its queue", e);
        }
        assertMethod(QueueProviderService.class, "getQueueProvider", QueueProvider.class);
        assertThat(CommonConnectorConfig.MAX_BATCH_SIZE.name()).as("EngineSettings sets it to 1")
                .isEqualTo("max.batch.size");
    }

    @Test
    void aProviderRegisteredAfterDebeziumsOwnReplacesIt() {
        ServiceRegistry registry = new DefaultServiceRegistry(Configuration.empty(), new DefaultBeanRegistry());
        registry.registerServiceProvider(new QueueProviderServiceProvider()); // what BaseSourceTask registers
        ArrivalQueue<Object> queue = new ArrivalQueue<>();

        RelayPostgresTask.install(registry, queue);

        QueueProvider<Object> provider = registry.getService(QueueProviderService.class).getQueueProvider();
        assertThat(provider).isInstanceOf(RelayPostgresTask.ArrivalStorage.class);
        assertThat(((RelayPostgresTask.ArrivalStorage<Object>) provider).queue()).isSameAs(queue);
    }

    @Test
    void theStorageHandsEventsToTheArrivalQueue() throws InterruptedException {
        ArrivalQueue<Object> queue = new ArrivalQueue<>();
        QueueProvider<Object> storage = new RelayPostgresTask.ArrivalStorage<>(queue);
        storage.configure(Map.of());
        storage.enqueue("e1");
        assertThat(queue.size()).isEqualTo(1);
        assertThat(storage.size()).isEqualTo(1);
        assertThat(storage.poll()).isEqualTo("e1");
        assertThat(queue.enqueued()).isEqualTo(1);
    }

    private static void assertOverridable(Class<?> type, String name, Class<?> returns, Class<?>... params) {
        Method m = assertMethod(type, name, returns, params);
        assertThat(Modifier.isFinal(m.getModifiers()) || Modifier.isPrivate(m.getModifiers()))
                .as("%s.%s can no longer be overridden", m.getDeclaringClass().getName(), name).isFalse();
    }

    /** Finds the method in the class or its superclasses; fails naming it when it is gone or changed its type. */
    private static Method assertMethod(Class<?> type, String name, Class<?> returns, Class<?>... params) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                Method m = c.getDeclaredMethod(name, params);
                assertThat(returns.isAssignableFrom(m.getReturnType()))
                        .as("%s.%s returns %s, expected %s", c.getName(), name, m.getReturnType(), returns).isTrue();
                return m;
            } catch (NoSuchMethodException next) {
                // look further up
            }
        }
        return fail("%s no longer has %s(%s): Debezium changed an internal that RelayPostgresTask uses", type.getName(),
                name, Arrays.toString(params));
    }

    private static List<String> abstractMethods(Class<?> type) {
        return Arrays.stream(type.getMethods()).filter(m -> Modifier.isAbstract(m.getModifiers()))
                .map(Method::getName).distinct().toList();
    }

    private static String classFileText(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            assertThat(in).as("class file of %s", type.getName()).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
