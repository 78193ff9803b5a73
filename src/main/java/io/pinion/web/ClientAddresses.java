package io.pinion.web;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.common.net.CidrAddress;
import io.smallrye.common.net.Inet;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;

/**
 * The client address of a request, for the login limits: the socket peer's, or, when the peer is a trusted proxy
 * ({@code pinion.http.trusted-proxies}), the address the proxies forward in {@code X-Forwarded-For} (else
 * {@code Forwarded: for=}). The forwarded list is read from the right, the end the trusted proxies append to, and the
 * first address that is not itself a trusted proxy is the client's: what a client writes in the header itself stays
 * on the left, behind the address its proxy appended, and cannot stand for another client.
 *
 * <p>Only the requests that ask pay for this (a login or a sign-up): the framework's own forwarding, which wrapped and
 * checked every request, is off. Any thread; no state after the start.
 */
@ApplicationScoped
public class ClientAddresses {

    private final List<CidrAddress> trusted;

    ClientAddresses(ProxyConfig config) {
        this.trusted = config.trustedProxies().stream().map(ClientAddresses::cidr).toList();
    }

    /** The client address; {@code null} for a request without a socket peer. */
    public String of(HttpServerRequest http) {
        SocketAddress peer = http == null ? null : http.remoteAddress();
        if (peer == null || peer.hostAddress() == null) {
            return null;
        }
        return of(peer.hostAddress(), http.headers().getAll("X-Forwarded-For"), http.headers().getAll("Forwarded"));
    }

    /** The client address from the socket peer's and the values of the two forwarding headers. */
    String of(String peer, List<String> xForwardedFor, List<String> forwardedHeaders) {
        if (!isTrusted(peer)) {
            return peer;
        }
        String address = peer;
        List<String> forwarded = forwardedFor(xForwardedFor, forwardedHeaders);
        for (int i = forwarded.size() - 1; i >= 0; i--) {
            String hop = forwarded.get(i);
            if (!isTrusted(hop)) {
                return hop;
            }
            address = hop;
        }
        return address;
    }

    /** Whether the address (an IP literal) is one of the trusted proxies'; anything else is not. */
    boolean isTrusted(String address) {
        InetAddress ip = Inet.parseInetAddress(address);
        if (ip == null) {
            return false;
        }
        for (CidrAddress range : trusted) {
            if (range.matches(ip)) {
                return true;
            }
        }
        return false;
    }

    /** The forwarded hops, client first: every {@code X-Forwarded-For} value, else every {@code Forwarded} for=. */
    private static List<String> forwardedFor(List<String> xForwardedFor, List<String> forwardedHeaders) {
        List<String> hops = new ArrayList<>();
        for (String header : xForwardedFor) {
            for (String hop : header.split(",")) {
                add(hops, hop);
            }
        }
        if (!hops.isEmpty()) {
            return hops;
        }
        for (String header : forwardedHeaders) {
            for (String element : header.split(",")) {
                for (String pair : element.split(";")) {
                    int equals = pair.indexOf('=');
                    if (equals > 0 && pair.substring(0, equals).trim().equalsIgnoreCase("for")) {
                        add(hops, pair.substring(equals + 1));
                    }
                }
            }
        }
        return hops;
    }

    /** A hop as an address: quotes, an IPv6 literal's brackets and a port taken off. */
    private static void add(List<String> hops, String raw) {
        String hop = raw.trim();
        if (hop.length() > 1 && hop.startsWith("\"") && hop.endsWith("\"")) {
            hop = hop.substring(1, hop.length() - 1);
        }
        if (hop.startsWith("[")) {
            int close = hop.indexOf(']');
            hop = close > 0 ? hop.substring(1, close) : hop;
        } else if (hop.indexOf(':') > 0 && hop.indexOf(':') == hop.lastIndexOf(':')) {
            hop = hop.substring(0, hop.indexOf(':'));
        }
        if (hop.isEmpty()) {
            return;
        }
        InetAddress ip = Inet.parseInetAddress(hop);
        // an obfuscated or unknown hop ("unknown", "_hidden") is never trusted: all such clients share its name
        hops.add(ip == null ? hop : Inet.toOptimalString(ip));
    }

    private static CidrAddress cidr(String entry) {
        String value = entry.trim();
        CidrAddress range = Inet.parseCidrAddress(value.contains("/") ? value : value + (value.contains(":") ? "/128"
                : "/32"));
        if (range == null) {
            throw new IllegalArgumentException("pinion.http.trusted-proxies: not an address or CIDR: " + entry);
        }
        return range;
    }
}
