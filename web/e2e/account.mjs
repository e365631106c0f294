// End-to-end test of the account pages, each step as a person takes it,
// the codes read from the mail files the server writes (E2E_MAIL_DIR):
//   - signing up, confirmed by the mail's link;
//   - "Forgot your password?": a code by mail, a new password, log in;
//   - signing in by mail, with the code typed in;
//   - the account page: a new address confirmed by the mail's link, the
//     data downloaded, and the account deleted.
// Screenshots of each page go to ARTIFACT_DIR.
//
//   node account.mjs BASE_URL ARTIFACT_DIR

import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mailedCode } from './mailbox.mjs';

const [base, artifacts] = process.argv.slice(2);
if (!artifacts) {
  console.error('usage: node account.mjs BASE_URL ARTIFACT_DIR');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
const pageErrors = [];
const tag = `${process.pid}-${Date.now()}`;
const email = `dora-${tag}@example.org`;
const moved = `dora-new-${tag}@example.org`;

function log(...args) {
  console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...args);
}

function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

async function shot(page, name) {
  await page.screenshot({ path: join(artifacts, `account-${name}.png`), fullPage: true });
}

// The link of the newest mail to `to` that opens `path`, as its recipient
// clicks it.
const link = async (to, path) => `${base}${path}#email=${encodeURIComponent(to)}&code=${await mailedCode(to, path)}`;

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  page.on('pageerror', (err) => pageErrors.push(`the page threw: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') log(`console: ${msg.text()}`);
  });
  try {
    // The first page says what this is and how to start.
    await page.goto(`${base}/`);
    await page.waitForSelector('.welcome');
    await shot(page, 'welcome');

    log('sign up, confirmed by the mail\'s link');
    await page.goto(`${base}/signup`);
    await page.fill('#email', email);
    await page.fill('#display_name', 'Dora');
    await page.fill('#password', 'correct horse battery');
    await page.click('form.auth button[type=submit]');
    await page.waitForSelector('.code-sent');
    await shot(page, 'code-sent');
    await page.goto(await link(email, '/confirm'));
    await page.waitForURL(`${base}/games`);
    check(!page.url().includes('code='), 'the code is gone from the address bar');
    await page.click('nav button.link');
    await page.waitForURL(`${base}/login`);

    log('forgot the password: a code by mail, a new password');
    await page.click('text=Forgot your password?');
    await page.fill('#email', email);
    await page.click('form.auth button[type=submit]');
    await page.waitForSelector('.code-sent');
    await page.fill('#code', await mailedCode(email, '/reset'));
    await page.fill('#new_password', 'staple battery horse');
    await shot(page, 'new-password');
    await page.click('form.auth button[type=submit]');
    await page.waitForURL(`${base}/login`);
    await page.fill('#email', email);
    await page.fill('#password', 'staple battery horse');
    await page.click('form.auth button[type=submit]');
    await page.waitForURL(`${base}/games`);
    await page.click('nav button.link');
    await page.waitForURL(`${base}/login`);

    log('sign in by mail, the code typed in');
    await page.click('text=Sign in by mail');
    await page.fill('#email', email);
    await page.click('form.auth button[type=submit]');
    await page.waitForSelector('.code-sent');
    await page.fill('#code', (await mailedCode(email, '/sign-in')).toLowerCase().replace('-', ''));
    await page.click('form.auth button[type=submit]');
    await page.waitForURL(`${base}/games`);

    log('the account page: a new address');
    await page.click('nav a[href="/account"]');
    await page.waitForSelector('.account-summary');
    check((await page.textContent('.account-summary')).includes(email), 'the page shows the address');
    await page.fill('#new_email', moved);
    await page.click('form[aria-label="Change your address"] button[type=submit]');
    await page.waitForSelector('.code-sent');
    await shot(page, 'account');
    // The link opens in the same browser, as a mail program would.
    await page.goto(await link(moved, '/account/email'));
    await page.waitForSelector('.done');
    check((await page.textContent('.done')).includes(moved), 'the new address is confirmed');

    log('download the data');
    await page.goto(`${base}/account`);
    await page.waitForSelector('.account-summary');
    check((await page.textContent('.account-summary')).includes(moved), 'the page shows the new address');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('button.download')]);
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
    check(exported.format === 'hexpost-account-export', 'the download is the export');
    check(exported.account.email === moved, 'the export holds the account');

    log('delete the account');
    await page.check('input[name=sure]');
    await page.click('form[aria-label="Delete your account"] button[type=submit]');
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/login`);
    await page.fill('#email', moved);
    await page.fill('#password', 'staple battery horse');
    await page.click('form.auth button[type=submit]');
    await page.waitForSelector('form.auth .error:not(:empty)');
    await shot(page, 'deleted');
  } finally {
    await browser.close();
  }
  check(pageErrors.length === 0, pageErrors.join('\n'));
  log('account pages: ok');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
