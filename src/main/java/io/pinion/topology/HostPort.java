package io.pinion.topology;

/**
 * A {@code host:port} endpoint as written in the topology file.
 */
public record HostPort(String host, int port) {

    public static HostPort parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("missing host:port");
        }
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not host:port");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has no numeric port");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("'" + text + "' has a port outside 1..65535");
        }
        return new HostPort(text.substring(0, colon), port);
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
