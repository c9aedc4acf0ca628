// Screenshots of the console's main pages at 1280×800, for docs/console/.
// Usage (after ConsoleIT has installed playwright-core in query-node/target/console):
//   java -jar query-node/target/quire.jar dev &   # and some subjects, versions and traffic
//   node query-node/target/console/screenshots.cjs http://localhost:8081 docs/console
const { chromium } = require('playwright-core');

async function main() {
  const [base, out] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const shoot = async (hash, name, waitFor) => {
    await page.goto(base + '/ui/' + hash);
    await page.getByText(waitFor).first().waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: out + '/' + name + '.png' });
  };
  await shoot('#/subjects', 'subjects', 'Latest version');
  await shoot('#/subject/orders-value', 'subject', 'Compare two versions');
  await shoot('#/check?subject=orders-value', 'check', 'Check compatibility');
  await shoot('#/cluster', 'cluster', 'The last minutes on this node');
  await shoot('#/audit', 'audit', 'Offset');
  await browser.close();
}

main().catch((e) => { console.error(e); process.exit(1); });
