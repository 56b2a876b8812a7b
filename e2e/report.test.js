// End-to-end test of `daylit annual`'s report.html in headless Chromium: the page opens from
// file:// with every network request refused (it must work offline), its sections are there,
// and every picture loaded and is not blank. scripts/e2e-report.sh runs `daylit annual` and
// passes the page in DAYLIT_REPORT and the folder for the screenshot in DAYLIT_SCREENSHOT_DIR.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { launchBrowser } = require('./browser');

const report = process.env.DAYLIT_REPORT;
const shots = process.env.DAYLIT_SCREENSHOT_DIR;

test('report.html opens offline with its summary, maps and settings', { timeout: 120000 }, async () => {
  assert.ok(report, 'DAYLIT_REPORT must name the report.html to open');
  const { context, close } = await launchBrowser();
  try {
    // Offline: anything but the file itself and its data: pictures is refused and recorded.
    const outside = [];
    await context.route('**/*', (route) => {
      const u = route.request().url();
      if (u.startsWith('file:') || u.startsWith('data:')) return route.continue();
      outside.push(u);
      return route.abort();
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(pathToFileURL(path.resolve(report)).href, { waitUntil: 'load' });

    // The sections and what they must say.
    for (const id of ['summary', 'maps', 'temporal', 'inputs']) {
      assert.strictEqual(await page.locator(`section#${id}`).count(), 1, `section #${id}`);
    }
    const summary = await page.textContent('#summary');
    assert.match(summary, /sDA300\/50%/);
    assert.match(summary, /ASE1000,250/);
    assert.match(summary, /LEED v4/);
    assert.match(summary, /mean UDI 100–2000 lux/);
    assert.match(summary, /\d+\.\d %/);
    const inputs = await page.textContent('#inputs');
    for (const want of ['command line', 'daylit version', 'office.rad', '723170TYA.CSV', 'seed', '-ab']) {
      assert.ok(inputs.includes(want), `settings and inputs name ${want}`);
    }

    // Every picture: loaded, embedded, and not one flat colour.
    const images = await page.evaluate(() => Array.from(document.images).map((img) => {
      const c = document.createElement('canvas');
      c.width = 96;
      c.height = 96;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0, 96, 96);
      const d = g.getImageData(0, 0, 96, 96).data;
      const colours = new Set();
      let sum = 0;
      let sum2 = 0;
      for (let i = 0; i < d.length; i += 4) {
        colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
        const l = (d[i] + d[i + 1] + d[i + 2]) / 3;
        sum += l;
        sum2 += l * l;
      }
      const n = d.length / 4;
      return {
        file: img.dataset.file,
        complete: img.complete,
        width: img.naturalWidth,
        height: img.naturalHeight,
        embedded: img.src.startsWith('data:image/png;base64,'),
        colours: colours.size,
        spread: Math.sqrt(Math.max(0, sum2 / n - (sum / n) ** 2)),
      };
    }));
    const files = images.map((i) => i.file);
    for (const f of ['DA300.png', 'UDI.png', 'mean_lux.png', 'ASE_hours.png', 'temporal_lux.png', 'temporal_sun.png']) {
      assert.ok(files.includes(f), `picture ${f} in the report (${files})`);
    }
    for (const i of images) {
      assert.ok(i.complete && i.width > 0 && i.height > 0, `${i.file} loaded: ${JSON.stringify(i)}`);
      assert.ok(i.embedded, `${i.file} is embedded`);
      assert.ok(i.colours > 20 && i.spread > 10, `${i.file} is not blank: ${JSON.stringify(i)}`);
    }

    assert.deepStrictEqual(outside, [], 'no request left the page');
    assert.deepStrictEqual(errors, [], 'no script errors');
    if (shots) {
      await page.screenshot({ path: path.join(shots, 'report.png'), fullPage: true });
      await page.locator('#summary').screenshot({ path: path.join(shots, 'report-summary.png') });
    }
  } finally {
    await close();
  }
});
