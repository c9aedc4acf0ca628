package io.quire.node.ops;

import io.quire.client.RegistryClient;
import io.quire.client.plan.ChangeInfo;
import io.quire.client.plan.Dump;
import io.quire.client.plan.Plan;
import io.quire.client.plan.PlanApply;
import io.quire.client.plan.PlanText;
import io.quire.client.plan.Planner;
import io.quire.client.plan.SchemaFolder;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * {@code quire.jar plan | apply | dump}: schemas as code (docs/schemas-as-code.md), against any
 * registry that speaks Confluent's API. Exit codes: plan 0 nothing to do, 2 changes, 1 refused;
 * apply 0 applied (or nothing to do), 1 refused or stopped; dump 0.
 */
public final class SchemasCommand {

    private static final Set<String> FLAGS = Set.of("registry", "dir", "user", "allow-deletes", "permanent",
            "output", "out", "plan", "subject-prefix", "change-id", "message");

    private SchemasCommand() {
    }

    public static int plan(String[] args, PrintStream out) throws Exception {
        Flags flags = new Flags(args, FLAGS);
        if (flags.help) {
            out.println("""
                    usage: java -jar quire.jar plan --registry URL --dir DIR [--user name:password]
                           [--allow-deletes true [--permanent true]] [--output text|json] [--out plan.json]
                    Says per subject what applying the folder would do: create it, register a new version (with
                    the registry's compatibility verdict and messages), set its compatibility level, delete it
                    (only with --allow-deletes; soft unless --permanent), or nothing. The registry decides
                    equality, so formatting never shows as a change. --out saves the plan for apply --plan.
                    Exit 0 when there is nothing to do, 2 when there are changes, 1 when something is refused.""");
            return 0;
        }
        RegistryClient registry = client(flags);
        Plan plan = new Planner(registry).plan(SchemaFolder.read(Path.of(flags.required("dir"))), options(flags));
        if ("json".equals(flags.own.get("output"))) {
            out.println(plan.json());
        } else {
            out.print(PlanText.render(plan));
        }
        if (flags.own.containsKey("out")) {
            Files.writeString(Path.of(flags.own.get("out")), plan.json());
        }
        return plan.exitCode();
    }

    public static int apply(String[] args, PrintStream out) throws Exception {
        Flags flags = new Flags(args, FLAGS);
        if (flags.help) {
            out.println("""
                    usage: java -jar quire.jar apply --registry URL (--dir DIR | --plan plan.json) [--user name:password]
                           [--allow-deletes true [--permanent true]] [--change-id ID] [--message TEXT]
                    Applies the folder (planned now) or a saved plan, and says what landed; a saved plan is refused
                    if a subject it changes has moved since. To a Quire node the whole plan is one change set: all
                    of it lands or none does, recorded in the audit trail with its id and message (by default the
                    folder's Git commit and its subject line). To another registry, one call at a time in reference
                    order, stopping at the first refusal.
                    Exit 0 when everything landed (or there was nothing to do), 1 otherwise.""");
            return 0;
        }
        RegistryClient registry = client(flags);
        Plan plan;
        if (flags.own.containsKey("plan")) {
            plan = Plan.read(Path.of(flags.own.get("plan")));
        } else {
            plan = new Planner(registry).plan(SchemaFolder.read(Path.of(flags.required("dir"))), options(flags));
        }
        out.print(PlanText.render(plan));
        if (plan.refused()) {
            out.println("nothing applied: the plan has refusals");
            return 1;
        }
        PlanApply applier = new PlanApply(registry);
        if (flags.own.containsKey("plan")) {
            List<String> moved = applier.moved(plan);
            if (!moved.isEmpty()) {
                out.println("nothing applied: the registry moved since the plan was made");
                moved.forEach(m -> out.println("  " + m));
                return 1;
            }
        }
        Path folder = flags.own.containsKey("plan") ? Path.of(flags.own.get("plan")).toAbsolutePath().getParent()
                : Path.of(flags.required("dir"));
        ChangeInfo change = ChangeInfo.of(flags.own.get("change-id"), flags.own.get("message"), folder);
        PlanApply.Result result = applier.apply(plan, change);
        for (PlanApply.Landed l : result.landed()) {
            out.printf("  applied %s %s%s%n", l.change().action().name().toLowerCase().replace('_', ' '),
                    l.change().subject(), l.id() == null ? "" : " (id " + l.id() + ", version " + l.version() + ")");
        }
        if (!result.ok()) {
            if (result.atomic()) {
                out.printf("nothing applied: change set %s was refused at %s %s: %s%n", result.changeId(),
                        result.failed().action().name().toLowerCase().replace('_', ' '), result.failed().subject(),
                        result.failure());
            } else {
                out.printf("stopped at %s %s: %s%n", result.failed().action().name().toLowerCase().replace('_', ' '),
                        result.failed().subject(), result.failure());
            }
            return 1;
        }
        out.printf("applied %d change(s)%s%n", result.landed().size(), result.atomic()
                ? " as change set " + result.changeId() : "");
        return 0;
    }

    public static int dump(String[] args, PrintStream out) throws Exception {
        Flags flags = new Flags(args, FLAGS);
        if (flags.help) {
            out.println("""
                    usage: java -jar quire.jar dump --registry URL --dir DIR [--subject-prefix P] [--user name:password]
                    Writes the registry's live subjects into DIR in the folder format (latest versions, references
                    pinned, each subject's own compatibility level): a plan of the dump changes nothing.""");
            return 0;
        }
        Path dir = Path.of(flags.required("dir"));
        int n = new Dump(client(flags)).into(dir, flags.own.getOrDefault("subject-prefix", ""));
        out.printf("wrote %d subject(s) into %s%n", n, dir);
        return 0;
    }

    private static RegistryClient client(Flags flags) {
        return new RegistryClient(flags.required("registry"), flags.basicAuthorization(), Duration.ofSeconds(60));
    }

    private static Planner.Options options(Flags flags) {
        return new Planner.Options(Boolean.parseBoolean(flags.own.getOrDefault("allow-deletes", "false")),
                Boolean.parseBoolean(flags.own.getOrDefault("permanent", "false")));
    }
}
