// Benchmark of `daylit live` in headless Chromium (run by bench/live.sh; not a test).
// Starts the server itself once the browser is up, so that the first frame is timed from the
// page's request on a cold session. Prints one JSON object.
//   node bench-live.js OUTDIR daylit live ARGS...
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { launchBrowser } = require('./browser');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const [outDir, bin, ...args] = process.argv.slice(2);
  const { context, close } = await launchBrowser();
  const page = await context.newPage();
  await page.goto('about:blank');
  const server = spawn(bin, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const result = {};
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/http:\/\/[0-9.:]+\//);
        if (m) resolve(m[0]);
      });
      server.on('exit', (c) => reject(new Error(`daylit live exited with ${c}`)));
    });
    const t0 = Date.now();
    await page.goto(url);
    // 1. First frame on screen, from the page's request (navigation start).
    await page.waitForFunction(() => window.liveLog.length > 0, null, { timeout: 60000 });
    const log0 = await page.evaluate(() => window.liveLog[0]);
    result.first_frame_ms = log0.t;
    result.first_frame = log0;
    // 2. DGP after 10 s of accumulation, from the request.
    const wait = 10000 - (Date.now() - t0);
    if (wait > 0) await sleep(wait);
    const s10 = await page.evaluate(() => window.liveNav.state());
    result.at_10s = { frame: s10.frame, elapsed_ms: s10.elapsed_ms, dgp: s10.dgp, ev: s10.ev, ugp: s10.ugp, dgps: s10.dgps, width: s10.width };
    result.history = s10.history.map((h) => [h.frame, Math.round(h.elapsed_ms), +h.dgp.toFixed(4), Math.round(h.ev)]);
    const hdr = await page.request.get(new URL('/api/save.hdr', url).href);
    fs.writeFileSync(path.join(outDir, 'live-10s.hdr'), await hdr.body());
    await page.screenshot({ path: path.join(outDir, 'live-10s-page.png'), fullPage: true });
    // A long accumulation of the same view, an unbiased cross-check of the reference.
    const longMs = 1000 * parseFloat(process.env.LIVE_LONG_S || '120');
    const waitLong = longMs - (Date.now() - t0);
    if (waitLong > 0) await sleep(waitLong);
    const sl = await page.evaluate(() => window.liveNav.state());
    result.long = { frame: sl.frame, elapsed_ms: sl.elapsed_ms, dgp: sl.dgp, ev: sl.ev };
    const hdrLong = await page.request.get(new URL('/api/save.hdr', url).href);
    fs.writeFileSync(path.join(outDir, 'live-long.hdr'), await hdrLong.body());
    // 3. First updated frame after a view change: a drag step, timed from the step to the new
    //    generation's frame on screen, while a full-resolution frame is being traced.
    const lat = [];
    for (let i = 0; i < 10; i++) {
      await sleep(1500);
      const r = await page.evaluate(async (dx) => {
        const g0 = window.liveNav.state().generation;
        const t = performance.now();
        window.liveNav.turn(dx, 0, true);
        for (;;) {
          const e = window.liveLog.find((x) => x.generation > g0 && x.t >= t);
          if (e) return { ms: e.t - t, reduced: e.reduced };
          await new Promise((res) => setTimeout(res, 2));
        }
      }, i % 2 ? -40 : 40);
      lat.push(r.ms);
    }
    lat.sort((a, b) => a - b);
    result.view_change_ms = { median: lat[Math.floor(lat.length / 2)], max: lat[lat.length - 1], all: lat.map((x) => Math.round(x)) };
    // Back to rest: the first full-resolution frame after the drag ends.
    const rest = await page.evaluate(async () => {
      const g0 = window.liveNav.state().generation;
      const t = performance.now();
      window.liveNav.turn(0, 1, false);
      for (;;) {
        const e = window.liveLog.find((x) => x.generation > g0 && !x.reduced && x.t >= t);
        if (e) return e.t - t;
        await new Promise((res) => setTimeout(res, 2));
      }
    });
    result.full_resolution_after_rest_ms = rest;
  } finally {
    server.kill();
    await close();
  }
  console.log(JSON.stringify(result, null, 1));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
