package io.pinion.feed.explain;

import java.util.Map;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One stage of a {@link FeedExplanation}.
 *
 * @param stage    {@code pin}, {@code follow}, {@code route}, {@code pool}, {@code shown} or {@code jobs}
 * @param source   where the evidence was read, e.g. {@code mysql-2 (shard 7)}
 * @param state    {@code ok} (the pin got past this stage), {@code info} (it did not, but the path did not end
 *                 here), {@code stop} (the path ends here) or {@code unavailable} (the source did not answer)
 * @param summary  what the stage found, in one sentence
 * @param evidence what was read, field by field (ids as strings, times in ISO-8601)
 */
@Schema(name = "ExplainStage")
public record ExplainStage(String stage, String source, String state, String summary, Map<String, Object> evidence) {

    public static final String OK = "ok";
    public static final String INFO = "info";
    public static final String STOP = "stop";
    public static final String UNAVAILABLE = "unavailable";
}
