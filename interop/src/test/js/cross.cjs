// Confluent's JavaScript client and Avro serde beside Apicurio's Java serde, over one Quire node.
// Usage: node cross.cjs URL TOPIC HEX
//   URL    the node's Confluent API
//   TOPIC  the topic whose value subject (TOPIC-value) Apicurio's serde registered
//   HEX    a record Apicurio's serializer wrote, in hex
// Prints one line of JSON: the record as Confluent's deserializer read it, and a record Confluent's
// serializer wrote with the subject's latest version, in hex, for Apicurio's deserializer to read.
const { SchemaRegistryClient, SerdeType, AvroSerializer, AvroDeserializer } = require('@confluentinc/schemaregistry');

async function main() {
  const [url, topic, hex] = process.argv.slice(2);
  const client = new SchemaRegistryClient({ baseURLs: [url] });
  const deser = new AvroDeserializer(client, SerdeType.VALUE, {});
  const decoded = await deser.deserialize(topic, Buffer.from(hex, 'hex'));
  const ser = new AvroSerializer(client, SerdeType.VALUE, { useLatestVersion: true });
  const bytes = await ser.serialize(topic, { name: 'from-confluent', age: 7 });
  console.log(JSON.stringify({ decoded: { ...decoded }, bytes: Buffer.from(bytes).toString('hex') }));
}

main().catch((e) => { console.error(e); process.exit(1); });
