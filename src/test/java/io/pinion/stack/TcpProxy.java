package io.pinion.stack;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on 127.0.0.1:{@code port} to {@code target}, for cutting one process off from a server while
 * others still reach it: {@link #cut()} closes every connection and refuses new ones, {@link #heal()} forwards again.
 */
public final class TcpProxy implements AutoCloseable {

    private final int port;
    private final InetSocketAddress target;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile ServerSocket server;

    public TcpProxy(int port, String targetHost, int targetPort) {
        this.port = port;
        this.target = new InetSocketAddress(targetHost, targetPort);
    }

    /** Starts forwarding. */
    public synchronized TcpProxy heal() throws IOException {
        if (server == null) {
            ServerSocket listening = new ServerSocket();
            listening.setReuseAddress(true);
            listening.bind(new InetSocketAddress("127.0.0.1", port));
            server = listening;
            Thread acceptor = new Thread(() -> accept(listening), "tcp-proxy-" + port);
            acceptor.setDaemon(true);
            acceptor.start();
        }
        return this;
    }

    /** Closes every forwarded connection and stops listening: connections to the port are refused. */
    public synchronized void cut() {
        ServerSocket listening = server;
        server = null;
        if (listening != null) {
            close(listening);
        }
        sockets.forEach(TcpProxy::close);
        sockets.clear();
    }

    @Override
    public void close() {
        cut();
    }

    private void accept(ServerSocket listening) {
        while (!listening.isClosed()) {
            try {
                Socket client = listening.accept();
                Socket upstream = new Socket();
                upstream.connect(target, 2_000);
                sockets.add(client);
                sockets.add(upstream);
                pipe(client, upstream);
                pipe(upstream, client);
            } catch (IOException e) {
                // closed (cut), or the target refused: the client sees its connection end
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16_384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed
            } finally {
                close(from);
                close(to);
            }
        }, "tcp-proxy-pipe-" + port);
        thread.setDaemon(true);
        thread.start();
    }

    private static void close(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
