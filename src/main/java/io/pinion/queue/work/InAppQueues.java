package io.pinion.queue.work;

import java.util.HashSet;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;

/**
 * The service's own queues: those of its {@link JobHandler}s marked {@link JobHandler#internal()} (the feed's and the
 * graph's). Their jobs carry internal state, so nothing outside the service may add to them or lease from them.
 */
@ApplicationScoped
public class InAppQueues {

    private final Set<String> names;

    InAppQueues(@Any Instance<JobWorker> workers) {
        Set<String> found = new HashSet<>();
        for (Instance.Handle<JobWorker> handle : workers.handles()) {
            JobHandler annotation = handle.getBean().getBeanClass().getAnnotation(JobHandler.class);
            if (annotation != null && annotation.internal()) {
                found.add(annotation.value());
            }
        }
        this.names = Set.copyOf(found);
    }

    public boolean contains(String queue) {
        return names.contains(queue);
    }
}
