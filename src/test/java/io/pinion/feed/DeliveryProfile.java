package io.pinion.feed;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The delivery tests' settings (funnel balance, explain): boards with more than 3 receivers are pulled, and the
 * quality bar is 50, so a fresh following pin (worth 100) and a related pin (60) pass it while a fresh interest pin
 * (40) is dropped below it. Test classes that share this profile share one application start.
 */
public class DeliveryProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("pinion.feed.pull-threshold", "3", "pinion.feed.quality-threshold", "50");
    }
}
