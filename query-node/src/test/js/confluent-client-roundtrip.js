// Confluent's JavaScript Schema Registry client and Avro serde, unmodified, against a Quire node.
// Usage: node confluent-client-roundtrip.js http://127.0.0.1:PORT
const assert = require('node:assert/strict');
const {
  SchemaRegistryClient, SerdeType, AvroSerializer, AvroDeserializer,
} = require('@confluentinc/schemaregistry');

const url = process.argv[2];
const topic = 'payments';
const subject = `${topic}-value`;
const v1 = {
  type: 'record', namespace: 'quire.check', name: 'Payment',
  fields: [{ name: 'id', type: 'string' }, { name: 'amount', type: 'double' }],
};
const v2 = {
  ...v1,
  fields: [...v1.fields, { name: 'currency', type: 'string', default: 'EUR' }],
};

async function main() {
  const producerSide = new SchemaRegistryClient({ baseURLs: [url] });
  const id1 = await producerSide.register(subject, { schemaType: 'AVRO', schema: JSON.stringify(v1) });
  assert.equal(await producerSide.register(subject, { schemaType: 'AVRO', schema: JSON.stringify(v1) }), id1);

  const ser = new AvroSerializer(producerSide, SerdeType.VALUE, { useLatestVersion: true });
  const bytes = await ser.serialize(topic, { id: 'p-1', amount: 12.5 });
  assert.equal(bytes[0], 0, 'magic byte');
  assert.equal(bytes.readInt32BE(1), id1, 'the wire format carries the registry id');

  // A consumer with its own client resolves the writer schema by id from the registry.
  const consumerSide = new SchemaRegistryClient({ baseURLs: [url] });
  const deser = new AvroDeserializer(consumerSide, SerdeType.VALUE, {});
  const decoded = await deser.deserialize(topic, bytes);
  assert.deepEqual({ ...decoded }, { id: 'p-1', amount: 12.5 });

  // Evolve compatibly; the latest version and its metadata come back as Confluent's do.
  const id2 = await producerSide.register(subject, { schemaType: 'AVRO', schema: JSON.stringify(v2) });
  assert.notEqual(id2, id1);
  const latest = await consumerSide.getLatestSchemaMetadata(subject);
  assert.equal(latest.id, id2);
  assert.equal(latest.version, 2);
  const versions = await consumerSide.getAllVersions(subject);
  assert.deepEqual(versions, [1, 2]);
  assert.equal(await consumerSide.getId(subject, { schemaType: 'AVRO', schema: JSON.stringify(v1) }), id1);

  // An incompatible change is refused.
  const bad = { ...v1, fields: [...v1.fields, { name: 'required', type: 'int' }] };
  await assert.rejects(producerSide.register(subject, { schemaType: 'AVRO', schema: JSON.stringify(bad) }),
    (err) => String(err.message || err).includes('409') || err.status === 409 || err.errorCode === 409);

  console.log(JSON.stringify({ ok: true, id1, id2, bytes: bytes.length }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
