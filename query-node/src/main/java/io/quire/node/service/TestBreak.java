package io.quire.node.service;

/**
 * Promises broken on purpose, for the partition drill to prove its checker catches them
 * (docs/reliability.md): never set outside that test. {@code QUIRE_TEST_BREAK=answer-before-apply}
 * answers a registration with the id it proposes as soon as the command is sent, before the journal
 * has it and before the applier decides it (which may refuse it, or give the content another id).
 */
final class TestBreak {

    static final boolean ANSWER_BEFORE_APPLY = "answer-before-apply".equals(System.getenv("QUIRE_TEST_BREAK"));

    private TestBreak() {
    }
}
