package io.pinion.web;

import java.util.List;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code pinion.http.*}: what the service believes of the proxies in front of it. */
@ConfigMapping(prefix = "pinion.http")
public interface ProxyConfig {

    /**
     * The load balancers and proxies (addresses or CIDRs, IPv4 or IPv6) whose forwarded client address
     * ({@code X-Forwarded-For}, {@code Forwarded}) is believed; any other peer's forwarding headers are ignored
     * ({@link ClientAddresses}).
     */
    @WithDefault("127.0.0.1")
    List<String> trustedProxies();
}
