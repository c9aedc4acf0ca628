package io.quire.client.plan;

import io.quire.client.plan.Plan.Action;
import io.quire.client.plan.Plan.Change;
import java.util.EnumMap;
import java.util.Map;

/** A plan as a reviewer reads it: one line per change, its symbol, subject and what it does, then a summary. */
public final class PlanText {

    private PlanText() {
    }

    public static String render(Plan plan) {
        StringBuilder out = new StringBuilder();
        Map<Action, Integer> counts = new EnumMap<>(Action.class);
        int width = plan.changes().stream().mapToInt(c -> c.subject().length()).max().orElse(10);
        for (Change c : plan.changes()) {
            counts.merge(c.action(), 1, Integer::sum);
            if (c.action() == Action.NONE) {
                continue;
            }
            out.append(String.format("  %s %-" + width + "s  %s%n", symbol(c.action()), c.subject(), what(c)));
            if (c.messages() != null) {
                c.messages().forEach(m -> out.append(String.format("    %" + width + "s  %s%n", "", m)));
            }
        }
        int changes = (int) plan.changes().stream().filter(Change::changes).count();
        out.append(String.format("%s: %d to change, %d unchanged, %d refused%s%n", plan.registry(), changes,
                counts.getOrDefault(Action.NONE, 0), counts.getOrDefault(Action.REFUSED, 0),
                counts.containsKey(Action.NOT_IN_FOLDER) ? ", " + counts.get(Action.NOT_IN_FOLDER)
                        + " not in the folder (kept; --allow-deletes to delete)" : ""));
        return out.toString();
    }

    private static String symbol(Action a) {
        return switch (a) {
            case CREATE -> "+";
            case NEW_VERSION, SET_CONFIG, CLEAR_CONFIG -> "~";
            case DELETE -> "-";
            case REFUSED -> "!";
            case NONE, OLDER_VERSION, NOT_IN_FOLDER -> "·";
        };
    }

    private static String what(Change c) {
        return switch (c.action()) {
            case CREATE -> "create (" + (c.request() == null || c.request().schemaType() == null ? "AVRO"
                    : c.request().schemaType()) + ")";
            case NEW_VERSION -> "new version after " + c.latestVersion() + ", compatible";
            case SET_CONFIG -> (c.compatibility() == null ? "" : "compatibility " + (c.currentCompatibility() == null
                    ? "(inherited)" : c.currentCompatibility()) + " -> " + c.compatibility())
                    + (c.setNormalize() == null ? "" : (c.compatibility() == null ? "" : ", ") + "normalize "
                    + c.setNormalize());
            case CLEAR_CONFIG -> "settings removed (compatibility " + c.currentCompatibility() + " no longer its own)";
            case DELETE -> Boolean.TRUE.equals(c.permanent()) ? "delete permanently" : "delete (soft)";
            case NONE -> "no change";
            case OLDER_VERSION -> "equals version " + c.matchedVersion() + ", not the latest (" + c.latestVersion() + ")";
            case NOT_IN_FOLDER -> "not in the folder";
            case REFUSED -> "refused";
        };
    }
}
