// The console in a real browser: Debian's Chromium, driven by playwright-core.
// Usage: node console.cjs BASE_URL SCREENSHOT_DIR
// The node runs with Basic authentication: ada (admin), wendy (writer), rita (reader); the Java
// side registered orders-value versions 1 and 2 as wendy before this runs.
const assert = require('node:assert/strict');
const { chromium } = require('playwright-core');

const [base, shots] = process.argv.slice(2);
const PASSWORDS = { ada: 'ada-pw', wendy: 'wendy-pw', rita: 'rita-pw' };
const step = (what) => console.log('OK ' + what);

async function signIn(page, user) {
  await page.locator('#signin-user').fill(user);
  await page.locator('#signin-password').fill(PASSWORDS[user]);
  await page.locator('#signin-password').press('Enter');
  await page.getByText('Signed in as ' + user).waitFor();
}

async function main() {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('response', (r) => { if (r.status() === 404) errors.push('404 ' + r.url()); });
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 40[134]|ERR_CONNECTION_REFUSED/.test(m.text())) errors.push(m.text()); });
  await page.goto(base + '/ui/');

  // Authentication is on: the console asks for credentials and shows nothing else.
  await page.getByText('This node requires authentication').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'signin-user', 'the sign-in form has the focus');
  step('asks to sign in, the focus in the form');
  await page.locator('#signin-user').fill('ada');
  await page.locator('#signin-password').fill('wrong');
  await page.locator('#signin-form button[type=submit]').click();
  await page.getByText('These credentials were refused (401).').waitFor();
  step('wrong password refused');
  await signIn(page, 'ada');
  assert.equal(await page.evaluate(() => Object.keys(localStorage).length + Object.keys(sessionStorage).length), 0);
  step('signed in as ada (admin), nothing in local or session storage');

  // Find a subject, with the keyboard only.
  await page.getByRole('heading', { name: 'Subjects' }).waitFor();
  await page.evaluate(() => { document.body.tabIndex = -1; document.body.focus(); document.body.removeAttribute('tabindex'); });
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to content', 'the first Tab stop');
  await page.getByLabel('Subject prefix').focus();
  await page.keyboard.type('orders');
  await page.keyboard.press('Enter');
  // The unfiltered list stays on screen until the filtered one replaces it: wait for that one.
  await page.waitForFunction(() => location.hash.includes('prefix=orders')
    && document.querySelectorAll('tbody tr').length === 1
    && document.querySelector('tbody tr a').textContent === 'orders-value', null, { timeout: 10_000 });
  assert.equal(await page.locator('tbody tr').count(), 1, 'only the subject with that prefix');
  await page.screenshot({ path: shots + '/subjects.png' });
  await page.getByRole('link', { name: 'orders-value' }).click();
  step('found orders-value by prefix');

  // Its versions, who registered them, and a diff of two of them.
  await page.getByRole('heading', { name: 'orders-value' }).waitFor();
  const timeline = page.getByRole('list', { name: 'Versions' });
  await timeline.getByText('Version 2').waitFor();
  assert.match(await timeline.innerText(), /Version 1[^\n]*by wendy/);
  const diff = page.getByRole('table', { name: 'Differences' });
  await diff.waitFor();
  assert.match(await diff.locator('td.add').allInnerTexts().then((t) => t.join('\n')), /"note"/, 'the added field is green');
  await page.screenshot({ path: shots + '/subject.png', fullPage: true });
  step('versions with their principal from the audit trail, diff of 1 and 2');

  // A failing and a passing compatibility check, then the registration.
  await page.getByRole('link', { name: 'Check a change', exact: true }).click();
  await page.getByRole('heading', { name: 'Check a change', level: 1 }).waitFor(); // not the page before's fields
  await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('orders-value');
  const bad = { type: 'record', name: 'Order', fields: [{ name: 'id', type: 'string' }, { name: 'qty', type: 'int' }] };
  await page.getByRole('textbox', { name: 'Schema', exact: true }).fill(JSON.stringify(bad));
  await page.getByRole('button', { name: 'Check compatibility' }).click();
  await page.getByText('Incompatible: registering it would be refused.').waitFor();
  assert.match(await page.locator('ul.messages').innerText(), /qty/);
  step('an incompatible change is refused, with the reason');
  const good = { type: 'record', name: 'Order', fields: [{ name: 'id', type: 'string' },
    { name: 'note', type: 'string', default: '' }, { name: 'qty', type: 'int', default: 1 }] };
  await page.getByRole('textbox', { name: 'Schema', exact: true }).fill(JSON.stringify(good));
  await page.getByRole('button', { name: 'Check compatibility' }).click();
  await page.getByText('Compatible: this change can be registered.').waitFor();
  await page.screenshot({ path: shots + '/check.png' });
  await page.getByRole('button', { name: 'Register this version' }).click();
  await page.getByText(/Registered as schema id \d+/).waitFor();
  step('a compatible change passes and is registered');
  await page.getByRole('link', { name: 'See orders-value' }).click();
  await timeline.getByText('Version 3').waitFor();
  assert.match(await timeline.innerText(), /Version 3[^\n]*by ada/);
  step('version 3 appears, registered by ada');

  await page.getByRole('link', { name: 'Audit trail' }).click();
  await page.getByRole('heading', { name: 'Audit trail', level: 1 }).waitFor(); // not the page before's fields
  await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('orders-value');
  await page.getByLabel('Principal').fill('ada');
  await page.getByRole('button', { name: 'Filter' }).click();
  const audit = page.getByRole('table', { name: 'Audit entries' });
  await audit.waitFor();
  assert.match(await audit.innerText(), /ada\s+RegisterSchema\s+orders-value\s+SchemaRegistered/);
  await page.screenshot({ path: shots + '/audit.png' });
  step('its audit entry');

  // A version made by a change set shows the change's id and message on its subject's timeline.
  await page.goto(base + '/ui/#/subject/customers-value');
  await timeline.getByText('Version 2').waitFor();
  assert.match(await timeline.innerText(), /Version 2[^\n]*by wendy[^]*change pr-7 · customers get an email/);
  step('a change set\'s id and message on the timeline');

  // Switch a level with the admin role.
  await page.getByRole('link', { name: 'Config and modes' }).click();
  await page.getByRole('heading', { name: 'Config and modes', level: 1 }).waitFor(); // not the page before's fields
  await page.getByRole('textbox', { name: 'Subject', exact: true }).fill('orders-value');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.getByRole('form', { name: 'Compatibility of orders-value' }).locator('select').selectOption('FULL');
  await page.getByRole('form', { name: 'Compatibility of orders-value' }).getByRole('button', { name: 'Save level' }).click();
  await page.getByText('Saved: FULL').waitFor();
  const level = await page.evaluate(async (u) => (await fetch(u + '/config/orders-value', { headers: {
    Authorization: 'Basic ' + btoa('ada:ada-pw') } }).then((r) => r.json())).compatibilityLevel, base);
  assert.equal(level, 'FULL');
  step('admin switched orders-value to FULL');

  // Lint for the subject: STANDARD, warning only, with a PII pattern.
  const lint = page.getByRole('form', { name: 'Lint of orders-value' });
  await lint.getByLabel('Lint profile').selectOption('STANDARD');
  await lint.getByLabel('On a violation').selectOption('WARN');
  await lint.getByLabel('PII patterns').fill('email ssn');
  await lint.getByRole('button', { name: 'Save lint' }).click();
  await page.getByText('Saved: lint STANDARD, WARN').waitFor();
  const saved = await page.evaluate(async (u) => (await fetch(u + '/config/orders-value', { headers: {
    Authorization: 'Basic ' + btoa('ada:ada-pw') } }).then((r) => r.json())).lint, base);
  assert.deepEqual(saved, { profile: 'STANDARD', action: 'WARN', piiPatterns: ['email', 'ssn'] });
  step('admin set lint for orders-value');

  await page.getByRole('link', { name: 'Cluster' }).click();
  const nodes = page.getByRole('table', { name: 'Nodes' });
  await nodes.waitFor();
  assert.equal(await nodes.locator('tbody tr').count(), 2, 'this node and its peer');
  assert.match(await nodes.innerText(), /this node \(console-node\)/);
  await nodes.getByText('in step').first().waitFor();
  assert.equal(await nodes.getByText('in step').count(), 2, await nodes.innerText());
  await page.screenshot({ path: shots + '/cluster.png' });
  step('cluster page: both nodes at one offset with one digest');

  await page.getByRole('link', { name: 'Schema by id' }).click();
  await page.getByLabel('Schema id or GUID').fill('1');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.getByRole('link', { name: 'orders-value version 1' }).waitFor();
  step('schema by id with the versions using it');

  // Search from the box every page has: the matching part marked, a prefix of one kind, the impact of a record.
  const box = page.getByRole('searchbox', { name: 'Search the registry' });
  await box.fill('NOTE');
  await box.press('Enter');
  const hits = page.getByRole('table', { name: 'Hits' });
  await hits.waitFor();
  assert.equal(await hits.locator('tbody tr').count(), 2, 'the note field of orders-value versions 2 and 3');
  assert.deepEqual(await hits.locator('mark').allInnerTexts(), ['note', 'note'], 'the matching part is marked, in the schema\'s case');
  assert.match(await hits.locator('tbody tr').first().innerText(), /orders-value\s+2\s+field\s+note\s+Order\.note/);
  await page.screenshot({ path: shots + '/search.png' });
  await page.getByRole('textbox', { name: 'Term' }).fill('ord*');
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('record');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForFunction(() => location.hash.includes('kind=record')
    && document.querySelectorAll('table[aria-label=Hits] tbody tr').length === 3, null, { timeout: 10_000 });
  assert.deepEqual(await hits.locator('mark').allInnerTexts(), ['Ord', 'Ord', 'Ord'], 'its three versions define record Order');
  step('search box: a term in any case with its match marked; a prefix of one kind');
  await hits.getByRole('link', { name: 'Impact' }).first().click();
  await page.getByRole('heading', { name: 'Who a change to record Order would touch' }).waitFor();
  assert.equal(await page.getByRole('table', { name: 'Uses' }).locator('tbody tr').count(), 3);
  await page.goto(base + '/ui/#/subject/customers-value?version=1');
  await page.getByRole('link', { name: 'Impact of a change to R' }).click();
  const uses = page.getByRole('table', { name: 'Uses' });
  await uses.waitFor();
  assert.deepEqual((await uses.locator('tbody tr td:first-child').allInnerTexts()).sort(),
    ['customers-value', 'customers-value', 'inventory-value', 'payments-value'], 'every version that defines R');
  await page.screenshot({ path: shots + '/impact.png' });
  step('the impact of a record, from the search and from a subject page');

  // A page whose answer comes back after the address moved on does not replace the newer page.
  await page.route('**/subjects?subjectPrefix=&**', async (r) => {
    await new Promise((done) => setTimeout(done, 1500));
    await r.continue();
  });
  await page.getByRole('link', { name: 'Subjects' }).click();
  await page.getByText('Loading subjects').waitFor();
  await page.evaluate(() => { location.hash = '#/subjects?prefix=orders&deleted=false'; });
  await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1, null, { timeout: 10_000 });
  await page.waitForTimeout(2_500); // the slow unfiltered answer has come and gone
  assert.equal(await page.locator('tbody tr').count(), 1, 'the filtered list stays');
  assert.match(page.url(), /prefix=orders/);
  await page.unroute('**/subjects?subjectPrefix=&**');
  step('a late answer for a page left behind is dropped');

  // An unreachable node and an empty result are said plainly.
  await page.route('**/subjects?**', (r) => r.abort('connectionrefused'));
  await page.getByRole('link', { name: 'Subjects' }).click();
  await page.getByText('The node did not answer').waitFor();
  await page.unroute('**/subjects?**');
  step('an unreachable node is an error state');
  await page.goto(base + '/ui/#/subjects?prefix=nothing-here');
  await page.getByText('No subject starts with “nothing-here”.').waitFor();
  step('an empty result says so');

  // The reader: no level switch offered, no admin pages, and the API refuses it anyway.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, 'rita');
  assert.equal(await page.getByRole('link', { name: 'Cluster' }).isVisible(), false);
  assert.equal(await page.getByRole('link', { name: 'Audit trail' }).isVisible(), false);
  await page.getByRole('link', { name: 'Config and modes' }).click();
  await page.getByText('Changing it needs the admin role.').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Save level' }).count(), 0);
  assert.equal(await page.getByRole('link', { name: 'Check a change', exact: true }).isVisible(), false);
  await page.goto(base + '/ui/#/check');
  await page.getByText('Compatibility checks and registrations need the writer role').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Register this version' }).count(), 0);
  const status = await page.evaluate(async (u) => (await fetch(u + '/config/orders-value', { method: 'PUT',
    headers: { Authorization: 'Basic ' + btoa('rita:rita-pw'), 'Content-Type': 'application/json' },
    body: JSON.stringify({ compatibility: 'NONE' }) })).status, base);
  assert.equal(status, 403);
  step('reader: nothing it may not do is offered; its level switch is refused with 403');
  await page.goto(base + '/ui/#/audit');
  await page.reload();
  await page.getByText('This node requires authentication').waitFor();
  step('a reload forgets the credentials');

  assert.deepEqual(errors, [], 'no script errors in the page');
  await browser.close();
  console.log('ALL OK');
}

main().catch((e) => { console.error(e); process.exit(1); });
