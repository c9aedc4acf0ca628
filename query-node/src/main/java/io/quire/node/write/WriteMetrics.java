package io.quire.node.write;

/** What the write path counts; the node's metrics implement it. */
public interface WriteMetrics {

    /** A registration whose precondition no longer held when it was applied, checked again and resent. */
    void writeConflict();

    /** Counts nothing: for tests and tools that keep no metrics. */
    WriteMetrics NONE = () -> { };
}
