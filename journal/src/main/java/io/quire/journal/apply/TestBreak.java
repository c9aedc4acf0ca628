package io.quire.journal.apply;

/**
 * Promises broken on purpose, for the partition drill to prove its checker catches them
 * (docs/reliability.md): read from {@code QUIRE_TEST_BREAK}, never set outside that test.
 *
 * <ul>
 *   <li>{@code answer-before-apply}: a node answers a registration with the id it proposes as soon
 *       as the command is sent, before the journal has it and before the applier decides it.</li>
 *   <li>{@code reuse-ids}: every id is leased twice (the watermark moves by half a block per
 *       grant), a node hands out its block's ids without looking whether its view already holds
 *       them, and the applier stores a schema under the proposed id without checking it is free.
 *       The allocator alone being wrong is not enough: the applier's check in journal order is what
 *       keeps one schema per id, so the build must lose both.</li>
 * </ul>
 */
public final class TestBreak {

    private static final String BREAK = System.getenv("QUIRE_TEST_BREAK");

    public static final boolean ANSWER_BEFORE_APPLY = "answer-before-apply".equals(BREAK);
    public static final boolean REUSE_IDS = "reuse-ids".equals(BREAK);

    private TestBreak() {
    }
}
