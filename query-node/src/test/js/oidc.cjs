// Confluent's JavaScript client, unmodified, fetching its own token from the identity provider
// (client credentials, its OAUTHBEARER configuration) and registering through it.
// Usage: node oidc.cjs BASE_URL TOKEN_ENDPOINT CLIENT_ID CLIENT_SECRET SUBJECT
const { SchemaRegistryClient } = require('@confluentinc/schemaregistry');

async function main() {
  const [base, tokenEndpoint, clientId, clientSecret, subject] = process.argv.slice(2);
  const client = new SchemaRegistryClient({
    baseURLs: [base],
    bearerAuthCredentials: {
      credentialsSource: 'OAUTHBEARER',
      issuerEndpointUrl: tokenEndpoint,
      clientId,
      clientSecret,
      scope: 'openid',
      logicalCluster: 'lsrc-quire',
      identityPoolId: 'pool-quire',
    },
  });
  const schema = JSON.stringify({ type: 'record', name: 'Payment', fields: [{ name: 'id', type: 'string' }] });
  const id = await client.register(subject, { schemaType: 'AVRO', schema });
  const back = await client.getBySubjectAndId(subject, id);
  if (JSON.parse(back.schema).name !== 'Payment') throw new Error('read back ' + back.schema);
  console.log('REGISTERED ' + id);
}

main().catch((e) => { console.error('FAILED ' + (e.stack || e)); process.exit(1); });
