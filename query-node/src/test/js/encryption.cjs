// Drives Confluent's unmodified Node.js client through client-side field-level encryption against
// two Quire nodes of one registry: its LocalKmsDriver (offline) wraps the DEKs, the DEK registry
// stores them. Usage: node encryption.cjs <url of node A> <url of node B>. Prints one line per
// check; exits 1 on the first that fails.
const sr = require('@confluentinc/schemaregistry');

const [urlA, urlB] = process.argv.slice(2);
const clientA = new sr.SchemaRegistryClient({ baseURLs: [urlA], cacheCapacity: 100 });
const clientB = new sr.SchemaRegistryClient({ baseURLs: [urlB], cacheCapacity: 100 });
const ruleConfig = { secret: 'quire-test-secret' };
sr.LocalKmsDriver.register();
// One clock for the executors, moved forward to see a DEK expire. An executor talks to one
// registry node, so each node's clients get their own rule registry.
let now = Date.now();
const clock = { now: () => now };
function rulesFor() {
  const registry = new sr.RuleRegistry();
  registry.registerExecutor(new sr.FieldEncryptionExecutor(clock));
  registry.registerExecutor(new sr.EncryptionExecutor(clock));
  return registry;
}
const rulesA = rulesFor();
const rulesB = rulesFor();
const serializer = () => new sr.AvroSerializer(clientA, sr.SerdeType.VALUE, { useLatestVersion: true, ruleConfig },
  rulesA);
const deserializer = () => new sr.AvroDeserializer(clientB, sr.SerdeType.VALUE, { ruleConfig }, rulesB);

function check(name, ok, detail) {
  if (!ok) {
    console.log(`FAIL ${name}: ${detail === undefined ? '' : JSON.stringify(detail)}`);
    process.exit(1);
  }
  console.log(`OK ${name}`);
}

const SSN = '123-45-6789';
const person = (name) => JSON.stringify({
  type: 'record', name, namespace: 'quire.enc',
  fields: [{ name: 'id', type: 'int' }, { name: 'ssn', type: 'string', 'confluent:tags': ['PII'] }],
});
const params = (extra) => ({ 'encrypt.kek.name': 'quire-kek', 'encrypt.kms.type': 'local-kms',
  'encrypt.kms.key.id': 'mykey', ...extra });
const encryptPii = (extra) => ({ domainRules: [{ name: 'encryptPII', kind: 'TRANSFORM', mode: 'WRITEREAD',
  type: 'ENCRYPT', tags: ['PII'], params: params(extra), onFailure: 'ERROR,NONE' }] });

// Node B applies the journal on its own; a consumer reads what it has applied. Wait until B has
// applied everything A has, as a consumer started after the producer would find it.
async function caughtUp() {
  const want = (await clientA.restService.handleRequest('/admin/position', 'GET')).data.offset;
  for (let i = 0; i < 200; i++) {
    const at = (await clientB.restService.handleRequest('/admin/position', 'GET')).data.offset;
    if (at >= want) {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`node B did not reach offset ${want}`);
}

async function writeOnAReadOnB(subject, schema, ruleSet, record) {
  await clientA.register(subject, { schemaType: 'AVRO', schema, ruleSet });
  const ser = serializer();
  const bytes = await ser.serialize(subject.replace(/-value$/, ''), record);
  await caughtUp();
  const de = deserializer();
  const back = await de.deserialize(subject.replace(/-value$/, ''), bytes);
  return { bytes, back };
}

async function fieldEncryption() {
  const { bytes, back } = await writeOnAReadOnB('enc-value', person('Person'), encryptPii(), { id: 1, ssn: SSN });
  check('the PII field is not in the record in clear', !bytes.toString('latin1').includes(SSN));
  check('a client of the other node decrypts it', back.ssn === SSN && back.id === 1, back);
  const deks = await clientB.restService.handleRequest('/dek-registry/v1/keks/quire-kek/deks', 'GET');
  check('the DEK is in the registry under its subject', JSON.stringify(deks.data) === '["enc-value"]', deks.data);
  const dek = await clientB.restService.handleRequest('/dek-registry/v1/keks/quire-kek/deks/enc-value', 'GET');
  check('stored wrapped only', dek.data.encryptedKeyMaterial && dek.data.keyMaterial === undefined, dek.data);
}

async function payloadEncryption() {
  const ruleSet = { encodingRules: [{ name: 'encryptAll', kind: 'TRANSFORM', mode: 'WRITEREAD',
    type: 'ENCRYPT_PAYLOAD', params: params(), onFailure: 'ERROR,NONE' }] };
  const schema = JSON.stringify({ type: 'record', name: 'Note', fields: [{ name: 'text', type: 'string' }] });
  const { bytes, back } = await writeOnAReadOnB('payload-value', schema, ruleSet, { text: 'whole payload secret' });
  check('ENCRYPT_PAYLOAD: nothing of the record in clear', !bytes.toString('latin1').includes('whole payload'));
  check('ENCRYPT_PAYLOAD: read back on the other node', back.text === 'whole payload secret', back);
}

async function deterministic() {
  const subject = 'det-value';
  await clientA.register(subject, { schemaType: 'AVRO', schema: person('Det'),
    ruleSet: encryptPii({ 'encrypt.dek.algorithm': 'AES256_SIV' }) });
  const ser = serializer();
  const one = await ser.serialize('det', { id: 7, ssn: SSN });
  const two = await ser.serialize('det', { id: 7, ssn: SSN });
  await caughtUp();
  check('AES256_SIV: the same value encrypts the same way', one.equals(two));
  const versions = await clientB.restService.handleRequest(
    '/dek-registry/v1/keks/quire-kek/deks/det-value/versions?algorithm=AES256_SIV', 'GET');
  check('under a DEK of that algorithm', JSON.stringify(versions.data) === '[1]', versions.data);
}

async function rotation() {
  const subject = 'rot-value';
  await clientA.register(subject, { schemaType: 'AVRO', schema: person('Rot'),
    ruleSet: encryptPii({ 'encrypt.dek.expiry.days': '1' }) });
  const ser = serializer();
  const before = await ser.serialize('rot', { id: 1, ssn: SSN });
  now += 2 * 24 * 3600 * 1000; // two days later the DEK has expired
  const after = await ser.serialize('rot', { id: 2, ssn: SSN });
  await caughtUp();
  const versions = await clientB.restService.handleRequest('/dek-registry/v1/keks/quire-kek/deks/rot-value/versions',
    'GET');
  check('an expired DEK is rotated into version 2', JSON.stringify(versions.data) === '[1,2]', versions.data);
  const de = deserializer();
  const old = await de.deserialize('rot', before);
  const young = await de.deserialize('rot', after);
  check('records of both versions stay readable', old.ssn === SSN && young.ssn === SSN, { old, young });
}

async function withReferences() {
  const address = JSON.stringify({ type: 'record', name: 'Address', namespace: 'quire.enc',
    fields: [{ name: 'street', type: 'string' }] });
  await clientA.register('address-value', { schemaType: 'AVRO', schema: address });
  const customer = JSON.stringify({ type: 'record', name: 'Customer', namespace: 'quire.enc', fields: [
    { name: 'ssn', type: 'string', 'confluent:tags': ['PII'] }, { name: 'home', type: 'quire.enc.Address' }] });
  await clientA.register('customer-value', { schemaType: 'AVRO', schema: customer, ruleSet: encryptPii(),
    references: [{ name: 'quire.enc.Address', subject: 'address-value', version: 1 }] });
  const ser = serializer();
  const bytes = await ser.serialize('customer', { ssn: SSN, home: { street: 'Main St' } });
  await caughtUp();
  const de = deserializer();
  const back = await de.deserialize('customer', bytes);
  check('a schema with references: encrypted and read back', !bytes.toString('latin1').includes(SSN)
    && back.ssn === SSN && back.home.street === 'Main St', back);
}

async function racingSerializers() {
  const subject = 'race-value';
  await clientA.register(subject, { schemaType: 'AVRO', schema: person('Race'), ruleSet: encryptPii() });
  // Two serializers with their own rule registries and DEK clients, one per node, create the DEK at once.
  const sers = [clientA, clientB].map((client) => {
    return new sr.AvroSerializer(client, sr.SerdeType.VALUE, { useLatestVersion: true, ruleConfig }, rulesFor());
  });
  const [x, y] = await Promise.all(sers.map((s, i) => s.serialize('race', { id: i, ssn: SSN })));
  await caughtUp();
  const versions = await clientA.restService.handleRequest('/dek-registry/v1/keks/quire-kek/deks/race-value/versions',
    'GET');
  check('two serializers racing for one DEK end up with one key', JSON.stringify(versions.data) === '[1]',
    versions.data);
  const de = deserializer();
  const [a, b] = [await de.deserialize('race', x), await de.deserialize('race', y)];
  check('and both records decrypt with it', a.ssn === SSN && b.ssn === SSN, { a, b });
}

async function sharedKek() {
  // A KEK shared with the registry: the nodes (started with the same local-kms secret) make the DEK,
  // and clients with no KMS of their own encrypt and decrypt with the key the registry hands out.
  await clientA.restService.handleRequest('/dek-registry/v1/keks', 'POST', { name: 'shared-kek',
    kmsType: 'local-kms', kmsKeyId: 'mykey', shared: true });
  await clientA.register('shared-value', { schemaType: 'AVRO', schema: person('Shared'),
    ruleSet: encryptPii({ 'encrypt.kek.name': 'shared-kek' }) });
  const ser = new sr.AvroSerializer(clientA, sr.SerdeType.VALUE, { useLatestVersion: true }, rulesFor());
  const bytes = await ser.serialize('shared', { id: 9, ssn: SSN });
  await caughtUp();
  const de = new sr.AvroDeserializer(clientB, sr.SerdeType.VALUE, {}, rulesFor());
  const back = await de.deserialize('shared', bytes);
  check('a shared KEK: clients without a KMS secret write and read', !bytes.toString('latin1').includes(SSN)
    && back.ssn === SSN, back);
  const dek = (await clientB.restService.handleRequest('/dek-registry/v1/keks/shared-kek/deks/shared-value', 'GET'))
    .data;
  const { LocalKmsClient } = require('@confluentinc/schemaregistry/dist/rules/encryption/localkms/local-client');
  const opened = await new LocalKmsClient(ruleConfig.secret).decrypt(Buffer.from(dek.encryptedKeyMaterial, 'base64'));
  check('the registry wrapped it as the client\'s own local KMS does',
    opened.equals(Buffer.from(dek.keyMaterial, 'base64')), dek.version);
}

(async () => {
  try {
    await fieldEncryption();
    await payloadEncryption();
    await deterministic();
    await rotation();
    await withReferences();
    await racingSerializers();
    await sharedKek();
    console.log('ALL OK');
  } catch (e) {
    console.log(`FAIL unexpected: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
  }
})();
