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

    @Test
    void theIdAllocatorDependsOnNothingOfOurs() {
        noClasses().that().resideInAPackage("io.quire.ids..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quire.journal..", "io.quire.node..",
                        "org.apache.kafka..", "io.vertx..")
                .check(QUIRE);
    }
}
