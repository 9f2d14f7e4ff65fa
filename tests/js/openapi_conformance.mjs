// Holds `kedb serve` to its published OpenAPI document: every documented
// operation is called with the document's own examples, and each reply must
// have a documented status and a body valid against the documented schema
// (JSON Schema 2020-12, as OpenAPI 3.1 uses). Documented error statuses are
// provoked too, and the server's limits checked: 413 past the body limit,
// a JSON 404 for an unknown path.
//
// usage: node tests/js/openapi_conformance.mjs <kedb-binary> <kb-path>
// exit:  0 passed, 1 failed, 2 bad usage, 77 skipped (ajv not installed)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { binaryAndKb, expect, run, skip, startServer } from './lib.mjs';

const NAME = 'openapi_conformance';
let Ajv2020;
try {
  Ajv2020 = (await import('ajv/dist/2020.js')).default;
} catch {
  skip(NAME, 'ajv is not installed (run npm ci in tests/js)');
}
const { bin, kb } = binaryAndKb(NAME);

// Fills a path template and the query from the parameters' examples.
function urlFor(base, template, parameters = []) {
  let p = template;
  const query = new URLSearchParams();
  for (const prm of parameters) {
    if (prm.example === undefined) continue;
    if (prm.in === 'path') p = p.replace(`{${prm.name}}`, prm.example);
    if (prm.in === 'query') query.set(prm.name, String(prm.example));
  }
  expect(!p.includes('{'), `${template}: a path parameter has no example`);
  const qs = query.toString();
  return new URL(p + (qs ? `?${qs}` : ''), base);
}

await run(NAME, async (setServer) => {
  const token = 'conformance-token-0123456789';
  // The knowledge base is put into a store first, so that the record
  // writes (POST and PUT /v1/records) are served too.
  const records = `sqlite:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kedb-js-records-')), 'records.sqlite')}`;
  execFileSync(bin, ['import', 'native', kb, '--into', records]);
  const server = await startServer(bin, records, ['--max-body', '1'], { KEDB_TOKEN: token });
  setServer(server);
  const doc = await (await fetch(new URL('/v1/openapi.json', server.url))).json();
  expect(doc.openapi === '3.1.0', `openapi is ${doc.openapi}`);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  for (const [name, schema] of Object.entries(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);

  // Validates one reply against the operation's documented response.
  async function check(label, op, res) {
    const documented = op.responses[String(res.status)];
    const text = await res.text();
    expect(documented, `${label}: status ${res.status} is not documented (${Object.keys(op.responses)}): ${text.slice(0, 200)}`);
    const media = documented.content?.['application/json'];
    if (!media) return null;
    expect((res.headers.get('content-type') || '').startsWith('application/json'), `${label}: content-type ${res.headers.get('content-type')}`);
    const body = JSON.parse(text);
    const validate = ajv.compile(media.schema);
    expect(validate(body), `${label}: ${res.status} body breaks its schema: ${ajv.errorsText(validate.errors)}`);
    return body;
  }

  let operations = 0;
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      operations++;
      const url = urlFor(server.url, template, op.parameters);
      const bodies = op.requestBody ? Object.entries(op.requestBody.content) : [[null, null]];
      for (const [type, media] of bodies) {
        const init = { method: method.toUpperCase(), headers: {} };
        if (op.security) init.headers.authorization = `Bearer ${token}`;
        if (type) {
          init.headers['content-type'] = type;
          init.headers.accept = 'application/json, text/event-stream';
          init.body = typeof media.example === 'string' ? media.example : JSON.stringify(media.example);
        }
        const label = `${method.toUpperCase()} ${template}${type ? ` (${type})` : ''}`;
        const res = await fetch(url, init);
        const wanted = op.operationId === 'createRecord' ? 201 : 200;  // the PUT after it replaces
        expect(res.status === wanted, `${label}: the documented example got ${res.status}`);
        await check(label, op, res);
      }
    }
  }
  expect(operations === 16, `the document has ${operations} operations, expected 16`);

  // Documented errors, provoked.
  const post = (p, body, type = 'application/json') =>
    fetch(new URL(p, server.url), { method: 'POST', headers: { 'content-type': type }, body });
  const errors = [
    ['/v1/match', 'post', () => post('/v1/match', '{"text": 1}'), 400],
    ['/v1/match', 'post', () => post('/v1/match', '{"text": "a", "extra": true}'), 400],
    ['/v1/scan', 'post', () => post('/v1/scan', '{"log": "x",', 'application/json'), 400],
    ['/v1/scan', 'post', () => post('/v1/scan', 'x', 'image/png'), 415],
    ['/v1/scan', 'post', () => post('/v1/scan', 'x'.repeat(1.5 * 1024 * 1024), 'text/plain'), 413],
    ['/v1/errors/{id}', 'get', () => fetch(new URL('/v1/errors/cuda/no-such-error', server.url)), 404],
    ['/v1/errors/{id}/chain', 'get', () => fetch(new URL('/v1/errors/cuda/cudnn-bn-epsilon-nan/chain?depth=0', server.url)), 400],
    ['/v1/search', 'get', () => fetch(new URL('/v1/search?q=', server.url)), 400],
    ['/v1/domains/{domain}/errors', 'get', () => fetch(new URL('/v1/domains/no-such-domain/errors', server.url)), 404],
    ['/v1/stats', 'get', () => fetch(new URL('/v1/stats?domain=no-such-domain', server.url)), 404],
    ['/v1/mine', 'post', () => post('/v1/mine', '{"thread": 3}'), 400],
    ['/v1/mine', 'post', () => post('/v1/mine', 'x', 'image/png'), 415],
    ['/v1/outcomes', 'post', () => post('/v1/outcomes', '{"error_id": "cuda/cudnn-bn-epsilon-nan", "index": 1, "outcome": "worked"}'), 401],
    ['/v1/outcomes', 'post', () => fetch(new URL('/v1/outcomes', server.url), { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer wrong-token-0123456789ab' }, body: '{}' }), 401],
    ['/v1/outcomes', 'post', () => fetch(new URL('/v1/outcomes', server.url), { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"error_id": "cuda/cudnn-bn-epsilon-nan", "index": 99, "outcome": "worked"}' }), 400],
    ['/v1/outcomes', 'post', () => fetch(new URL('/v1/outcomes', server.url), { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"error_id": "no/such-record", "index": 1, "outcome": "worked"}' }), 404],
    ['/v1/records', 'post', () => post('/v1/records', '{"id": "t/x"}'), 401],
    ['/v1/records', 'post', () => fetch(new URL('/v1/records', server.url), { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(doc.paths['/v1/records'].post.requestBody.content['application/json'].example) }), 409],
    ['/v1/records', 'post', () => fetch(new URL('/v1/records', server.url), { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"id": "t/x", "signature": "x", "regex": "(x", "domain": "t"}' }), 400],
    ['/v1/records/{id}', 'put', () => fetch(new URL('/v1/records/t/other', server.url), { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(doc.paths['/v1/records'].post.requestBody.content['application/json'].example) }), 400],
    ['/mcp', 'post', () => fetch(new URL('/mcp', server.url), { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://evil.example' }, body: '{}' }), 403],
    ['/mcp', 'post', () => fetch(new URL('/mcp', server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' }), 202],
  ];
  for (const [template, method, send, status] of errors) {
    const res = await send();
    const label = `${method.toUpperCase()} ${template} expecting ${status}`;
    expect(res.status === status, `${label}: got ${res.status}`);
    const body = await check(label, doc.paths[template][method], res);
    if (status >= 400) expect(typeof body?.error?.message === 'string' && body.error.message.length > 0, `${label}: no error message`);
  }

  // curl -d sends JSON labelled as a form; a long one (past the HTTP
  // library's own 8 KiB form limit) must still be read as JSON.
  const longText = `${'a line of noise before the error\n'.repeat(600)}CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0`;
  const form = await post('/v1/match', JSON.stringify({ text: longText, top: 1 }), 'application/x-www-form-urlencoded');
  expect(form.status === 200, `a 20 KB JSON body sent as a form got ${form.status}`);
  expect((await form.json()).matches?.[0]?.id === 'cuda/cudnn-bn-epsilon-nan', 'a JSON body sent as a form was not matched');

  // Outside the document: an unknown path and a wrong method still answer JSON.
  const unknown = await fetch(new URL('/v2/nothing', server.url));
  expect(unknown.status === 404 && (await unknown.json()).error.code === 'not_found', 'unknown path is not a JSON 404');
  const wrong = await fetch(new URL('/v1/match', server.url));
  expect(wrong.status === 405 && wrong.headers.get('allow') === 'POST', 'GET /v1/match is not 405 with Allow: POST');
});
