// End-to-end test of the page `kedb serve` serves at /: a headless Chromium
// pastes a failed job's log, reads the answer, switches to Chinese, opens the
// record page and its graph, and searches, as a person triaging a job would.
//
// usage: node tests/js/web_triage.mjs <path-to-kedb-binary> <kb-path>
// exit:  0 passed, 1 failed, 2 bad usage, 77 skipped (no Chromium or no playwright-core)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const CHROMIUM = '/usr/bin/chromium';
const ID = 'cuda/cudnn-bn-epsilon-nan';
const DECISIVE = 'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0';
const WAIT = 15000; // ms for any one thing to appear on the page
const TOKEN = 'web-triage-token-0123456789';

// A small log: noise, a Python traceback ending in the cuDNN error, then the
// launcher's own error line, which is a consequence and must not be the root.
const LOG_LINES = [
  '2026-03-14 09:12:01,114 INFO  launcher: python 3.11.7, torch 2.2.1+cu121, CUDA 12.1, cuDNN 8.9.2',
  '2026-03-14 09:12:01,115 INFO  launcher: 1 x NVIDIA A10G (24 GiB), driver 535.104.05',
  '2026-03-14 09:12:04,002 INFO  model: resnet50 with custom head, 25.6M parameters',
  '2026-03-14 09:12:04,666 INFO  train: epoch 0 step 1/3000 loss=6.8603 lr=0.1000',
  '2026-03-14 09:12:04,596 INFO  train: epoch 0 step 2/3000 loss=6.8498 lr=0.1000',
  'Traceback (most recent call last):',
  '  File "/srv/train/main.py", line 211, in <module>',
  '    main(cfg)',
  '  File "/srv/train/main.py", line 187, in main',
  '    loss = criterion(model(images), labels)',
  '  File "/usr/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py", line 171, in forward',
  '    return F.batch_norm(',
  DECISIVE,
  '2026-03-14 09:41:07,551 ERROR launcher: worker 0 exited with code 1 <b id="xss-probe">',
];
const DECISIVE_LINE = LOG_LINES.indexOf(DECISIVE) + 1;

function skip(why) {
  console.log(`web_triage: skipped: ${why}`);
  process.exit(77);
}

const [binArg, kbArg] = process.argv.slice(2);
if (!binArg || !kbArg) {
  console.error('usage: node tests/js/web_triage.mjs <path-to-kedb-binary> <kb-path>');
  process.exit(2);
}
if (!fs.existsSync(CHROMIUM)) skip(`${CHROMIUM} is not installed (apt-get install chromium)`);
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  skip('playwright-core is not installed in tests/js/node_modules (run npm ci in tests/js)');
}
const bin = path.resolve(binArg);
const kb = path.resolve(kbArg);
for (const [what, p] of [['kedb binary', bin], ['knowledge base', kb]]) {
  if (!fs.existsSync(p)) { console.error(`web_triage: FAIL: ${what} ${p} does not exist`); process.exit(1); }
}

class Failure extends Error {}
const fail = (msg) => { throw new Failure(msg); };
function expect(cond, msg) { if (!cond) fail(msg); }

// ---------------------------------------------------------------------------
// The server: `kedb serve --port 0` prints "listening on http://127.0.0.1:PORT".
let server = null;
let serverErr = '';
function startServer() {
  return new Promise((resolve, reject) => {
    // A store of its own, with hits counted and reports taken: the record
    // page shows both.
    const store = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kedb-web-store-')), 'outcomes.sqlite');
    server = spawn(bin, ['serve', '--kb', kb, '--port', '0', '--store', store, '--record-hits'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KEDB_TOKEN: TOKEN } });
    server.stderr.on('data', (d) => { serverErr = (serverErr + d).slice(-4000); });
    const timer = setTimeout(() => reject(new Failure('kedb serve printed no "listening on http://..." line within 30 s')), 30000);
    readline.createInterface({ input: server.stdout }).on('line', (line) => {
      const m = /listening on (http:\/\/[^\s]+)/.exec(line);
      if (m) { clearTimeout(timer); resolve(m[1].replace(/\/$/, '')); }
    });
    server.on('error', (e) => { clearTimeout(timer); reject(new Failure(`cannot start ${bin}: ${e.message}`)); });
    server.on('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Failure(`kedb serve exited (${code ?? sig}) before it was ready: ${serverErr.trim()}`));
    });
  });
}

function stopServer() {
  if (!server || server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => { server.kill('SIGKILL'); resolve(); }, 3000);
    server.once('exit', () => { clearTimeout(hard); resolve(); });
    server.kill('SIGTERM');
  });
}

// ---------------------------------------------------------------------------
const passed = [];
let browser = null;
let page = null;
let step = 'start';

async function check(name, fn) {
  step = name;
  await fn();
  passed.push(name);
}

// Waits for a selector, failing with the test's own words rather than Playwright's.
async function need(selector, what, root = page) {
  const loc = root.locator(selector).first();
  try { await loc.waitFor({ state: 'attached', timeout: WAIT }); } catch { fail(`${what} (no ${selector} within ${WAIT / 1000} s)`); }
  return loc;
}

async function until(fn, arg, what) {
  try { await page.waitForFunction(fn, arg, { timeout: WAIT }); } catch { fail(what); }
}

async function main() {
  const base = await startServer();
  const origin = new URL(base).origin;
  const record = await (await fetch(`${base}/v1/errors/${ID}`)).json();
  expect(record && record.id === ID, `GET /v1/errors/${ID} did not return the record: ${JSON.stringify(record).slice(0, 200)}`);
  expect(record.root_cause_zh, `the record ${ID} has no root_cause_zh to check the Chinese view with`);

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const consoleErrors = [];
  const foreign = [];
  context.on('request', (req) => {
    const u = new URL(req.url());
    if (!['data:', 'blob:', 'about:'].includes(u.protocol) && u.origin !== origin) foreign.push(req.url());
  });
  page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));

  await check('page loads', async () => {
    const res = await page.goto(base + '/');
    expect(res && res.ok(), `GET / answered ${res && res.status()}`);
    await need('[data-testid="log-input"]', 'the paste box is not on the page');
    await need('[data-testid="analyze"]', 'the Analyze button is not on the page');
    expect((await page.locator('[data-testid="analyze"]').innerText()).trim() === 'Analyze',
      'the Analyze button is not labelled "Analyze" in English');
  });

  const root = page.locator('[data-testid="block"][data-root="true"]').first();
  const card = root.locator(`[data-testid="record-card"][data-id="${ID}"]`).first();

  await check('triage finds the root error', async () => {
    await page.locator('[data-testid="log-input"]').fill(LOG_LINES.join('\n'));
    await page.locator('[data-testid="analyze"]').click();
    await need(`[data-testid="block"][data-root="true"] [data-testid="record-card"][data-id="${ID}"]`,
      `no record card ${ID} in the root block after Analyze`);
    const first = page.locator('[data-testid="block"]').first();
    expect(await first.getAttribute('data-root') === 'true', 'the first block shown is not the root block');
    expect(await root.locator('[data-testid="root-badge"]').count() === 1, 'the root block has no "root" badge');
    const mark = root.locator('[data-testid="decisive"] mark');
    expect(await mark.count() === 1, 'the decisive line is not highlighted with <mark>');
    expect((await mark.innerText()).includes(DECISIVE), `the highlighted line is not the cuDNN error: ${await mark.innerText()}`);
    const bg = await mark.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent', 'the decisive line has no highlight colour');
    const ln = (await root.locator('[data-testid="decisive"] .ln').innerText()).trim();
    expect(ln === String(DECISIVE_LINE), `the decisive line is numbered ${ln}, expected ${DECISIVE_LINE}`);
    const works = card.locator('[data-testid="workaround"]');
    const dead = card.locator('[data-testid="dead-end"]');
    expect(await works.count() >= 1, 'the card shows no workaround');
    expect(await dead.count() >= 1, 'the card shows no dead end');
    expect(/\d+%/.test(await works.first().innerText()), 'the workaround shows no success rate as a percentage');
    expect(/\d+%/.test(await dead.first().innerText()), 'the dead end shows no fail rate as a percentage');
    // Why a dead end fails, not only that it does: the reason of the one
    // most likely to fail, which the card lists first.
    const topDead = record.dead_ends.slice().sort((a, b) => b.fail_rate - a.fail_rate)[0];
    expect((await dead.first().innerText()).includes(topDead.why_fails.trim()),
      `the first dead end does not say why it fails (${topDead.why_fails})`);
    const cause = (await card.locator('[data-testid="root-cause"]').innerText()).trim();
    expect(cause === record.root_cause.trim(), `the card's root cause is not the record's English text: ${cause}`);
    expect(await page.locator('#xss-probe').count() === 0, 'markup from the log was rendered as HTML');
    expect((await page.locator('[data-testid="summary"]').innerText()).length > 0, 'no summary is shown');
  });

  await check('中文 switch', async () => {
    await page.locator('[data-testid="lang-switch"] [data-lang="zh"]').click();
    await until(() => document.querySelector('[data-testid="analyze"]')?.textContent.trim() === '分析', null,
      'the Analyze button is not relabelled "分析" after switching to 中文');
    const sel = `[data-testid="block"][data-root="true"] [data-testid="record-card"][data-id="${ID}"] [data-testid="root-cause"]`;
    await until(({ sel, text }) => document.querySelector(sel)?.textContent.trim() === text,
      { sel, text: record.root_cause_zh.trim() },
      `the card's root cause did not change to the record's root_cause_zh; it shows: ${
        await page.locator(sel).first().innerText().catch(() => '(nothing)')}`);
    expect(await page.evaluate(() => localStorage.getItem('kedb.lang')) === 'zh', 'the language is not kept in localStorage');
  });

  await check('record page and graph', async () => {
    await card.locator('[data-testid="record-link"]').click();
    const rec = await need(`[data-testid="record"][data-id="${ID}"]`, `clicking the card's id did not open the record page of ${ID}`);
    const hash = await page.evaluate(() => location.hash);
    expect(hash === `#/errors/${ID}`, `the record page's address is ${hash}, expected #/errors/${ID}`);
    const sig = (await rec.locator('[data-testid="signature"]').innerText()).trim();
    expect(sig === record.signature, `the record page shows the signature "${sig}"`);
    expect((await rec.locator('[data-testid="root-cause"]').innerText()).trim() === record.root_cause_zh.trim(),
      'the record page does not show root_cause_zh in 中文');
    await need('[data-testid="graph"] svg [data-testid="graph-edge"]',
      'the record page draws no graph edge (GET /v1/errors/<id>/chain returned none?)');
    expect(await page.locator('[data-testid="graph"] svg [data-testid="graph-node"]').count() >= 2, 'the graph has fewer than two nodes');
    // The triage above scanned the log (and again in 中文): the record was
    // seen today, and today's bar is the last of thirty.
    await need('[data-testid="hits-counts"]', 'the record page shows no match counts');
    const bars = await page.locator('[data-testid="hit-bar"]').evaluateAll((els) => els.map((e) => Number(e.dataset.count)));
    expect(bars.length === 30 && bars[29] === 2 && bars.slice(0, 29).every((n) => n === 0),
      `the bars of the last 30 days are ${JSON.stringify(bars)}; expected two matches today`);
    // "Did this fix work?": the page asks for the token once, then reports.
    page.once('dialog', (d) => d.accept(TOKEN));
    const first = rec.locator('[data-testid="workaround"]').first();
    await first.locator('[data-testid="feedback"] button[data-outcome="worked"]').click();
    await until(() => /已记录|Recorded/.test(document.querySelector('[data-testid="feedback-status"]')?.textContent || ''), null,
      'reporting that a fix worked did not say it was recorded');
    expect(await page.evaluate((k) => localStorage.getItem(k), 'kedb.writeToken') === TOKEN, 'the token is not kept');
    // The language survives a reload, and the report shows beside the fix.
    await page.reload();
    await need('[data-testid="workaround"] [data-testid="reported"]', 'after a reload the report is not shown beside the fix');
    await need(`[data-testid="record"][data-id="${ID}"]`, 'the record page did not come back after a reload');
    expect((await page.locator('[data-nav="triage"]').innerText()).trim() === '排查', 'after a reload the page is no longer in 中文');
    await page.locator('[data-testid="lang-switch"] [data-lang="en"]').click();
    await until(() => document.querySelector('[data-nav="triage"]')?.textContent.trim() === 'Triage', null,
      'switching back to English did not relabel the page');
  });

  await check('search', async () => {
    await page.locator('[data-testid="search-input"]').fill('batch norm epsilon');
    await page.locator('[data-testid="search-input"]').press('Enter');
    await need(`[data-testid="search-hit"][data-id="${ID}"]`, `searching "batch norm epsilon" does not list ${ID}`);
    const hash = await page.evaluate(() => location.hash);
    expect(hash.startsWith('#/search?q='), `the search page's address is ${hash}`);
  });

  await check('domains', async () => {
    await page.goto(base + '/#/domains');
    await (await need('[data-testid="domain-item"][data-domain="cuda"] a', 'the domains page does not list cuda')).click();
    await need(`[data-testid="domain-error"][data-id="${ID}"]`, `the cuda domain page does not list ${ID}`);
  });

  step = 'console and network';
  expect(consoleErrors.length === 0, `the page logged console errors: ${consoleErrors.join(' | ')}`);
  expect(foreign.length === 0, `the page made requests to other origins: ${foreign.join(', ')}`);
  passed.push('no console errors, no other origin');

  // Last, as the browser logs the 404 itself as a console error.
  await check('API errors shown', async () => {
    await page.goto(base + '/#/errors/no/such-record');
    const box = await need('[data-testid="error"]:visible', 'an unknown record id shows no error box');
    const text = await box.innerText();
    expect(/404|not_found/.test(text), `the error box does not say what failed: ${text}`);
  });
  return base;
}

// A watchdog, so that a hung server or browser cannot hang CTest.
const watchdog = setTimeout(() => {
  console.log(`web_triage: FAIL at "${step}": the test did not finish within 180 s`);
  server?.kill('SIGKILL');
  process.exit(1);
}, 180000);

let code = 0;
try {
  const base = await main();
  console.log(`web_triage: PASS (${base}): ${passed.join('; ')}`);
} catch (e) {
  code = 1;
  const why = e instanceof Failure ? e.message : (e && e.stack) || String(e);
  console.log(`web_triage: FAIL at "${step}": ${why}`);
  if (passed.length) console.log(`web_triage: passed before that: ${passed.join('; ')}`);
  if (serverErr.trim()) console.log(`web_triage: kedb serve stderr:\n${serverErr.trim()}`);
  if (page) {
    const shot = path.join(os.tmpdir(), 'kedb-web-triage-failure.png');
    if (await page.screenshot({ path: shot, fullPage: true }).then(() => true, () => false)) console.log(`web_triage: screenshot: ${shot}`);
  }
} finally {
  await browser?.close().catch(() => {});
  await stopServer();
  clearTimeout(watchdog);
}
process.exit(code);
