// What the end-to-end tests share: starting `kedb serve` on a free port,
// failing with a clear message, and skipping (exit 77) when a tool is absent.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

export class Failure extends Error {}
export function expect(cond, msg) {
  if (!cond) throw new Failure(msg);
}
export function skip(name, why) {
  console.log(`${name}: skipped: ${why}`);
  process.exit(77);
}

// argv: <kedb-binary> <kb-path>; both made absolute and checked.
export function binaryAndKb(name) {
  const [binArg, kbArg] = process.argv.slice(2);
  if (!binArg || !kbArg) {
    console.error(`usage: node ${name}.mjs <path-to-kedb-binary> <kb-path>`);
    process.exit(2);
  }
  const bin = path.resolve(binArg), kb = path.resolve(kbArg);
  for (const p of [bin, kb]) {
    if (!fs.existsSync(p)) {
      console.error(`${name}: FAIL: ${p} does not exist`);
      process.exit(1);
    }
  }
  return { bin, kb };
}

// Starts `kedb serve --port 0 ...extra` and resolves to {url, proc, stderr()}
// once it prints "listening on http://HOST:PORT". Its outcome store is a
// fresh file of its own (never the user's); `env` is added to the server's
// environment (KEDB_TOKEN turns reports on).
export function startServer(bin, kb, extra = [], env = {}) {
  return new Promise((resolve, reject) => {
    const store = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kedb-js-store-')), 'outcomes.sqlite');
    const args = ['serve', '--kb', kb, '--port', '0', '--store', store, ...extra];
    const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let err = '';
    proc.stderr.on('data', (d) => { err = (err + d).slice(-8000); });
    const timer = setTimeout(() => reject(new Failure(`kedb serve did not start within 60 s: ${err}`)), 60000);
    readline.createInterface({ input: proc.stdout }).on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], proc, stderr: () => err });
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Failure(`kedb serve exited with ${code} before listening: ${err}`));
    });
  });
}

// Runs `body`, then stops the server; prints PASS or the failure and exits.
export async function run(name, body) {
  let server = null;
  const cleanup = () => { if (server && server.proc.exitCode === null) server.proc.kill('SIGTERM'); };
  try {
    await body((s) => { server = s; });
    cleanup();
    console.log(`${name}: PASS`);
    process.exit(0);
  } catch (e) {
    cleanup();
    console.error(`${name}: FAIL: ${e instanceof Failure ? e.message : e.stack}`);
    if (server) console.error(`server stderr:\n${server.stderr()}`);
    process.exit(1);
  }
}
