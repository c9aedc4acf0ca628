package io.quire.journal.command;

import io.quire.journal.model.Subject;

/**
 * Make {@code region} the primary: the one whose nodes write. {@code epoch} is one above the
 * journal's current epoch; records stamped with an older epoch are refused from then on (the old
 * primary is fenced). The id watermark rises to at least {@code idFloor}, so that ids the lost
 * primary may have granted beyond what reached this journal are never granted again.
 */
public record Promote(String region, int epoch, long idFloor) implements Command {

    @Override
    public CommandType type() {
        return CommandType.PROMOTE;
    }

    @Override
    public Subject subject() {
        return null;
    }
}
