package io.quire.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * Latency of search queries against a node, one request at a time (a person at the console, a
 * CI job asking for the impact of a change): each query warmed up, then timed {@code N} times.
 * {@code java -cp quire-bench.jar io.quire.bench.SearchLatency BASE_URL N RECORDS [NAME-PART]} prints a line
 * per query with its hits, p50, p99 and max (bench/search-cost.sh). RECORDS: how many records
 * bench/wrk/register-search.lua registered per thread in its first run ({@code RUN=a}), so that the rare
 * names asked for exist.
 */
public final class SearchLatency {

    private SearchLatency() {
    }

    public static void main(String[] args) throws Exception {
        String base = args[0];
        int n = Integer.parseInt(args[1]);
        int records = Integer.parseInt(args[2]);
        String only = args.length > 3 ? args[3] : ""; // run only the queries whose name holds this
        SplittableRandom random = new SplittableRandom(7);
        Map<String, IntFunction<String>> queries = new LinkedHashMap<>();
        queries.put("a rare record name, exact (random)", i -> "/search?q=ordera1x" + (1 + random.nextInt(records)));
        queries.put("a field every schema has, first page", i -> "/search?q=customer_id&limit=20");
        queries.put("a prefix of a few names (random)", i -> "/search?q=ordera2x" + (1 + random.nextInt(records / 10)) + "*");
        queries.put("a prefix of a million names, first page", i -> "/search?q=ord*&kind=record&limit=20");
        queries.put("a field with a tag filter, first page", i -> "/search?q=customer_id&tag=PII&limit=20");
        queries.put("a tag alone, first page", i -> "/search?tag=PII&limit=20");
        queries.put("a doc word, latest versions, first page", i -> "/search?q=cents&kind=doc&latestOnly=true&limit=20");
        queries.put("a field, page 50", i -> "/search?q=status&offset=1000&limit=20");
        queries.put("a leading wildcard, first page", i -> "/search?q=*_cents&limit=20");
        queries.put("impact of a record (random)", i -> "/search/impact?record=Ordera1x" + (1 + random.nextInt(records)));
        queries.put("GET /subjects?tags=PII&limit=20", i -> "/subjects?tags=PII&limit=20");
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        for (Map.Entry<String, IntFunction<String>> q : queries.entrySet()) {
            if (!q.getKey().contains(only)) {
                continue;
            }
            for (int i = 0; i < Math.max(20, n / 10); i++) {
                send(client, base + q.getValue().apply(i));
            }
            long[] nanos = new long[n];
            int bytes = 0;
            for (int i = 0; i < n; i++) {
                String url = base + q.getValue().apply(i);
                long t0 = System.nanoTime();
                bytes = send(client, url).length();
                nanos[i] = System.nanoTime() - t0;
            }
            Arrays.sort(nanos);
            System.out.printf("%-45s p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms  (%d B answers, e.g. %s)%n", q.getKey(),
                    nanos[n / 2] / 1e6, nanos[(int) Math.min(n - 1, Math.ceil(n * 0.99) - 1)] / 1e6, nanos[n - 1] / 1e6,
                    bytes, q.getValue().apply(0));
        }
    }

    private static String send(HttpClient client, String url) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }
}
