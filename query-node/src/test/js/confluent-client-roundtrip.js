// Confluent's JavaScript Schema Registry client and Avro serde, unmodified, against a Quire node.
// Usage: node confluent-client-roundtrip.js http://127.0.0.1:PORT
const assert = require('node:assert/strict');
const {
  SchemaRegistryClient, SerdeType, AvroSerializer, AvroDeserializer, JsonSerializer, JsonDeserializer,
  ProtobufSerializer, ProtobufDeserializer,
} = require('@confluentinc/schemaregistry');
const { create, createFileRegistry, createMutableRegistry } = require('@bufbuild/protobuf');
const { FileDescriptorProtoSchema } = require('@bufbuild/protobuf/wkt');

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

  // JSON Schema: Confluent's JSON serializer registers, validates and frames; another client reads.
  const jsonSubject = 'orders-json-value';
  const orderV1 = {
    $schema: 'http://json-schema.org/draft-07/schema#', title: 'Order', type: 'object',
    properties: { id: { type: 'string' }, qty: { type: 'integer' } }, required: ['id'],
    additionalProperties: false,
  };
  const jsonId = await producerSide.register(jsonSubject, { schemaType: 'JSON', schema: JSON.stringify(orderV1) });
  const jsonSer = new JsonSerializer(producerSide, SerdeType.VALUE, { useLatestVersion: true, validate: true });
  const jsonBytes = await jsonSer.serialize('orders-json', { id: 'o-1', qty: 3 });
  assert.equal(jsonBytes[0], 0, 'magic byte');
  assert.equal(jsonBytes.readInt32BE(1), jsonId);
  const jsonDeser = new JsonDeserializer(consumerSide, SerdeType.VALUE, {});
  assert.deepEqual(await jsonDeser.deserialize('orders-json', jsonBytes), { id: 'o-1', qty: 3 });
  await assert.rejects(jsonSer.serialize('orders-json', { qty: 3 }), 'the registered schema validates records');
  const orderV2 = { ...orderV1, properties: { ...orderV1.properties, note: { type: 'string' } } };
  const jsonId2 = await producerSide.register(jsonSubject, { schemaType: 'JSON', schema: JSON.stringify(orderV2) });
  assert.notEqual(jsonId2, jsonId);
  const narrowed = { ...orderV2, properties: { ...orderV2.properties, qty: { type: 'string' } } };
  await assert.rejects(producerSide.register(jsonSubject, { schemaType: 'JSON', schema: JSON.stringify(narrowed) }),
    (err) => String(err.message || err).includes('409') || err.status === 409 || err.errorCode === 409);

  // Protobuf: the serializer registers a base64 FileDescriptorProto (Confluent's "serialized"
  // format) and the deserializer reads it back with format=serialized.
  const orderFile = create(FileDescriptorProtoSchema, {
    name: 'shop/order.proto', package: 'shop', syntax: 'proto3',
    messageType: [{
      name: 'Order',
      field: [
        { name: 'id', number: 1, type: 9, label: 1, jsonName: 'id' },
        { name: 'qty', number: 2, type: 5, label: 1, jsonName: 'qty' },
        { name: 'tags', number: 3, type: 9, label: 3, jsonName: 'tags' },
      ],
    }],
  });
  const orderDesc = createFileRegistry(orderFile, () => undefined).getMessage('shop.Order');
  const protoSer = new ProtobufSerializer(producerSide, SerdeType.VALUE, {
    autoRegisterSchemas: true, registry: createMutableRegistry(orderDesc),
  });
  const protoBytes = await protoSer.serialize('orders-proto', create(orderDesc, { id: 'o-7', qty: 2, tags: ['x', 'y'] }));
  assert.equal(protoBytes[0], 0, 'magic byte');
  const protoId = protoBytes.readInt32BE(1);
  const stored = await consumerSide.getLatestSchemaMetadata('orders-proto-value');
  assert.equal(stored.id, protoId);
  assert.ok(stored.schema.includes('message Order'), 'stored as .proto text: ' + stored.schema);
  const protoDeser = new ProtobufDeserializer(consumerSide, SerdeType.VALUE, {});
  const order = await protoDeser.deserialize('orders-proto', protoBytes);
  assert.equal(order.id, 'o-7');
  assert.equal(order.qty, 2);
  assert.deepEqual([...order.tags], ['x', 'y']);

  console.log(JSON.stringify({ ok: true, id1, id2, jsonId, jsonId2, protoId, bytes: bytes.length }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
