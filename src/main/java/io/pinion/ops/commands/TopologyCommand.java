package io.pinion.ops.commands;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pinion.ops.TopologyEdits;
import io.pinion.topology.ActiveTopology;
import io.pinion.topology.TopologyLoader;

/**
 * {@code bin/admin topology get|put FILE|diff FILE}: the topology in ZooKeeper printed, replaced (a compare-and-set
 * on the version read just before), or compared with a file, line by line.
 */
@ApplicationScoped
class TopologyCommand {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final TopologyEdits edits;

    TopologyCommand(TopologyEdits edits) {
        this.edits = edits;
    }

    int run(String action, List<String> values, PrintStream out) {
        boolean withFile = action.equals("put") || action.equals("diff");
        if (!(action.equals("get") || withFile) || values.size() != (withFile ? 1 : 0)) {
            out.println("bin/admin: usage: topology get | topology put FILE | topology diff FILE");
            return 2;
        }
        ActiveTopology.Versioned stored = edits.stored().await().atMost(WAIT);
        if (action.equals("get")) {
            out.printf("# version %d%n", stored.version());
            out.print(TopologyLoader.toJson(stored.topology()));
            return 0;
        }
        String document;
        try {
            document = Files.readString(Path.of(values.get(0)));
        } catch (IOException e) {
            out.println("bin/admin: cannot read " + values.get(0) + ": " + e.getMessage());
            return 1;
        }
        List<String> diff =
                diff(TopologyLoader.toJson(stored.topology()), TopologyLoader.toJson(TopologyEdits.parse(document)));
        if (action.equals("diff")) {
            out.printf("# version %d in ZooKeeper (-) against %s (+)%n", stored.version(), values.get(0));
            diff.forEach(out::println);
            return diff.isEmpty() ? 0 : 3;
        }
        if (diff.isEmpty()) {
            out.printf("topology unchanged (version %d)%n", stored.version());
            return 0;
        }
        ActiveTopology.Versioned done = edits.replace(document, stored.version()).await().atMost(WAIT);
        diff.forEach(out::println);
        out.printf("topology version %d -> %d%n", stored.version(), done.version());
        return 0;
    }

    /**
     * The lines only in {@code before} ({@code -}) and only in {@code after} ({@code +}), in order (longest common
     * subsequence).
     */
    static List<String> diff(String before, String after) {
        String[] a = before.split("\n");
        String[] b = after.split("\n");
        int[][] common = new int[a.length + 1][b.length + 1];
        for (int i = a.length - 1; i >= 0; i--) {
            for (int j = b.length - 1; j >= 0; j--) {
                common[i][j] =
                        a[i].equals(b[j]) ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
            }
        }
        List<String> lines = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < a.length || j < b.length) {
            if (i < a.length && j < b.length && a[i].equals(b[j])) {
                i++;
                j++;
            } else if (i < a.length && (j == b.length || common[i + 1][j] >= common[i][j + 1])) {
                lines.add("-" + a[i++]);
            } else {
                lines.add("+" + b[j++]);
            }
        }
        return lines;
    }
}
