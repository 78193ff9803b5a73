package io.pinion.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A Dockerfile read as instructions, enough for the checks of the deploy tests: comments and parser directives
 * dropped, continued lines joined, instructions grouped by build stage ({@code FROM} starts one); the {@code ARG}s
 * before the first {@code FROM} (those a {@code FROM} may use) kept apart.
 */
record DockerfileText(Path file, List<Instruction> globalArgs, List<List<Instruction>> stages) {

    /** One instruction: its keyword in upper case and the rest of the line. */
    record Instruction(String keyword, String arguments) {
    }

    static DockerfileText read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<List<Instruction>> stages = new ArrayList<>();
        List<Instruction> globalArgs = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.startsWith("#") || (line.isEmpty() && pending.isEmpty())) {
                continue;
            }
            if (line.endsWith("\\")) {
                pending.append(line, 0, line.length() - 1).append(' ');
                continue;
            }
            pending.append(line);
            String text = pending.toString().strip();
            pending.setLength(0);
            if (text.isEmpty()) {
                continue;
            }
            int space = text.indexOf(' ');
            String keyword = (space < 0 ? text : text.substring(0, space)).toUpperCase(Locale.ROOT);
            Instruction instruction = new Instruction(keyword, space < 0 ? "" : text.substring(space + 1).strip());
            if (keyword.equals("FROM")) {
                stages.add(new ArrayList<>());
            }
            if (stages.isEmpty() && keyword.equals("ARG")) {
                globalArgs.add(instruction);
                continue;
            }
            if (stages.isEmpty()) {
                throw new IllegalStateException(file + ": " + keyword + " before the first FROM");
            }
            stages.get(stages.size() - 1).add(instruction);
        }
        if (stages.isEmpty()) {
            throw new IllegalStateException(file + " has no FROM");
        }
        return new DockerfileText(file, globalArgs, stages);
    }

    /** The default of a global {@code ARG NAME=default}, or null when there is no such argument or no default. */
    String globalArgDefault(String name) {
        return globalArgs.stream()
                .map(Instruction::arguments)
                .filter(arguments -> arguments.startsWith(name + "="))
                .map(arguments -> arguments.substring(name.length() + 1).replace("\"", ""))
                .findFirst().orElse(null);
    }

    List<Instruction> finalStage() {
        return stages.get(stages.size() - 1);
    }

    /** The image the final stage starts from: the first word after FROM that is not an option. */
    String finalBaseImage() {
        return baseImage(finalStage().get(0));
    }

    static String baseImage(Instruction from) {
        return List.of(from.arguments().split("\\s+")).stream()
                .filter(word -> !word.startsWith("--"))
                .findFirst()
                .orElse("");
    }

    /** Arguments of the final stage's instructions with this keyword, in order. */
    List<String> inFinalStage(String keyword) {
        return finalStage().stream()
                .filter(instruction -> instruction.keyword().equals(keyword))
                .map(Instruction::arguments)
                .toList();
    }

    /** Every instruction with this keyword, in every stage. */
    List<String> everywhere(String keyword) {
        return stages.stream()
                .flatMap(List::stream)
                .filter(instruction -> instruction.keyword().equals(keyword))
                .map(Instruction::arguments)
                .toList();
    }
}
