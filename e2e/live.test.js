// End-to-end test of `daylit live` in headless Chromium: load the page, drag to look around,
// change the time, draw a task region, and check that the picture and the metrics respond.
// The server is started by scripts/e2e-live.sh, which passes its address in DAYLIT_URL.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { launchBrowser, pixels, differs } = require('./browser');

const url = process.env.DAYLIT_URL;
const screenshot = process.env.DAYLIT_SCREENSHOT;

test('daylit live responds to the page', { timeout: 240000 }, async () => {
  assert.ok(url, 'DAYLIT_URL must name the running server');
  const { context, close } = await launchBrowser();
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);

    // Load: a picture and the metrics arrive.
    await page.waitForFunction(() => window.liveLog.length > 0, null, { timeout: 60000 });
    await page.waitForFunction(() => window.liveNav.state().frame >= 2 && !window.liveNav.state().reduced, null, { timeout: 90000 });
    const dgp0 = parseFloat(await page.textContent('#dgp-value'));
    assert.ok(dgp0 > 0 && dgp0 < 1, `DGP on the page: ${dgp0}`);
    assert.match(await page.textContent('#ev-value'), /^\d+$/);
    const api = await (await page.request.get(new URL('/api/state', url).href)).json();
    for (const k of ['frame', 'elapsed_ms', 'ev', 'dgp', 'ugp']) assert.strictEqual(typeof api[k], 'number', k);

    // Every glare value carries its class, the one its value and limits give.
    const classOf = (v, limits) => ['imperceptible', 'perceptible', 'disturbing', 'intolerable'][limits.filter((l) => v >= l).length];
    assert.strictEqual(api.classes.dgp, classOf(api.dgp, [0.35, 0.4, 0.45]));
    assert.strictEqual(api.classes.ugr, classOf(api.metrics.ugr, [13, 22, 28]));
    for (const k of ['dgp', 'ev', 'ugp', 'ugr', 'dgps']) {
      assert.match(await page.textContent(`#${k}-class`), /^(imperceptible|perceptible|disturbing|intolerable)$/, k);
    }

    // The glare dial says what it rests on; the office has no sky of its own to offer.
    assert.strictEqual(typeof api.uncertainty.frames, 'number');
    assert.match(await page.textContent('#convergence'), /frame/);
    assert.match(await page.textContent('#dial-class'), /frame/);
    assert.strictEqual(api.scene_sky, null);
    assert.ok(await page.locator('#sky option[value=scene]').isDisabled(), 'no scene sky to choose');

    // Drag to look around: the view turns, the accumulation restarts and the picture changes.
    const before = await pixels(page);
    const gen0 = await page.evaluate(() => window.liveNav.state().generation);
    const box = await page.locator('#stage').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width / 2 + 12 * i, box.y + box.height / 2 + 3 * i);
    await page.mouse.up();
    await page.waitForFunction((g) => window.liveNav.state().generation > g && !window.liveNav.state().reduced, gen0, { timeout: 60000 });
    const after = await pixels(page);
    assert.ok(differs(before, after) > 0.05, `picture changed after the drag (${differs(before, after)})`);
    const turned = await page.evaluate(() => window.liveNav.state().view_parts.vd);
    assert.notDeepStrictEqual(turned, api.view_parts.vd, 'view direction changed');

    // Change the time: the sky is rebuilt and the metrics change.
    await page.waitForFunction(() => window.liveNav.state().frame >= 2, null, { timeout: 60000 });
    const ev0 = await page.evaluate(() => window.liveNav.state().ev);
    await page.evaluate(() => {
      const h = document.getElementById('hour');
      h.value = '16.5';
      h.dispatchEvent(new Event('input'));
      h.dispatchEvent(new Event('change'));
    });
    await page.waitForFunction(() => /16:30/.test(document.getElementById('sky-note').textContent), null, { timeout: 60000 });
    await page.waitForFunction(() => window.liveNav.state().frame >= 2, null, { timeout: 60000 });
    const ev1 = await page.evaluate(() => window.liveNav.state().ev);
    assert.ok(Math.abs(ev1 - ev0) > 0.05 * ev0, `Ev changed with the time: ${ev0} -> ${ev1}`);
    assert.strictEqual(await page.textContent('#hour-text'), '16:30');

    // Draw a task region: the task luminance appears; another region gives another value.
    assert.strictEqual(await page.textContent('#tal-value'), '–');
    await page.check('input[name=tool][value=task]');
    const rect = async (x0, y0, x1, y1) => {
      await page.mouse.move(box.x + x0 * box.width, box.y + y0 * box.height);
      await page.mouse.down();
      await page.mouse.move(box.x + ((x0 + x1) / 2) * box.width, box.y + ((y0 + y1) / 2) * box.height);
      await page.mouse.move(box.x + x1 * box.width, box.y + y1 * box.height);
      await page.mouse.up();
    };
    await rect(0.1, 0.7, 0.3, 0.9);
    await page.waitForFunction(() => window.liveNav.state().metrics.task_luminance !== null, null, { timeout: 30000 });
    const tal1 = await page.evaluate(() => window.liveNav.state().metrics.task_luminance);
    assert.ok(tal1 > 0, `task luminance ${tal1}`);
    await rect(0.45, 0.2, 0.55, 0.3);
    await page.waitForFunction((t) => {
      const v = window.liveNav.state().metrics.task_luminance;
      return v !== null && Math.abs(v - t) > 0.01 * t;
    }, tal1, { timeout: 30000 });
    assert.match(await page.textContent('#tal-value'), /^\d/);

    // Saving: the links return an RGBE picture and a PNG.
    const hdr = await page.request.get(new URL('/api/save.hdr', url).href);
    assert.strictEqual(hdr.status(), 200);
    assert.ok((await hdr.body()).toString('latin1').startsWith('#?RADIANCE'));
    const png = await page.request.get(new URL('/api/save.png', url).href);
    assert.strictEqual((await png.body()).subarray(1, 4).toString(), 'PNG');

    // The denoiser is on by default and changes only the picture shown: switched off, the
    // shown picture gets grainier while Ev stays what the frames give.
    assert.strictEqual(await page.isChecked('#denoise'), true);
    await page.waitForFunction(() => window.liveNav.state().frame >= 4, null, { timeout: 60000 });
    const smooth = await pixels(page);
    await page.uncheck('#denoise');
    await page.waitForFunction(() => window.liveNav.state().display.denoise === false, null, { timeout: 30000 });
    await page.waitForFunction(() => window.liveNav.state().frame >= 4, null, { timeout: 60000 });
    const grainy = await pixels(page);
    assert.ok(differs(smooth, grainy) > 0.01, `the denoiser changes the shown picture (${differs(smooth, grainy)})`);
    await page.check('#denoise');

    if (screenshot) {
      await page.check('input[name=tool][value=look]');
      await page.waitForFunction(() => window.liveNav.state().frame >= 8, null, { timeout: 120000 });
      await page.screenshot({ path: screenshot, fullPage: true });
    }
    assert.deepStrictEqual(errors, [], 'no page errors');
  } finally {
    await close();
  }
});
