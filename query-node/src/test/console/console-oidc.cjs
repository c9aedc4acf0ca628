// The console signing in through the identity provider in a real browser: Debian's Chromium,
// driven by playwright-core, through Keycloak's own login page (authorization code with PKCE).
// Usage: node console-oidc.cjs BASE_URL USER PASSWORD EXPECTED_ROLE
const assert = require('node:assert/strict');
const { chromium } = require('playwright-core');

const [base, user, password, role] = process.argv.slice(2);
const step = (what) => console.log('OK ' + what);

async function main() {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(base + '/ui/#/subjects');
  await page.getByText('This node requires authentication').waitFor();
  const button = page.locator('#signin-oidc-button');
  await button.waitFor({ state: 'visible' });
  step('offers the identity provider\'s sign-in');
  await button.click();
  await page.locator('#username').waitFor();
  assert.match(page.url(), /code_challenge_method=S256/, 'PKCE with S256');
  step('at the provider\'s login page, with a PKCE challenge');
  await page.locator('#username').fill(user);
  await page.locator('#password').fill(password);
  await page.locator('#kc-login').click();
  await page.getByText('Signed in as ' + user).waitFor({ timeout: 30000 });
  assert.ok(await page.getByText('(' + role + ')').isVisible(), 'the role from the provider\'s groups');
  assert.equal(new URL(page.url()).search, '', 'the code left the address');
  assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'nothing kept in sessionStorage');
  assert.equal(await page.evaluate(() => localStorage.length), 0, 'nothing kept in localStorage');
  step('back in the console, signed in as ' + user + ' (' + role + ')');
  await page.getByText('payments-console-value').waitFor();
  step('lists subjects with the provider\'s token');
  assert.deepEqual(errors, []);
  await browser.close();
  console.log('ALL OK');
}

main().catch((e) => { console.error('FAILED ' + (e.stack || e)); process.exit(1); });
