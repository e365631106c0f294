// Reading the mail the server under test wrote as files (a server without
// SMTP_URL writes each as an .eml under its data directory's mail/), as
// its recipient would: the code of the newest mail to an address whose
// link opens a page.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.E2E_MAIL_DIR;

function mails() {
  let names = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.eml'));
  } catch {
    return [];
  }
  return names.map((n) => {
    const path = join(dir, n);
    // Quoted-printable: soft line breaks and escaped `=`.
    const raw = readFileSync(path, 'utf8').replaceAll('=\r\n', '').replaceAll('=\n', '').replaceAll('=3D', '=');
    return { at: statSync(path).mtimeMs, raw };
  });
}

export async function mailedCode(to, page, timeoutMs = 15000) {
  if (!dir) throw new Error('E2E_MAIL_DIR is not set: the test names the server\'s mail directory');
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = mails()
      .filter((m) => m.raw.includes(`To: ${to}`) && m.raw.includes(`${page}#email=`))
      .sort((a, b) => b.at - a.at)[0];
    if (found) {
      const query = found.raw.split(`${page}#`)[1].split(/[\s"<]/)[0].replaceAll('&amp;', '&');
      return new URLSearchParams(query).get('code');
    }
    if (Date.now() > end) throw new Error(`no mail to ${to} with a link to ${page} in ${dir}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
