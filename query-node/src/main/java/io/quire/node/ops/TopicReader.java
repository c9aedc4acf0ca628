package io.quire.node.ops;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads one partition from its first record to the end offset it had when the read began, and
 * hands every record to a visitor in offset order: what rebuild, verify, export, audit and the
 * Confluent import all do. No consumer group, no committed offsets.
 */
final class TopicReader {

    /** Sees each record; {@code end} is the offset the read stops at. */
    @FunctionalInterface
    interface Visitor {
        void visit(ConsumerRecord<byte[], byte[]> record, long end) throws Exception;
    }

    private TopicReader() {
    }

    /** Reads {@code tp} to its end offset and returns that offset. */
    static long readToEnd(Properties kafka, TopicPartition tp, Visitor visitor) throws Exception {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(kafka)) {
            return readToEnd(consumer, tp, visitor);
        }
    }

    static long readToEnd(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp, Visitor visitor) throws Exception {
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        long end = consumer.endOffsets(List.of(tp)).get(tp);
        while (consumer.position(tp) < end) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500)).records(tp)) {
                if (r.offset() >= end) {
                    break;
                }
                visitor.visit(r, end);
            }
        }
        return end;
    }

    static KafkaConsumer<byte[], byte[]> consumer(Properties kafka) {
        Properties p = new Properties();
        p.putAll(kafka);
        p.put("enable.auto.commit", "false");
        p.put("max.poll.records", "5000");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
