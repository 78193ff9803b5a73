package io.pinion.logging;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Formatter;
import java.util.logging.Handler;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.handlers.ConsoleHandler;

import io.quarkus.runtime.StartupEvent;

/**
 * Puts the console log in JSON when {@code pinion.log.format} is {@code json} ({@link LogConfig}): at the start,
 * before any other observer of it, the console handlers of the root logger get a {@link JsonLogFormatter} in place
 * of the pattern of {@code quarkus.log.console.format}; their level, filters and target stay as Quarkus set them.
 * Quarkus keeps the console handler inside handlers of its own (the handler that holds the lines written before
 * logging is configured, an asynchronous one with {@code quarkus.log.console.async}): they are searched through
 * the public {@link ExtHandler#getHandlers()}. One wrapper does not show what it holds: dev and test runs with
 * coloured output wrap the console handler in a handler of Quarkus's own, so JSON needs the colours off there
 * ({@code quarkus.console.color=false}); a warning says when no console handler was found.
 * <p>
 * The few lines Quarkus writes before its start event (configuration warnings, for one) keep the text format; the
 * extension {@code quarkus-logging-json}, which would format them too, is not used.
 */
@ApplicationScoped
class ConsoleLogFormat {

    private static final Logger LOG = Logger.getLogger(ConsoleLogFormat.class);

    void onStart(@Observes @Priority(Integer.MIN_VALUE) StartupEvent start, LogConfig config) {
        if (config.format() != LogConfig.Format.JSON) {
            return;
        }
        Handler[] root = java.util.logging.Logger.getLogger("").getHandlers();
        if (use(root, new JsonLogFormatter()) == 0) {
            LOG.warn("pinion.log.format=json, but the root logger has no console handler that could take it (with"
                    + " coloured dev or test output, set quarkus.console.color=false); the console keeps the format"
                    + " of quarkus.log.console.format");
        }
    }

    /** Gives {@code formatter} to every console handler among {@code handlers}; returns how many took it. */
    static int use(Handler[] handlers, Formatter formatter) {
        List<ConsoleHandler> consoles = consoleHandlers(handlers);
        for (ConsoleHandler console : consoles) {
            console.setFormatter(formatter);
        }
        return consoles.size();
    }

    /** The console handlers among {@code handlers} and the handlers they hold, at any depth. */
    static List<ConsoleHandler> consoleHandlers(Handler[] handlers) {
        List<ConsoleHandler> found = new ArrayList<>();
        collect(handlers, found);
        return found;
    }

    private static void collect(Handler[] handlers, List<ConsoleHandler> found) {
        for (Handler handler : handlers) {
            if (handler instanceof ConsoleHandler console) {
                found.add(console);
            } else if (handler instanceof ExtHandler holder) {
                collect(holder.getHandlers(), found);
            }
        }
    }
}
