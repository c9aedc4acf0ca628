package io.quire.journal.command;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quire.journal.model.Principal;
import io.quire.journal.model.Subject;
import java.util.List;

/**
 * New versions of one subject decided together on one node and journaled as one record: the
 * registrations that waited behind each other there, each checked against the subject as the
 * members before it leave it. The applier registers them in order, each by the rules of {@link
 * RegisterSchema}, and writes all of them or none: a member that no longer comes out as the node
 * decided it (another node moved the subject, a reference went away) turns the record into a
 * conflict, and the node decides each member again on its own.
 *
 * <p>The first member carries the subject's revision as usual; each later one carries {@link
 * io.quire.journal.model.Offset#THIS_RECORD}: the subject as the members before it in this record
 * leave it.
 *
 * @param subject the one subject every member registers under
 * @param members the registrations, in the order their requests arrived
 */
public record RegisterVersions(Subject subject, List<Member> members) implements Command {

    /** The most members one record holds; the node sends smaller groups. */
    public static final int MAX_MEMBERS = 1_000;

    public RegisterVersions {
        members = members == null ? List.of() : List.copyOf(members);
    }

    /**
     * One registration and who asked for it (members of one record may come from different
     * clients: the audit trail names each one's principal).
     */
    public record Member(@JsonInclude(JsonInclude.Include.NON_NULL) Principal principal, RegisterSchema register) {
    }

    @Override
    public CommandType type() {
        return CommandType.REGISTER_VERSIONS;
    }
}
