package io.pinion.prometheus;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * {@code pinion.prometheus.*}: the Prometheus that scrapes every instance of the cluster (e.g. {@code bin/cluster up
 * --prometheus}: {@code http://127.0.0.1:9090}). Set, the dashboard shows cluster-wide figures beside this
 * instance's; unset, it says its figures are this instance's.
 */
@ConfigMapping(prefix = "pinion.prometheus")
public interface PrometheusConfig {

    /** Its base URL ({@code http://host:9090}); none by default. */
    Optional<String> url();

    /** The longest a query may take. */
    @WithDefault("2s")
    Duration timeout();

    /** The scrape job of the instances ({@code up{job=…}} counts them). */
    @WithDefault("pinion")
    String job();
}
