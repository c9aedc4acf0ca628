package io.quire.node.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The dependency rules of the design brief, checked on the compiled classes. */
class ArchitectureTest {

    static final JavaClasses QUIRE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.quire");

    @Test
    void theRulesSeeEveryModule() {
        // Guards against rules that pass because nothing was imported.
        org.junit.jupiter.api.Assertions.assertTrue(QUIRE.contain(io.quire.journal.apply.Applier.class));
        org.junit.jupiter.api.Assertions.assertTrue(QUIRE.contain(io.quire.ids.BlockAllocator.class));
        org.junit.jupiter.api.Assertions.assertTrue(QUIRE.contain(io.quire.node.QuireNode.class));
        org.junit.jupiter.api.Assertions.assertTrue(QUIRE.size() > 150, QUIRE.size() + " classes");
    }

    @Test
    void queryNodePackagesFormNoCycle() {
        slices().matching("io.quire.node.(*)..").should().beFreeOfCycles().check(QUIRE);
    }

    /** The view's rooms: applying, the store, snapshots; arrows point from applying to the store only. */
    @Test
    void theViewsRoomsFormNoCycleAndTheStoreKnowsNothingAboveIt() {
        slices().matching("io.quire.node.view.(*)..").should().beFreeOfCycles().check(QUIRE);
        noClasses().that().resideInAPackage("io.quire.node.view.store..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quire.node.view.apply..",
                        "io.quire.node.view.snapshot..", "io.quire.node.http..", "io.quire.node.service..",
                        "io.quire.node.metrics..")
                .check(QUIRE);
        noClasses().that().resideInAPackage("io.quire.node.view.store..")
                .and().areTopLevelClasses().and().doNotHaveSimpleName("ViewStore").and().doNotHaveSimpleName("ViewStoreSupplier")
                .and().doNotHaveSimpleName("StoreKv")
                .should().dependOnClassesThat().haveFullyQualifiedName("io.quire.node.view.store.ViewStore")
                .because("the store's rooms (RocksDB core, group writer, filters, caches) know nothing of the adapter")
                .check(QUIRE);
        noClasses().that().haveSimpleName("PendingLayer").should().dependOnClassesThat()
                .haveSimpleName("StoreIterators").because("the pending layer is read by the iterators, not the other way")
                .check(QUIRE);
        noClasses().that().resideInAPackage("io.quire.node.view.snapshot..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quire.node.view.apply..")
                .check(QUIRE);
    }

    /** The write path and the services see the view and the metrics only through their own ports. */
    @Test
    void writesAndServicesImportNothingFromTheViewOrTheMetrics() {
        noClasses().that().resideInAnyPackage("io.quire.node.write..", "io.quire.node.service..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quire.node.view..", "io.quire.node.metrics..")
                .check(QUIRE);
    }

    @Test
    void theJournalKnowsNothingOfKafkaRocksDbOrVertx() {
        noClasses().that().resideInAPackage("io.quire.journal..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "org.rocksdb..", "io.vertx..",
                        "io.quire.node..")
                .check(QUIRE);
    }

    /** The project's own rule: no main source file over 400 lines, in any module. */
    @Test
    void noMainSourceFileIsOver400Lines() throws java.io.IOException {
        java.nio.file.Path root = java.nio.file.Path.of("..").toAbsolutePath().normalize();
        java.util.List<String> over = new java.util.ArrayList<>();
        int[] seen = {0};
        try (var files = java.nio.file.Files.walk(root)) {
            files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/main/java/")
                            && !f.toString().contains("/target/") && !f.toString().contains("/node_modules/"))
                    .forEach(f -> {
                        seen[0]++;
                        try (var lines = java.nio.file.Files.lines(f)) {
                            long n = lines.count();
                            if (n > 400) {
                                over.add(root.relativize(f) + " has " + n + " lines");
                            }
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
        }
        org.junit.jupiter.api.Assertions.assertTrue(seen[0] > 250, seen[0] + " main source files found under " + root);
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), over);
    }

    /** The main source files of query-node, each with its lines. */
    static java.util.Map<String, java.util.List<String>> queryNodeSources() throws java.io.IOException {
        java.nio.file.Path root = java.nio.file.Path.of("src/main/java").toAbsolutePath();
        java.util.Map<String, java.util.List<String>> out = new java.util.TreeMap<>();
        try (var files = java.nio.file.Files.walk(root)) {
            for (java.nio.file.Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
                out.put(root.relativize(f).toString(), java.nio.file.Files.readAllLines(f));
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(out.size() > 150, out.size() + " files under " + root);
        return out;
    }

    /**
     * Fixed-shape answers are records: a {@code Map<String, Object>} is left only where the data is
     * open-ended (a token's claims, a Protobuf option's value), at most four of them.
     */
    @Test
    void mapsOfObjectsAreLeftOnlyForOpenEndedData() throws java.io.IOException {
        java.util.List<String> found = new java.util.ArrayList<>();
        java.util.Set<String> openEnded = java.util.Set.of("io/quire/node/security/OidcVerifier.java",
                "io/quire/node/security/Authenticator.java", "io/quire/node/schema/ConfluentMeta.java");
        queryNodeSources().forEach((file, lines) -> {
            for (String line : lines) {
                if (line.contains("Map<String, Object>")) {
                    found.add(file);
                }
            }
        });
        org.junit.jupiter.api.Assertions.assertTrue(found.size() <= 4, found.toString());
        org.junit.jupiter.api.Assertions.assertTrue(openEnded.containsAll(found), found.toString());
    }

    /**
     * Types are imported, not spelled out inline; a fully qualified name is left only where two
     * types of one simple name meet in a file.
     */
    @Test
    void typesAreImportedNotWrittenInline() throws java.io.IOException {
        java.util.regex.Pattern qualified = java.util.regex.Pattern.compile(
                "\\b(java|javax|io|org|com)(\\.[a-z][a-z0-9_]*)+\\.[A-Z]");
        java.util.List<String> inline = new java.util.ArrayList<>();
        queryNodeSources().forEach((file, lines) -> {
            for (String line : lines) {
                String code = line.strip();
                if (code.startsWith("import ") || code.startsWith("package ") || code.startsWith("*")
                        || code.startsWith("/") || code.contains("\"")) {
                    continue;
                }
                if (qualified.matcher(code).find()) {
                    inline.add(file + ": " + code);
                }
            }
        });
        org.junit.jupiter.api.Assertions.assertTrue(inline.size() <= 3, String.join("\n", inline));
    }

    /** RegistryView reads what is the view's own and hands out its rooms; it forwards nothing to them. */
    @Test
    void theRegistryViewIsReadsNotASwitchboard() throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Path.of("../journal/src/main/java/io/quire/journal/view/RegistryView.java");
        java.util.List<String> forwards = new java.util.ArrayList<>();
        java.util.regex.Pattern forward = java.util.regex.Pattern.compile(
                "^\\s+(return )?(config|associationReads|keyReads|auditReads|usageReads|subjectScans|idReads)\\.\\w+\\(.*\\);$");
        for (String line : java.nio.file.Files.readAllLines(file)) {
            if (forward.matcher(line).matches()) {
                forwards.add(line.strip());
            }
        }
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), forwards);
    }

    @Test
    void theIdAllocatorDependsOnNothingOfOurs() {
        noClasses().that().resideInAPackage("io.quire.ids..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quire.journal..", "io.quire.node..",
                        "org.apache.kafka..", "io.vertx..")
                .check(QUIRE);
    }
}
