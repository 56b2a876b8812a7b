// Headless Chromium from the system (Debian's package), driven by playwright-core: no
// browser download. A fresh profile per run.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');

const EXECUTABLE = process.env.CHROMIUM || '/usr/bin/chromium';

async function launchBrowser() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'daylit-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: EXECUTABLE,
    headless: true,
    viewport: { width: 1100, height: 760 },
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  const close = async () => {
    await context.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

// The shown picture's pixels (RGBA), read back through a canvas.
async function pixels(page) {
  return page.evaluate(() => {
    const img = document.getElementById('frame');
    const c = document.createElement('canvas');
    c.width = 64;
    c.height = 64;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0, 64, 64);
    return Array.from(g.getImageData(0, 0, 64, 64).data);
  });
}

// Fraction of pixels whose colour differs noticeably.
function differs(a, b) {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) {
    const d = Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]);
    if (d > 24) n++;
  }
  return n / (a.length / 4);
}

module.exports = { launchBrowser, pixels, differs };
