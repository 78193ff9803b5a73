package io.pinion.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every meter the service registers is named in one convention: Micrometer's dotted lower-case words under
 * {@code pinion.}, without a unit or {@code total} suffix (Prometheus adds {@code _seconds} to timers and
 * {@code _total} to counters, and turns the dots into underscores), so the names in the code and in docs/metrics.md
 * are told apart by their separators alone.
 */
class MetricNamesTest {

    /** A meter name given to a builder or to the registry's shortcuts, as a literal. */
    private static final Pattern NAMED = Pattern.compile(
            "(?:Counter|Timer|Gauge|DistributionSummary|FunctionCounter|LongTaskTimer)\\s*\\.builder\\(\\s*\"([^\"]+)\""
                    + "|registry\\.(?:counter|gauge|timer|summary)\\(\\s*\"([^\"]+)\""
                    + "|static final String (?:METRIC|TIMER|ERRORS|FUNNEL|HEDGE_READS|HEDGE_DELAY) = \"([^\"]+)\"");
    private static final Pattern CONVENTION = Pattern.compile("pinion(\\.[a-z0-9]+)+");

    @Test
    void everyMeterIsNamedInDottedWordsUnderPinion() throws IOException {
        List<String> found = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher matcher = NAMED.matcher(Files.readString(file));
                while (matcher.find()) {
                    String name = matcher.group(1) != null ? matcher.group(1)
                            : matcher.group(2) != null ? matcher.group(2) : matcher.group(3);
                    found.add(name);
                    // a prefix such as "pinion.queue." + a gauge's own words
                    String checked = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
                    if (!CONVENTION.matcher(checked).matches() || checked.endsWith(".total")) {
                        wrong.add(file.getFileName() + ": " + name);
                    }
                }
            }
        }
        assertTrue(found.size() > 40, "the scan finds the service's meters: " + found.size());
        assertEquals(List.of(), wrong);
    }
}
