package dev.storh.spring.listener;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.util.Assert;

/**
 * Holds every {@link StorhListenerContainer} of the application, by id, and runs their lifecycle
 * with the context's: containers marked auto-startup start when the context has refreshed, and
 * all stop (at once, each within its shutdown timeout) when it closes. The containers are not
 * beans: reach them here, e.g. {@code registry.pause("geocoder")}.
 * <p>
 * Thread-safe.
 */
public class StorhListenerEndpointRegistry implements SmartLifecycle, DisposableBean {

    private final Map<String, StorhListenerContainer> containers = new ConcurrentHashMap<>();

    private final List<Consumer<StorhListenerContainer>> listeners = new CopyOnWriteArrayList<>();

    private final Object monitor = new Object();

    private volatile boolean running;

    /**
     * Adds a container; it starts now when the registry is running and the container is
     * auto-startup.
     * @param container the container
     * @throws IllegalStateException when another container has its id
     */
    public void registerListenerContainer(StorhListenerContainer container) {
        Assert.notNull(container, "'container' must not be null");
        synchronized (this.monitor) {
            StorhListenerContainer existing = this.containers.putIfAbsent(container.getId(), container);
            if (existing != null) {
                throw new IllegalStateException("Another storh listener already has the id '" + container.getId()
                        + "' (" + existing + "); give each @StorhListener a unique id");
            }
            this.listeners.forEach((listener) -> listener.accept(container));
            if (this.running && container.isAutoStartup()) {
                container.start();
            }
        }
    }

    /**
     * Calls the callback for every container registered so far and every later one (e.g. to bind
     * meters).
     * @param listener the callback
     */
    public void addContainerListener(Consumer<StorhListenerContainer> listener) {
        Assert.notNull(listener, "'listener' must not be null");
        synchronized (this.monitor) {
            this.listeners.add(listener);
            this.containers.values().forEach(listener);
        }
    }

    /**
     * @param id a container id
     * @return the container, or {@code null} when there is none with that id
     */
    public StorhListenerContainer getListenerContainer(String id) {
        return this.containers.get(id);
    }

    /**
     * @return the container ids
     */
    public Set<String> getListenerContainerIds() {
        return Set.copyOf(this.containers.keySet());
    }

    /**
     * @return every container
     */
    public Collection<StorhListenerContainer> getListenerContainers() {
        return List.copyOf(this.containers.values());
    }

    /**
     * Pauses a container (see {@link StorhListenerContainer#pause()}).
     * @param id the container id
     * @throws IllegalArgumentException when there is no container with that id
     */
    public void pause(String id) {
        require(id).pause();
    }

    /**
     * Resumes a paused container.
     * @param id the container id
     * @throws IllegalArgumentException when there is no container with that id
     */
    public void resume(String id) {
        require(id).resume();
    }

    @Override
    public void start() {
        synchronized (this.monitor) {
            this.running = true;
            for (StorhListenerContainer container : this.containers.values()) {
                if (container.isAutoStartup()) {
                    container.start();
                }
            }
        }
    }

    @Override
    public void stop() {
        synchronized (this.monitor) {
            this.running = false;
        }
        List<Thread> stoppers = new ArrayList<>();
        for (StorhListenerContainer container : this.containers.values()) {
            Thread stopper = new Thread(container::stop, container.getId() + "-stop");
            stopper.start();
            stoppers.add(stopper);
        }
        for (Thread stopper : stoppers) {
            try {
                stopper.join();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void stop(Runnable callback) {
        synchronized (this.monitor) {
            this.running = false;
        }
        Collection<StorhListenerContainer> all = getListenerContainers();
        if (all.isEmpty()) {
            callback.run();
            return;
        }
        AtomicInteger left = new AtomicInteger(all.size());
        for (StorhListenerContainer container : all) {
            container.stop(() -> {
                if (left.decrementAndGet() == 0) {
                    callback.run();
                }
            });
        }
    }

    @Override
    public boolean isRunning() {
        return this.running;
    }

    @Override
    public int getPhase() {
        return StorhListenerContainer.DEFAULT_PHASE;
    }

    @Override
    public void destroy() {
        stop();
    }

    private StorhListenerContainer require(String id) {
        StorhListenerContainer container = this.containers.get(id);
        Assert.isTrue(container != null, () -> "No storh listener with id '" + id + "'; known: "
                + this.containers.keySet());
        return container;
    }

}
