package io.quire.journal.view;

import io.quire.journal.codec.CorruptRecordException;
import io.quire.journal.codec.Json;
import io.quire.journal.model.Exporter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The exporters the journal defines ({@code Z name}), with what it keeps of their runs. */
public final class ExporterReads {

    private ExporterReads() {
    }

    public static Optional<Exporter> exporter(RegistryView view, String name) {
        return Optional.ofNullable(view.kv().get(Keys.exporter(name))).map(ExporterReads::decode);
    }

    public static List<Exporter> exporters(RegistryView view) {
        List<Exporter> out = new ArrayList<>();
        view.kv().scan(Keys.EXPORTERS, (k, v) -> {
            out.add(decode(v));
            return true;
        });
        return out;
    }

    private static Exporter decode(byte[] json) {
        try {
            return Json.MAPPER.readValue(json, Exporter.class);
        } catch (IOException e) {
            throw new CorruptRecordException("cannot decode an exporter", e);
        }
    }
}
