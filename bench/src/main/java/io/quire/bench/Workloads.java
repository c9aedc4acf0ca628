package io.quire.bench;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;

/** The requests of each scenario, all through the public HTTP API. */
public final class Workloads {

    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";

    private Workloads() {
    }

    /** A node's address. */
    public record Endpoint(String host, int port) {
    }

    /** What an HTTP call answered. */
    public record Answer(int status, Buffer body, MultiMap headers) {
    }

    static Future<Answer> call(HttpClient client, Endpoint e, HttpMethod method, String uri, String body,
                               String headerName, String headerValue) {
        RequestOptions o = new RequestOptions().setMethod(method).setHost(e.host()).setPort(e.port()).setURI(uri);
        if (body != null) {
            o.putHeader("Content-Type", CONTENT_TYPE);
        }
        if (headerName != null) {
            o.putHeader(headerName, headerValue);
        }
        return client.request(o).compose(req -> body == null ? req.send() : req.send(body))
                .compose(resp -> resp.body().map(b -> new Answer(resp.statusCode(), b, resp.headers())));
    }

    /** {@code GET /schemas/ids/{id}}: uniform over {@code ids}, or skewed (x^4: 56 % of reads hit 10 % of ids). */
    public static ClosedLoop.Operation readById(HttpClient client, Endpoint e, long[] ids, boolean skewed) {
        return user -> {
            double x = ThreadLocalRandom.current().nextDouble();
            int i = (int) (ids.length * (skewed ? Math.pow(x, 4) : x));
            return call(client, e, HttpMethod.GET, "/schemas/ids/" + ids[Math.min(i, ids.length - 1)], null, null, null)
                    .map(Answer::status);
        };
    }

    /** A new subject with a new schema per request: the registration path with its id lease. */
    public static ClosedLoop.Operation registerNew(HttpClient client, Endpoint e, String run) {
        AtomicLong n = new AtomicLong();
        return user -> {
            long k = n.incrementAndGet();
            return call(client, e, HttpMethod.POST, "/subjects/" + run + "-" + k + "/versions", schemaBody(run, k),
                    null, null).map(Answer::status);
        };
    }

    /**
     * A new version of one of {@code subjects} subjects per request, each checked against its
     * subject's latest version (BACKWARD, the default level), so subjects grow to thousands of
     * versions. Version k is {@code {id, f<k>}} with {@code f<k>} optional: compatible with every
     * earlier one, so every answer should be 200. With {@code distinct} no text is registered
     * twice (a stream of new versions from CI); without, each text goes to two subjects, and the
     * second registration finds its content stored under another subject (what
     * {@code bench/wrk/evolve.lua}'s two threads do).
     */
    public static ClosedLoop.Operation registerEvolving(HttpClient client, Endpoint e, String run, int subjects,
                                                        boolean distinct) {
        AtomicLong n = new AtomicLong();
        return user -> {
            long k = n.incrementAndGet();
            return call(client, e, HttpMethod.POST, "/subjects/" + evolvingSubject(run, k, subjects) + "/versions",
                    evolvingBody(evolvingField(k, distinct)), null, null).map(Answer::status);
        };
    }

    static String evolvingSubject(String run, long k, int subjects) {
        return "evolve-" + run + "-" + (k % subjects);
    }

    /** The field that request k adds: its own, or (repeated) the one of the request before or after it. */
    static long evolvingField(long k, boolean distinct) {
        return distinct ? k : (k + 1) / 2;
    }

    static String evolvingBody(long field) {
        return "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"Evolving\\\",\\\"fields\\\":["
                + "{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\"},{\\\"name\\\":\\\"f" + field
                + "\\\",\\\"type\\\":[\\\"null\\\",\\\"string\\\"],\\\"default\\\":null}]}\"}";
    }

    /** {@code writeShare} of requests register, the rest read by id. */
    public static ClosedLoop.Operation mixed(ClosedLoop.Operation reads, ClosedLoop.Operation writes, double writeShare) {
        return user -> ThreadLocalRandom.current().nextDouble() < writeShare ? writes.run(user) : reads.run(user);
    }

    /**
     * Register on node A ("accepted": A answered), then read the new id on node B with A's offset
     * ("applied elsewhere": B answered with the schema). Both latencies from the write's start.
     */
    public static ClosedLoop.Operation writeHereReadThere(HttpClient client, Endpoint a, Endpoint b, String run,
                                                          Recorder accepted, Recorder appliedElsewhere) {
        AtomicLong n = new AtomicLong();
        return user -> {
            long k = n.incrementAndGet();
            long t0 = System.nanoTime();
            return call(client, a, HttpMethod.POST, "/subjects/" + run + "-" + k + "/versions", schemaBody(run, k),
                    null, null).compose(w -> {
                        accepted.recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
                        if (w.status() != 200) {
                            return Future.succeededFuture(w.status());
                        }
                        String id = w.body().toJsonObject().getValue("id").toString();
                        return call(client, b, HttpMethod.GET, "/schemas/ids/" + id, null, "X-Quire-Min-Offset",
                                w.headers().get("X-Quire-Offset")).map(r -> {
                                    appliedElsewhere.recordValue(Math.max(1, (System.nanoTime() - t0) / 1000));
                                    return r.status();
                                });
                    });
        };
    }

    static String schemaBody(String run, long k) {
        String name = "B" + run.replaceAll("[^A-Za-z0-9]", "_") + "_" + k;
        return "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"" + name
                + "\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\"},"
                + "{\\\"name\\\":\\\"payload\\\",\\\"type\\\":\\\"string\\\"}]}\"}";
    }
}
