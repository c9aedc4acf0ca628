// Drives Confluent's unmodified Node.js client (@confluentinc/schemaregistry) against a Quire
// node: data contract rules run by the client's own executors (CEL, CEL_FIELD, JSONata, all
// offline), GUIDs in record headers for Avro, JSON Schema and Protobuf, and Confluent's built-in
// Protobuf files. Usage: node data-contracts.cjs <registry url>. Prints one line per check; exits
// 1 on the first that fails.
const sr = require('@confluentinc/schemaregistry');
const { create, fromBinary, createFileRegistry } = require('@bufbuild/protobuf');
const { FileDescriptorProtoSchema } = require('@bufbuild/protobuf/wkt');

const url = process.argv[2];
const client = new sr.SchemaRegistryClient({ baseURLs: [url], cacheCapacity: 100 });
sr.CelExecutor.register();
sr.CelFieldExecutor.register();
sr.JsonataExecutor.register();

function check(name, ok, detail) {
  if (!ok) {
    console.log(`FAIL ${name}: ${detail === undefined ? '' : JSON.stringify(detail)}`);
    process.exit(1);
  }
  console.log(`OK ${name}`);
}

const order = JSON.stringify({
  type: 'record', name: 'Order', namespace: 'quire.it',
  fields: [{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }],
});

async function celCondition() {
  await client.register('cel-orders-value', {
    schemaType: 'AVRO', schema: order,
    ruleSet: { domainRules: [{ name: 'checkId', kind: 'CONDITION', mode: 'WRITE', type: 'CEL', expr: 'message.id > 0' }] },
  });
  const ser = new sr.AvroSerializer(client, sr.SerdeType.VALUE, { useLatestVersion: true });
  const good = await ser.serialize('cel-orders', { id: 1, name: 'a' });
  check('a record the CEL condition accepts is serialized', good.length > 5);
  let refused = null;
  try {
    await ser.serialize('cel-orders', { id: -1, name: 'a' });
  } catch (e) {
    refused = e;
  }
  check('a record the CEL condition refuses is not serialized', refused !== null, String(refused));
}

async function celFieldTransform() {
  await client.register('field-orders-value', {
    schemaType: 'AVRO', schema: order,
    ruleSet: { domainRules: [{ name: 'suffix', kind: 'TRANSFORM', mode: 'WRITE', type: 'CEL_FIELD',
      expr: "name == 'name' ; value + '-checked'" }] },
  });
  const ser = new sr.AvroSerializer(client, sr.SerdeType.VALUE, { useLatestVersion: true });
  const de = new sr.AvroDeserializer(client, sr.SerdeType.VALUE, {});
  const bytes = await ser.serialize('field-orders', { id: 2, name: 'b' });
  const back = await de.deserialize('field-orders', bytes);
  check('the CEL_FIELD transform ran on write', back.name === 'b-checked', back);
}

async function jsonataMigration() {
  const subject = 'migrate-value';
  await client.updateConfig(subject, { compatibilityGroup: 'major' });
  const v1 = JSON.stringify({ type: 'record', name: 'Widget', fields: [{ name: 'size', type: 'int' }] });
  const v2 = JSON.stringify({ type: 'record', name: 'Widget', fields: [{ name: 'height', type: 'int' }] });
  await client.register(subject, { schemaType: 'AVRO', schema: v1, metadata: { properties: { major: '1' } } });
  await client.register(subject, {
    schemaType: 'AVRO', schema: v2, metadata: { properties: { major: '2' } },
    ruleSet: { migrationRules: [
      { name: 'up', kind: 'TRANSFORM', mode: 'UPGRADE', type: 'JSONATA',
        expr: "$merge([$sift($, function($v, $k) {$k != 'size'}), {'height': $.'size'}])" },
      { name: 'down', kind: 'TRANSFORM', mode: 'DOWNGRADE', type: 'JSONATA',
        expr: "$merge([$sift($, function($v, $k) {$k != 'height'}), {'size': $.'height'}])" },
    ] },
  });
  const oldProducer = new sr.AvroSerializer(client, sr.SerdeType.VALUE, { useLatestWithMetadata: { major: '1' } });
  const newConsumer = new sr.AvroDeserializer(client, sr.SerdeType.VALUE, { useLatestWithMetadata: { major: '2' } });
  const upgraded = await newConsumer.deserialize('migrate', await oldProducer.serialize('migrate', { size: 7 }));
  check('a major-1 record is upgraded for a major-2 reader', upgraded.height === 7 && upgraded.size === undefined,
    upgraded);
  const newProducer = new sr.AvroSerializer(client, sr.SerdeType.VALUE, { useLatestWithMetadata: { major: '2' } });
  const oldConsumer = new sr.AvroDeserializer(client, sr.SerdeType.VALUE, { useLatestWithMetadata: { major: '1' } });
  const downgraded = await oldConsumer.deserialize('migrate', await newProducer.serialize('migrate', { height: 9 }));
  check('a major-2 record is downgraded for a major-1 reader', downgraded.size === 9, downgraded);
}

async function guids() {
  const headerConf = { autoRegisterSchemas: true, schemaIdSerializer: sr.HeaderSchemaIdSerializer };
  // A second client with empty caches: what it reads, it resolves from the registry by GUID.
  const fresh = new sr.SchemaRegistryClient({ baseURLs: [url] });

  const avroHeaders = {};
  const avroBytes = await new sr.AvroSerializer(client, sr.SerdeType.VALUE, headerConf)
    .serialize('guid-avro', { id: 3, name: 'c' }, avroHeaders);
  check('Avro: the GUID travels in the header', avroHeaders[sr.VALUE_SCHEMA_ID_HEADER] !== undefined,
    Object.keys(avroHeaders));
  const avro = await new sr.AvroDeserializer(fresh, sr.SerdeType.VALUE, {})
    .deserialize('guid-avro', avroBytes, avroHeaders);
  check('Avro: read back by GUID', avro.id === 3 && avro.name === 'c', avro);

  const jsonSchema = JSON.stringify({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] });
  await client.register('guid-json-value', { schemaType: 'JSON', schema: jsonSchema });
  const jsonHeaders = {};
  const jsonBytes = await new sr.JsonSerializer(client, sr.SerdeType.VALUE,
    { useLatestVersion: true, schemaIdSerializer: sr.HeaderSchemaIdSerializer })
    .serialize('guid-json', { id: 4 }, jsonHeaders);
  const json = await new sr.JsonDeserializer(fresh, sr.SerdeType.VALUE, {})
    .deserialize('guid-json', jsonBytes, jsonHeaders);
  check('JSON Schema: read back by GUID', json.id === 4, json);

  const protoHeaders = {};
  const decimal = create(sr.DecimalSchema, { value: new Uint8Array([1, 2]), precision: 5, scale: 2 });
  const protoSer = new sr.ProtobufSerializer(client, sr.SerdeType.VALUE, headerConf);
  protoSer.registry.add(sr.DecimalSchema);
  const protoBytes = await protoSer.serialize('guid-proto', decimal, protoHeaders);
  const protoDe = new sr.ProtobufDeserializer(fresh, sr.SerdeType.VALUE, {});
  const back = await protoDe.deserialize('guid-proto', protoBytes, protoHeaders);
  check('Protobuf: read back by GUID', back.scale === 2 && back.precision === 5, back);
}

async function builtInProtobufFiles() {
  const id = await client.register('meta-value', {
    schemaType: 'PROTOBUF',
    schema: 'syntax = "proto3";\npackage quire.it;\nimport "confluent/meta.proto";\n'
      + 'import "confluent/type/decimal.proto";\nmessage Payment {\n'
      + '  confluent.type.Decimal amount = 1 [(confluent.field_meta) = { tags: ["PII"] }];\n}\n',
  });
  check('a Protobuf schema importing confluent/meta.proto registers', id > 0, id);
  const info = await client.getBySubjectAndId('meta-value', id, 'serialized');
  check('and is served in the serialized form', info.schema.length > 0, info);
}

async function associatedSubject() {
  const widget = JSON.stringify({ type: 'record', name: 'Gadget', fields: [{ name: 'n', type: 'int' }] });
  await client.register('gadgets-explicit', { schemaType: 'AVRO', schema: widget });
  await client.createAssociation({
    resourceName: 'gadgets', resourceNamespace: 'lkc-quire', resourceId: 'topic-gadgets', resourceType: 'topic',
    associations: [{ subject: 'gadgets-explicit', associationType: 'value' }],
  });
  const found = await client.getAssociationsByResourceName('gadgets', '-', 'topic', ['value'], null, 0, -1);
  check('the association is found by topic name in any namespace', found.length === 1
    && found[0].subject === 'gadgets-explicit', found);
  const ser = new sr.AvroSerializer(client, sr.SerdeType.VALUE,
    { useLatestVersion: true, subjectNameStrategyType: sr.SubjectNameStrategyType.ASSOCIATED });
  const bytes = await ser.serialize('gadgets', { n: 5 });
  const de = new sr.AvroDeserializer(client, sr.SerdeType.VALUE, {});
  const back = await de.deserialize('gadgets', bytes);
  check('AssociatedNameStrategy writes with the associated subject', back.n === 5, back);
  const latest = await client.getLatestSchemaMetadata('gadgets-explicit');
  check('under that subject\'s schema id', bytes.readInt32BE(1) === latest.id, { id: bytes.readInt32BE(1), latest });
}

async function protobufTaggedField() {
  const subject = 'tagged-proto-value';
  const text = 'syntax = "proto3";\npackage quire.it;\nimport "confluent/meta.proto";\nmessage Card {\n'
    + '  string number = 1 [(confluent.field_meta) = { tags: ["PII"] }];\n  string holder = 2;\n}\n';
  await client.register(subject, {
    schemaType: 'PROTOBUF', schema: text,
    ruleSet: { domainRules: [{ name: 'mask', kind: 'TRANSFORM', mode: 'WRITE', type: 'CEL_FIELD', tags: ['PII'],
      expr: "typeName == 'STRING' ; value + '-masked'" }] },
  });
  // The message type as a client that only has the registry's descriptor builds it.
  const served = await client.getLatestSchemaMetadata(subject, 'serialized');
  const fdp = fromBinary(FileDescriptorProtoSchema, Buffer.from(served.schema, 'base64'));
  check('the served descriptor carries the field tags as an option', fdp.messageType[0].field[0].options !== undefined,
    fdp.messageType[0].field[0]);
  const files = createFileRegistry(fdp, (name) => (name === 'confluent/meta.proto' ? sr.file_confluent_meta : undefined));
  const cardDesc = files.getMessage('quire.it.Card');
  const ser = new sr.ProtobufSerializer(client, sr.SerdeType.VALUE, { useLatestVersion: true });
  ser.registry.add(cardDesc);
  const bytes = await ser.serialize('tagged-proto', create(cardDesc, { number: '4111', holder: 'Ann' }));
  const de = new sr.ProtobufDeserializer(client, sr.SerdeType.VALUE, {});
  const back = await de.deserialize('tagged-proto', bytes);
  check('Protobuf: the CEL_FIELD rule ran on the PII-tagged field only',
    back.number === '4111-masked' && back.holder === 'Ann', back);
}

async function namedContext() {
  // A subject in a named context: the client only names the subject, qualified.
  const inContext = (topic) => `:.team-a:${topic}-value`;
  const item = JSON.stringify({ type: 'record', name: 'Item', fields: [{ name: 'n', type: 'int' }] });
  const plainId = await client.register('items-value', { schemaType: 'AVRO', schema: item });
  const ser = new sr.AvroSerializer(client, sr.SerdeType.VALUE, { autoRegisterSchemas: true, subjectNameStrategy: inContext });
  const bytes = await ser.serialize('items', { n: 7 });
  const id = bytes.readInt32BE(1);
  check('a schema registered in a named context gets its own id there', id !== plainId, { id, plainId });
  const de = new sr.AvroDeserializer(client, sr.SerdeType.VALUE, { subjectNameStrategy: inContext });
  const back = await de.deserialize('items', bytes);
  check('and the deserializer reads the id in that context', back.n === 7, back);
  const latest = await client.getLatestSchemaMetadata(':.team-a:items-value');
  check('the qualified subject holds it', latest.id === id && latest.subject === ':.team-a:items-value', latest);
  const contexts = await client.restService.handleRequest('/contexts', 'GET');
  check('GET /contexts lists the context', contexts.data.includes('.team-a'), contexts.data);
}

// Quire's lint settings travel in the config body as a "lint" object: the client's own config
// calls read and update a subject that has one, and leave it in place.
async function lintConfigBesideTheClientsCalls() {
  const subject = 'linted-value';
  const put = await fetch(`${url}/config/${subject}`, {
    method: 'PUT', headers: { 'Content-Type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ compatibility: 'FULL', lint: { profile: 'MINIMAL', action: 'WARN' } }),
  });
  check('a lint config is set over HTTP', put.status === 200, await put.text());
  const read = await client.getConfig(subject);
  check('the client reads the config of a subject with lint', read.compatibilityLevel === 'FULL', read);
  await client.updateConfig(subject, { compatibility: 'BACKWARD' });
  const after = await (await fetch(`${url}/config/${subject}`)).json();
  check('the client updates it and the lint config stays', after.compatibilityLevel === 'BACKWARD'
    && after.lint && after.lint.profile === 'MINIMAL', after);
  const id = await client.register(subject, { schemaType: 'AVRO', schema: JSON.stringify({
    type: 'record', name: 'Linted', fields: [{ name: 'id', type: 'int' }] }) });
  check('the client registers a schema the warning lint reports on', id > 0, id);
}

(async () => {
  try {
    await namedContext();
    await lintConfigBesideTheClientsCalls();
    await protobufTaggedField();
    await associatedSubject();
    await celCondition();
    await celFieldTransform();
    await jsonataMigration();
    await guids();
    await builtInProtobufFiles();
    console.log('ALL OK');
  } catch (e) {
    console.log(`FAIL unexpected: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
  }
})();
