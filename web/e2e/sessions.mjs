// End-to-end test of the web client's sessions, against a server whose
// access tokens live ACCESS_TOKEN_TTL_SECS (a few seconds here):
//   - a reload after the access token expired keeps the player signed in;
//   - revoking a session on the sessions page signs that browser out;
//   - a mail's sign-in link signs in once, and a second use is refused.
//
//   node sessions.mjs BASE_URL ARTIFACT_DIR EMAIL PASSWORD MAIL_LINK TTL_SECS
//
// MAIL_LINK is the path of a game mail's link, with its #sign-in= code.

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const [base, artifacts, email, password, mailLink, ttl] = process.argv.slice(2);
if (!ttl) {
  console.error('usage: node sessions.mjs BASE_URL ARTIFACT_DIR EMAIL PASSWORD MAIL_LINK TTL_SECS');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
const pageErrors = [];

function log(...args) {
  console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...args);
}

function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function browse(browser, name) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  page.on('pageerror', (err) => pageErrors.push(`${name}'s page threw: ${err.message}`));
  return { name, context, page };
}

async function logIn({ page }) {
  await page.goto(`${base}/login`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await page.click('form.auth button[type=submit]');
  await page.waitForURL(`${base}/games`);
  await page.waitForSelector('nav .who');
}

// Leaves the site until the access token kept in the tab has expired, and
// comes back to `path` in the same tab (its sessionStorage still holds
// the old token).
async function comeBackLater({ page }, path) {
  await page.goto('about:blank');
  await sleep(Number(ttl) * 1000 + 1500);
  await page.goto(`${base}${path}`);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const all = [];
  try {
    const laptop = await browse(browser, 'laptop');
    const phone = await browse(browser, 'phone');
    all.push(laptop, phone);

    await logIn(laptop);
    const cookies = await laptop.context.cookies();
    const refresh = cookies.find((c) => c.name === 'hexpost_refresh');
    check(refresh && refresh.httpOnly && refresh.sameSite === 'Strict' && refresh.path === '/api/v1/auth',
      `the refresh token is a strict HttpOnly cookie for /api/v1/auth: ${JSON.stringify(cookies)}`);
    check(!(await laptop.page.evaluate(() => document.cookie)).includes('hexpost_refresh'),
      'scripts cannot read the refresh cookie');
    const before = await laptop.page.evaluate(() => sessionStorage.getItem('hexpost.token'));

    await comeBackLater(laptop, '/games');
    await laptop.page.waitForSelector('h1:has-text("My games")');
    check(new URL(laptop.page.url()).pathname === '/games', `still signed in after expiry, at ${laptop.page.url()}`);
    const after = await laptop.page.evaluate(() => sessionStorage.getItem('hexpost.token'));
    check(after && after !== before, 'a new access token came from the refresh cookie');
    log('a reload after the access token expired kept the laptop signed in');

    // The laptop ends the phone's session on the sessions page.
    await logIn(phone);
    await laptop.page.click('nav a[href="/sessions"]');
    await laptop.page.waitForSelector('.session-item');
    const items = await laptop.page.$$('.session-item');
    check(items.length >= 2, `both browsers are listed (${items.length})`);
    check((await laptop.page.textContent('.sessions')).includes('(this browser)'), 'this browser is marked');
    const others = laptop.page.locator('.session-item', { hasNotText: '(this browser)' });
    const otherCount = await others.count();
    for (let i = 0; i < otherCount; i += 1) {
      await others.first().getByRole('button', { name: 'End this session' }).click();
      await laptop.page.waitForFunction((n) => document.querySelectorAll('.session-item').length === n, otherCount - i);
    }
    await comeBackLater(phone, '/games');
    await phone.page.waitForURL(/\/login/);
    check(!(await phone.page.$('nav .who')), 'the phone is signed out');
    log('revoking the phone\'s session signed it out');

    // A mail link signs a fresh browser in, once.
    const reader = await browse(browser, 'mail reader');
    all.push(reader);
    await reader.page.goto(`${base}${mailLink}`);
    await reader.page.waitForSelector('nav .who');
    const gamePath = mailLink.split('#')[0];
    check(new URL(reader.page.url()).pathname === gamePath, `the link opens its game: ${reader.page.url()}`);
    check(!reader.page.url().includes('sign-in'), 'the code leaves the address bar');
    const second = await browse(browser, 'second reader');
    all.push(second);
    await second.page.goto(`${base}${mailLink}`);
    await second.page.waitForURL(/\/login/);
    await second.page.waitForSelector('#status.error');
    const said = await second.page.textContent('#status');
    check(said.includes('used already'), `a second use is refused: "${said}"`);
    log('the mail link signed in once');
  } catch (err) {
    for (const b of all) {
      await b.page.screenshot({ path: join(artifacts, `sessions-${b.name.replace(' ', '-')}.png`) }).catch(() => {});
    }
    throw err;
  } finally {
    await browser.close();
  }
  check(pageErrors.length === 0, pageErrors.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
