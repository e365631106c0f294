// A mail as a phone shows it: opens an HTML mail (its inline images given
// as data: URLs in place of their cid: ones) in headless Chromium at a
// phone's width, checks that every image loaded and fits the screen, and
// saves a screenshot.
//
//   node mail.mjs HTML_FILE SCREENSHOT_FILE
//
// Chromium is the system's (CHROMIUM, default /usr/bin/chromium).

import { chromium } from 'playwright-core';

const [file, screenshot] = process.argv.slice(2);
if (!file || !screenshot) {
  console.error('usage: node mail.mjs HTML_FILE SCREENSHOT_FILE');
  process.exit(2);
}
const PHONE = { width: 390, height: 844 };

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
try {
  const page = await (await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2 })).newPage();
  await page.goto(`file://${file}`);
  const images = await page.evaluate(() => [...document.images].map((img) => ({
    alt: img.alt,
    loaded: img.complete && img.naturalWidth > 0,
    natural: img.naturalWidth,
    shown: img.getBoundingClientRect().width,
    right: img.getBoundingClientRect().right,
  })));
  console.log(JSON.stringify(images));
  if (images.length === 0) throw new Error('the mail shows no image');
  for (const img of images) {
    if (!img.loaded) throw new Error(`an image did not load: ${img.alt}`);
    if (!img.alt) throw new Error('an image without alt text');
    if (img.right > PHONE.width) throw new Error(`an image wider than the phone: ${JSON.stringify(img)}`);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  if (overflow > PHONE.width) throw new Error(`the mail scrolls sideways: ${overflow} px`);
  await page.screenshot({ path: screenshot, fullPage: true });
} finally {
  await browser.close();
}
