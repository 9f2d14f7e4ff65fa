// `kedb serve` under steady load while its knowledge base changes: SIGHUP
// swaps in the new one without a failed request, a broken one is refused
// while the old one keeps answering, and memory stays bounded over
// thousands of requests.
//
// usage: node tests/js/serve_reload.mjs <kedb-binary> <kb-path>
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { binaryAndKb, expect, run, startServer } from './lib.mjs';

const NAME = 'serve_reload';
const SEED0 = 'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0';
const { bin, kb } = binaryAndKb(NAME);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function rssKiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}
function threads(pid) {
  return Number(/Threads:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}

await run(NAME, async (setServer) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kedb-reload-'));
  const copy = path.join(dir, 'kb');
  fs.cpSync(kb, copy, { recursive: true, filter: (p) => !p.includes('.kedb-cache') });
  try {
    const server = await startServer(bin, copy);
    setServer(server);
    const url = (p) => new URL(p, server.url);
    const health = async () => (await fetch(url('/healthz'))).json();
    const before = await health();
    expect(before.generation === 1, `first generation is ${before.generation}`);
    // An engine thread per core, besides the main thread: fewer and
    // requests could not use every core.
    const cores = os.availableParallelism();
    expect(threads(server.proc.pid) > cores, `only ${threads(server.proc.pid)} threads for ${cores} cores: requests would not use every core`);

    // Eight clients ask the same question until told to stop; every answer
    // must be a 200 naming seed 000.
    let stop = false, answered = 0;
    const failures = [];
    const client = async () => {
      while (!stop) {
        try {
          const res = await fetch(url('/v1/match'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: SEED0, top: 1 }) });
          const body = await res.json();
          if (res.status !== 200 || body.matches?.[0]?.id !== 'cuda/cudnn-bn-epsilon-nan') failures.push(`${res.status} ${JSON.stringify(body).slice(0, 120)}`);
          answered++;
        } catch (e) {
          failures.push(String(e));
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);

    await sleep(300);
    const rssStart = rssKiB(server.proc.pid);
    // 1. A good change: one record less. SIGHUP swaps it in.
    fs.rmSync(path.join(copy, 'nccl', 'internal-error.json'));
    server.proc.kill('SIGHUP');
    let h = before;
    for (let i = 0; i < 100 && h.generation < 2; i++) { await sleep(50); h = await health(); }
    expect(h.generation === 2 && h.records === before.records - 1, `after a good reload: ${JSON.stringify(h)}`);

    // 2. A broken change: refused, the previous knowledge base keeps serving.
    fs.writeFileSync(path.join(copy, 'nccl', 'broken.json'), '{"id": "nccl/broken", "signature": ');
    server.proc.kill('SIGHUP');
    for (let i = 0; i < 100 && h.failed_reloads < 1; i++) { await sleep(50); h = await health(); }
    expect(h.failed_reloads === 1 && h.generation === 2 && h.records === before.records - 1, `after a broken reload: ${JSON.stringify(h)}`);
    expect(h.last_reload_error.includes('broken.json'), `the refusal does not name the file: ${h.last_reload_error}`);
    expect((await fetch(url('/v1/errors/nccl/internal-error'))).status === 404, 'the removed record is still served');

    await sleep(500);
    stop = true;
    await Promise.all(clients);
    expect(failures.length === 0, `${failures.length} of ${answered} requests failed during reloads, e.g. ${failures[0]}`);
    expect(answered > 100, `only ${answered} requests were answered`);

    // Memory: a few thousand more requests, with 1 MiB logs among them, must
    // not keep growing the process.
    const big = `${'noise line of an ordinary log\n'.repeat(35000)}${SEED0}\n`;
    for (let round = 0; round < 20; round++) {
      await Promise.all(Array.from({ length: 8 }, () => fetch(url('/v1/scan'), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: big }).then((r) => r.text())));
    }
    const rssEnd = rssKiB(server.proc.pid);
    expect(rssEnd - rssStart < 200 * 1024, `RSS grew from ${rssStart} KiB to ${rssEnd} KiB`);
    console.log(`${NAME}: ${answered} requests across two reloads, none failed; RSS ${rssStart} -> ${rssEnd} KiB after 160 1-MiB scans`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
