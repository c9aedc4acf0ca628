package io.quire.bench.drill;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The faults of the partition drill, made in the namespaces {@code bench/partition/cluster.sh} set
 * up: links cut with nftables rules in the namespaces' own {@code drill} table, processes paused
 * (SIGSTOP), killed (SIGKILL) and started again. Only the namespaces' 10.77.0.x addresses are ever
 * named. ({@code tc netem} is not in this machine's kernel; loss is made with nftables' random
 * numbers instead.)
 */
final class Faults {

    static final String[] BROKERS = {"b1", "b2", "b3"};
    static final String[] NODES = {"n1", "n2", "n3"};

    private final Path clusterScript;
    private final Random random;
    private final Supplier<String> journalLeader;

    /** {@code journalLeader} names the broker leading the journal partition now, or null when unknown. */
    Faults(Path clusterScript, long seed, Supplier<String> journalLeader) {
        this.clusterScript = clusterScript;
        this.random = new Random(seed);
        this.journalLeader = journalLeader;
    }

    static String address(String name) {
        return "10.77.0." + (name.startsWith("b") ? "1" : "2") + name.substring(1);
    }

    /** A fault: how to make it, and how to undo it. */
    record Fault(String name, List<List<String>> make, List<List<String>> heal) {
    }

    /** The next fault of the seeded schedule. */
    Fault next() {
        int kind = random.nextInt(8);
        String node = NODES[random.nextInt(3)];
        String broker = BROKERS[random.nextInt(3)];
        if (kind >= 6) { // the journal partition's leader, asked now; a random broker when the brokers do not say
            String leader = journalLeader.get();
            broker = leader == null ? broker : leader;
        }
        return switch (kind) {
            case 0 -> cut("node " + node + " cut off from the brokers", node, List.of(BROKERS));
            case 1 -> cut("broker " + broker + " isolated", broker, others(broker));
            case 2 -> split(broker, node);
            case 3 -> new Fault("node " + node + " paused (SIGSTOP) past its lease and Kafka session",
                    List.of(script("pause", node)), List.of(script("resume", node)));
            case 4 -> new Fault("node " + node + " killed (SIGKILL) and started again",
                    List.of(script("kill", node)), List.of(script("start", node)));
            case 5 -> loss(node);
            case 6 -> cut("journal leader " + broker + " isolated", broker, others(broker));
            default -> {
                Fault isolated = cut("", broker, others(broker));
                List<List<String>> make = new ArrayList<>(isolated.make());
                make.add(script("pause", node));
                List<List<String>> heal = new ArrayList<>(List.of(script("resume", node)));
                heal.addAll(isolated.heal());
                yield new Fault("journal leader " + broker + " isolated while node " + node
                        + " is paused (SIGSTOP) past its lease and Kafka session", make, heal);
            }
        };
    }

    private static List<String> others(String name) {
        List<String> out = new ArrayList<>();
        for (String n : List.of("b1", "b2", "b3", "n1", "n2", "n3")) {
            if (!n.equals(name)) {
                out.add(n);
            }
        }
        return out;
    }

    private static List<String> nft(String in, String... rule) {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", "qd-" + in, "nft"));
        cmd.addAll(List.of(rule));
        return cmd;
    }

    private List<String> script(String verb, String name) {
        return List.of("bash", clusterScript.toString(), verb, name);
    }

    /** {@code from} loses every packet to and from {@code peers}, both ways. */
    private static Fault cut(String name, String from, List<String> peers) {
        List<List<String>> make = new ArrayList<>();
        for (String p : peers) {
            make.add(nft(from, "add", "rule", "inet", "drill", "input", "ip", "saddr", address(p), "drop"));
            make.add(nft(from, "add", "rule", "inet", "drill", "output", "ip", "daddr", address(p), "drop"));
        }
        return new Fault(name, make, heal(from));
    }

    /** A minority (one broker and one node) split from the majority. */
    private static Fault split(String broker, String node) {
        List<String> minority = List.of(broker, node);
        List<List<String>> make = new ArrayList<>();
        List<List<String>> heal = new ArrayList<>();
        for (String m : minority) {
            for (String p : List.of("b1", "b2", "b3", "n1", "n2", "n3")) {
                if (!minority.contains(p)) {
                    make.add(nft(m, "add", "rule", "inet", "drill", "input", "ip", "saddr", address(p), "drop"));
                    make.add(nft(m, "add", "rule", "inet", "drill", "output", "ip", "daddr", address(p), "drop"));
                }
            }
            heal.addAll(heal(m));
        }
        return new Fault("minority {" + broker + ", " + node + "} split from the majority", make, heal);
    }

    /** A third of the packets of a node lost, both ways. */
    private static Fault loss(String node) {
        return new Fault("node " + node + " losing a third of its packets",
                List.of(nft(node, "add", "rule", "inet", "drill", "input", "numgen", "random", "mod", "3", "==", "0",
                                "drop"),
                        nft(node, "add", "rule", "inet", "drill", "output", "numgen", "random", "mod", "3", "==", "0",
                                "drop")),
                heal(node));
    }

    private static List<List<String>> heal(String in) {
        return List.of(nft(in, "flush", "chain", "inet", "drill", "input"),
                nft(in, "flush", "chain", "inet", "drill", "output"));
    }

    /** Every link whole again and every process running (a paused one resumed). */
    List<List<String>> healAll() {
        List<List<String>> out = new ArrayList<>();
        for (String n : List.of("b1", "b2", "b3", "n1", "n2", "n3")) {
            out.addAll(heal(n));
        }
        for (String n : NODES) {
            out.add(script("resume", n));
        }
        return out;
    }

    static void run(List<List<String>> commands) throws IOException, InterruptedException {
        for (List<String> c : commands) {
            ProcessBuilder pb = new ProcessBuilder(c).redirectErrorStream(true);
            String dir = System.getProperty("quire.drill.dir"); // the cluster's state folder, when not the script's default
            if (dir != null) {
                pb.environment().put("DRILL_DIR", dir);
            }
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                throw new IOException(String.join(" ", c) + " failed: " + out);
            }
        }
    }
}
