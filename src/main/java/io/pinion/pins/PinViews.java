package io.pinion.pins;

import java.util.List;
import java.util.Objects;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.io.SerializedString;

import io.pinion.graph.InterestNames;
import io.pinion.id.ObjectType;
import io.pinion.id.PinionId;
import io.pinion.store.JsonBlobs;
import io.pinion.store.StoredObject;

/**
 * Turns stored pins into API views; deleted pins become null so lists can drop them.
 */
@ApplicationScoped
public class PinViews {

    /** Counter names kept for pins. */
    public static final String LIKES = "likes";
    public static final String SAVES = "saves";

    private final JsonBlobs json;

    PinViews(JsonBlobs json) {
        this.json = json;
    }

    public PinData data(StoredObject stored) {
        return json.read(stored, PinData.class);
    }

    /** The view of an active pin, or null when it is missing or deleted; built once per cached pin. */
    public PinView viewIfActive(StoredObject stored) {
        if (stored == null) {
            return null;
        }
        Shown shown = stored.decoded(Shown.class, blob -> {
            PinData data = data(stored);
            return new Shown(data.active() ? view(stored.id(), data, stored.count(LIKES), stored.count(SAVES)) : null);
        });
        return shown.view();
    }

    /** A pin's view, or none when it is deleted. */
    private record Shown(PinView view) {
    }

    public List<PinView> activeViews(List<StoredObject> stored) {
        return stored.stream().map(this::viewIfActive).filter(Objects::nonNull).toList();
    }

    /**
     * The view of an active pin with its JSON, or null when it is missing or deleted; both made once per cached pin,
     * so pages of cached pins serialize nothing.
     */
    public RenderedPin rendered(StoredObject stored) {
        if (stored == null) {
            return null;
        }
        return stored.decoded(Rendered.class, blob -> {
            PinView view = viewIfActive(stored);
            return new Rendered(view == null ? null : new RenderedPin(view, new SerializedString(json.write(view))));
        }).pin();
    }

    /** A pin with its JSON, or none when it is deleted. */
    private record Rendered(RenderedPin pin) {
    }

    public List<RenderedPin> activeRendered(List<StoredObject> stored) {
        return stored.stream().map(this::rendered).filter(Objects::nonNull).toList();
    }

    public static PinView view(PinionId id, PinData data, long likes, long saves) {
        return new PinView(
                id.toString(),
                data.boardId(),
                data.ownerId(),
                data.description(),
                data.link(),
                data.imageUrl(),
                data.interests(),
                data.savedFrom(),
                data.createdAt(),
                new PinView.Counts(likes, saves));
    }

    /** Interest names as stored (the graph's normalization, so pins and followed interests meet). */
    public static List<String> normalizeInterests(List<String> interests) {
        return InterestNames.normalize(interests);
    }

    public static List<PinionId> pinIds(List<Long> values) {
        return values.stream().map(PinionId::decode).filter(id -> id.type() == ObjectType.PIN).toList();
    }
}
