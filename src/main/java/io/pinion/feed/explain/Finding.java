package io.pinion.feed.explain;

import java.util.Map;

/** What one stage of an explanation found: a sentence, and the evidence behind it. */
interface Finding {

    String summary();

    Map<String, Object> evidence();
}
