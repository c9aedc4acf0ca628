package io.quire.journal;

import io.quire.journal.model.Offset;
import io.quire.journal.model.SchemaId;
import io.quire.journal.model.Subject;
import io.quire.journal.model.Version;
import java.util.Arrays;
import java.util.List;

/** Short spellings of the typed values, so that tests read like the journal they build. */
public final class Values {

    private Values() {
    }

    public static Subject s(String name) {
        return Subject.of(name);
    }

    public static Version v(int number) {
        return Version.of(number);
    }

    public static List<Version> vs(int... numbers) {
        return Arrays.stream(numbers).mapToObj(Version::of).toList();
    }

    public static SchemaId id(long value) {
        return SchemaId.of(value);
    }

    public static Offset at(long value) {
        return Offset.of(value);
    }
}
