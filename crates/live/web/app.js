// daylit live: the page. Frames arrive as server-sent events (state JSON with a PNG data URL);
// the view, sky, display and regions go back as JSON posts.
'use strict';

const $ = (id) => document.getElementById(id);
const img = $('frame');
const overlay = $('overlay');
const stage = $('stage');

let state = null; // the latest frame's state
let view = null; // the view as the page edits it
let regions = { task: null, contrast: null };
let pendingContrast = null; // first region of a contrast pair being drawn
let drawing = null; // region being drawn
let drag = null; // look/move drag in progress
let viewPost = { inFlight: false, next: null };
// When each frame reached the screen (performance.now(), ms since navigation), for tests and
// the benchmark.
window.liveLog = [];
img.addEventListener('load', () => {
  if (!state) return;
  window.liveLog.push({ t: performance.now(), seq: state.seq, generation: state.generation, frame: state.frame, reduced: state.reduced });
  if (window.liveLog.length > 1000) window.liveLog.shift();
});

// ---- vectors ----
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const add = (a, b, s = 1) => [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]];
const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return scale(a, 1 / l); };

// Turns the view by `yaw` about its up vector and raises it by `pitch` (radians).
function turn(v, yaw, pitch) {
  const up = norm(v.vu);
  const d = norm(v.vd);
  let elev = Math.asin(Math.max(-1, Math.min(1, dot(d, up))));
  let h = add(d, up, -dot(d, up));
  if (Math.hypot(...h) < 1e-9) h = norm(cross(up, [1, 0, 0]));
  h = norm(h);
  const side = cross(up, h);
  const hy = add(scale(h, Math.cos(yaw)), side, Math.sin(yaw));
  const lim = (85 * Math.PI) / 180;
  elev = Math.max(-lim, Math.min(lim, elev + pitch));
  return { ...v, vd: add(scale(norm(hy), Math.cos(elev)), up, Math.sin(elev)) };
}

// Moves the view `fwd` metres along its horizontal direction and `right` metres sideways.
function move(v, fwd, right) {
  const up = norm(v.vu);
  let h = add(v.vd, up, -dot(v.vd, up));
  if (Math.hypot(...h) < 1e-9) return v;
  h = norm(h);
  const r = cross(h, up);
  return { ...v, vp: add(add(v.vp, h, fwd), r, right) };
}

// ---- server ----
async function post(path, body) {
  const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!r.ok) showError(await r.text());
  else showError('');
  return r.ok;
}

function showError(msg) { $('error').textContent = msg || (state && state.error) || ''; }

// Sends the view; while a post is under way only the newest view waits.
function sendView(moving) {
  const body = { ...view, moving };
  if (viewPost.inFlight) { viewPost.next = body; return; }
  viewPost.inFlight = true;
  post('/api/view', body).finally(() => {
    viewPost.inFlight = false;
    const n = viewPost.next;
    viewPost.next = null;
    if (n) { viewPost.inFlight = true; post('/api/view', n).finally(() => { viewPost.inFlight = false; }); }
  });
}

// The sky in the scene files has no date or time of its own to change: moving the date or the
// time while it is shown switches to the generated sky most like it.
function timeChanged() {
  if ($('sky').value === 'scene' && state) {
    const like = (state.scene_sky && state.scene_sky.like) || (state.has_weather ? 'perez' : 'clear');
    $('sky').value = like;
  }
  sendSky();
}

function sendSky() {
  const h = parseFloat($('hour').value);
  post('/api/sky', {
    kind: $('sky').value,
    time: { month: parseInt($('month').value, 10), day: parseInt($('day').value, 10), hour: Math.floor(h), minute: Math.round((h % 1) * 60) },
  });
}

function sendDisplay() {
  post('/api/display', {
    mode: $('mode').value,
    scale: parseFloat($('scale').value),
    decades: parseFloat($('decades').value),
    palette: (state && state.display.palette) || 'def',
    exposure: parseFloat($('exposure').value),
    denoise: $('denoise').checked,
  });
}

function sendRegions() { post('/api/regions', regions); }

// ---- frames ----
function fmt(x, d) { return x === null || x === undefined || !isFinite(x) ? '–' : x.toFixed(d); }
const hourText = (h) => `${String(Math.floor(h)).padStart(2, '0')}:${String(Math.round((h % 1) * 60)).padStart(2, '0')}`;

function onFrame(s) {
  const firstFrame = state === null;
  state = s;
  img.src = s.image;
  img.dataset.seq = s.seq;
  $('status').textContent = `frame ${s.frame}${s.reduced ? ' (reduced resolution)' : ''} · ${s.width}×${s.height}`;
  $('dgp-value').textContent = fmt(s.dgp, 3);
  $('ev-value').textContent = fmt(s.ev, 0);
  $('ugp-value').textContent = fmt(s.ugp, 3);
  $('dgps-value').textContent = fmt(s.dgps, 3);
  $('ugr-value').textContent = fmt(s.metrics.ugr, 1);
  // Each value's glare class; UGP's is that of the UGR it equals (8/0.26 × UGP).
  for (const k of ['dgp', 'ev', 'ugp', 'dgps', 'ugr']) {
    const c = $(`${k}-class`);
    c.textContent = s.classes[k];
    c.className = `class ${s.classes[k]}`;
  }
  $('ugp-class').title = `as UGR ${fmt((s.ugp * 8) / 0.26, 1)}`;
  $('tal-value').textContent = fmt(s.metrics.task_luminance, 1);
  $('cr-value').textContent = s.metrics.contrast_ratio ? `${fmt(s.metrics.contrast_ratio, 2)} : 1` : '–';
  $('frame-no').textContent = s.frame;
  $('convergence').textContent = convergenceText(s);
  $('elapsed').textContent = fmt(s.elapsed_ms / 1000, 1);
  const v3 = (a) => a.map((x) => +x.toFixed(3)).join(' ');
  const vp = s.view_parts;
  $('view-text').textContent = `-vt${vp.typ} -vp ${v3(vp.vp)} -vd ${v3(vp.vd)} -vu ${v3(vp.vu)} -vh ${vp.vh} -vv ${vp.vv}`;
  $('sky-note').textContent = s.sky_note;
  const sceneOption = $('sky').querySelector('option[value=scene]');
  sceneOption.disabled = !s.scene_sky;
  sceneOption.textContent = s.scene_sky ? `from scene files: ${s.scene_sky.label}` : 'from scene files (they have no sky)';
  showError('');
  if (firstFrame) {
    view = { ...s.view_parts };
    regions = s.regions;
    $('view-type').value = view.typ;
    $('month').value = s.sky.time.month;
    $('day').value = s.sky.time.day;
    $('hour').value = s.sky.time.hour + s.sky.time.minute / 60;
    $('hour-text').textContent = hourText(parseFloat($('hour').value));
    $('sky').value = s.sky.kind;
    $('sky').querySelector('option[value=perez]').disabled = !s.has_weather;
    $('mode').value = s.display.mode;
    $('scale').value = s.display.scale;
    $('decades').value = s.display.decades;
    $('exposure').value = s.display.exposure;
    $('denoise').checked = s.display.denoise;
  }
  drawDial(s);
  drawLegend(s.legend);
  drawHistory(s.history);
  drawRegions();
}

function arc(v0, v1) {
  const p = (v) => { const a = Math.PI * (1 - v); return `${100 + 80 * Math.cos(a)} ${100 - 80 * Math.sin(a)}`; };
  return `M ${p(v0)} A 80 80 0 0 1 ${p(v1)}`;
}

// How far the glare values may still move, and the frames they rest on.
function convergenceText(s) {
  const u = s.uncertainty;
  if (s.frame === 0) return 'frame 0: direct light only, converging…';
  if (u.dgp === null || u.dgp === undefined) return `converging: ${u.frames} frame${u.frames === 1 ? '' : 's'}`;
  return `± DGP ${fmt(u.dgp, 3)}, UGP ${fmt(u.ugp, 3)}, Ev ${fmt(u.ev, 0)} lx (standard errors, ${u.frames} frames)`;
}

// The dial: the DGP classes, the needle, and a grey band of two standard errors either side
// while the value still moves (the whole scale until there is an estimate).
function drawDial(s) {
  const dgp = s.dgp;
  $('dial-green').setAttribute('d', arc(0, 0.35));
  $('dial-yellow').setAttribute('d', arc(0.35, 0.45));
  $('dial-red').setAttribute('d', arc(0.45, 1));
  const clamp = (x) => Math.max(0, Math.min(1, x));
  const v = clamp(dgp || 0);
  const a = Math.PI * (1 - v);
  $('needle').setAttribute('x2', 100 + 70 * Math.cos(a));
  $('needle').setAttribute('y2', 100 - 70 * Math.sin(a));
  const se = s.uncertainty.dgp;
  const known = s.frame > 0 && se !== null && se !== undefined;
  const band = known ? [clamp(v - 2 * se), clamp(v + 2 * se)] : [0, 1];
  $('dial-band').setAttribute('d', band[1] - band[0] > 0.002 ? arc(band[0], band[1]) : '');
  const label = dgp < 0.35 ? 'imperceptible' : dgp < 0.4 ? 'perceptible' : dgp < 0.45 ? 'disturbing' : 'intolerable';
  $('dial-text').textContent = known ? `DGP ${fmt(dgp, 2)} ± ${fmt(2 * se, 2)}` : `DGP ${fmt(dgp, 2)}`;
  $('dial-class').textContent = known ? `${label} · ${s.uncertainty.frames} frames` : `converging (frame ${s.frame})`;
}

function drawLegend(l) {
  const bar = $('legend-bar');
  const labels = $('legend-labels');
  labels.innerHTML = '';
  if (!l.colours.length) { bar.style.background = 'none'; $('legend-unit').textContent = ''; return; }
  bar.style.background = `linear-gradient(to top, ${l.colours.join(',')})`;
  for (const [pos, text] of l.labels) {
    const s = document.createElement('span');
    s.style.bottom = `${pos * 100}%`;
    s.textContent = text;
    labels.appendChild(s);
  }
  $('legend-unit').textContent = l.unit;
}

function drawHistory(h) {
  const c = $('history');
  const g = c.getContext('2d');
  g.clearRect(0, 0, c.width, c.height);
  const pad = 24;
  const w = c.width - 2 * pad;
  const ht = c.height - 2 * pad;
  g.strokeStyle = '#999';
  g.strokeRect(pad, pad, w, ht);
  g.fillStyle = '#222';
  g.font = '11px sans-serif';
  g.fillText('DGP (red, 0–1) and Ev (blue, 0–max) per frame', pad, 14);
  if (!h.length) return;
  const n = Math.max(1, h[h.length - 1].frame);
  const evMax = Math.max(...h.map((p) => p.ev), 1);
  const x = (f) => pad + (w * f) / n;
  const line = (val, colour) => {
    g.strokeStyle = colour;
    g.beginPath();
    h.forEach((p, i) => { const y = pad + ht * (1 - val(p)); if (i) g.lineTo(x(p.frame), y); else g.moveTo(x(p.frame), y); });
    g.stroke();
  };
  line((p) => Math.max(0, Math.min(1, p.dgp)), '#c22');
  line((p) => p.ev / evMax, '#23c');
  g.fillText(`frame ${n}`, c.width - pad - 50, c.height - 6);
  g.fillText(`Ev max ${evMax.toFixed(0)} lx`, pad, c.height - 6);
}

function drawRegions() {
  const r = stage.getBoundingClientRect();
  overlay.width = r.width;
  overlay.height = r.height;
  const g = overlay.getContext('2d');
  g.clearRect(0, 0, r.width, r.height);
  const box = (q, colour, label) => {
    if (!q) return;
    g.strokeStyle = colour;
    g.lineWidth = 2;
    const [x0, y0] = [Math.min(q.x0, q.x1) * r.width, Math.min(q.y0, q.y1) * r.height];
    const [w, h] = [Math.abs(q.x1 - q.x0) * r.width, Math.abs(q.y1 - q.y0) * r.height];
    g.strokeRect(x0, y0, w, h);
    g.fillStyle = colour;
    g.font = 'bold 12px sans-serif';
    g.fillText(label, x0 + 3, y0 + 13);
  };
  box(regions.task, '#fff', 'task');
  if (regions.contrast) { box(regions.contrast[0], '#0ff', 'A'); box(regions.contrast[1], '#0ff', 'B'); }
  if (pendingContrast) box(pendingContrast, '#0ff', 'A');
  if (drawing) box(drawing, '#ff0', '');
}

// ---- mouse and keys ----
const tool = () => document.querySelector('input[name=tool]:checked').value;
const frac = (e) => {
  const r = stage.getBoundingClientRect();
  return [Math.max(0, Math.min(1, (e.clientX - r.left) / r.width)), Math.max(0, Math.min(1, (e.clientY - r.top) / r.height))];
};

stage.addEventListener('mousedown', (e) => {
  if (!view) return;
  e.preventDefault();
  const t = tool();
  if (t === 'task' || t === 'contrast') {
    const [x, y] = frac(e);
    drawing = { x0: x, y0: y, x1: x, y1: y };
  } else {
    drag = { x: e.clientX, y: e.clientY, tool: t };
    stage.style.cursor = 'grabbing';
  }
});

window.addEventListener('mousemove', (e) => {
  if (drawing) {
    const [x, y] = frac(e);
    drawing.x1 = x;
    drawing.y1 = y;
    drawRegions();
    return;
  }
  if (!drag) return;
  const dx = e.clientX - drag.x;
  const dy = e.clientY - drag.y;
  if (!dx && !dy) return;
  drag.x = e.clientX;
  drag.y = e.clientY;
  const w = stage.getBoundingClientRect().width;
  if (drag.tool === 'move') {
    view = move(view, -dy * 0.01, dx * 0.01);
  } else {
    const radPerPx = ((view.vh * Math.PI) / 180) / w;
    view = turn(view, dx * radPerPx, dy * radPerPx);
  }
  sendView(true);
});

function normalised(q) {
  return { x0: Math.min(q.x0, q.x1), y0: Math.min(q.y0, q.y1), x1: Math.max(q.x0, q.x1), y1: Math.max(q.y0, q.y1) };
}

window.addEventListener('mouseup', () => {
  if (drawing) {
    const q = normalised(drawing);
    drawing = null;
    if (tool() === 'task') {
      regions.task = q;
      sendRegions();
    } else if (!pendingContrast) {
      pendingContrast = q;
    } else {
      regions.contrast = [pendingContrast, q];
      pendingContrast = null;
      sendRegions();
    }
    drawRegions();
    return;
  }
  if (drag) {
    drag = null;
    stage.style.cursor = 'grab';
    sendView(false);
  }
});

stage.addEventListener('wheel', (e) => {
  if (!view) return;
  e.preventDefault();
  view = move(view, e.deltaY < 0 ? 0.2 : -0.2, 0);
  sendView(false);
}, { passive: false });

window.addEventListener('keydown', (e) => {
  if (!view || e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
  const step = e.shiftKey ? 0.5 : 0.1;
  const turnStep = (5 * Math.PI) / 180;
  const k = e.key.toLowerCase();
  if (k === 'w' || k === 'arrowup') view = move(view, step, 0);
  else if (k === 's' || k === 'arrowdown') view = move(view, -step, 0);
  else if (k === 'a') view = move(view, 0, -step);
  else if (k === 'd') view = move(view, 0, step);
  else if (k === 'arrowleft') view = turn(view, turnStep, 0);
  else if (k === 'arrowright') view = turn(view, -turnStep, 0);
  else return;
  e.preventDefault();
  sendView(false);
});

$('view-type').addEventListener('change', () => {
  const t = $('view-type').value;
  view = { ...view, typ: t, vh: t === 'v' ? 60 : 180, vv: t === 'v' ? 60 : 180 };
  sendView(false);
});
$('hour').addEventListener('input', () => { $('hour-text').textContent = hourText(parseFloat($('hour').value)); });
for (const id of ['month', 'day', 'hour']) $(id).addEventListener('change', timeChanged);
$('sky').addEventListener('change', sendSky);
for (const id of ['mode', 'scale', 'decades', 'exposure', 'denoise']) $(id).addEventListener('change', sendDisplay);
$('clear-regions').addEventListener('click', () => {
  regions = { task: null, contrast: null };
  pendingContrast = null;
  sendRegions();
  drawRegions();
});

// Navigation for scripts: what a drag by (dx, dy) pixels does.
window.liveNav = {
  turn(dx, dy, moving = true) {
    const w = stage.getBoundingClientRect().width;
    const radPerPx = ((view.vh * Math.PI) / 180) / w;
    view = turn(view, dx * radPerPx, dy * radPerPx);
    sendView(moving);
  },
  state: () => state,
};

// ---- stream ----
function connect() {
  const es = new EventSource('/events');
  es.addEventListener('frame', (e) => onFrame(JSON.parse(e.data)));
  es.onopen = () => { $('status').textContent = 'connected'; };
  es.onerror = () => { $('status').textContent = 'connection lost, retrying…'; };
}
connect();
