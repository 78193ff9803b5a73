package io.pinion.topology;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.scheduler.Scheduled;

/**
 * Applies an edited topology file without an admin call, checking its modification time every
 * {@code pinion.topology.watch-interval}.
 */
@ApplicationScoped
public class TopologyFileWatch {

    private final ActiveTopology topology;

    TopologyFileWatch(ActiveTopology topology) {
        this.topology = topology;
    }

    @Scheduled(every = "${pinion.topology.watch-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void check() {
        topology.reloadIfFileChanged();
    }
}
