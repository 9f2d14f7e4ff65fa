// `kedb scan --format sarif` held to the official SARIF 2.1.0 JSON schema
// (tests/data/sarif-schema-2.1.0.json, see tests/data/README.md), formats
// included: code scanning services refuse a log that breaks it. Scanned:
// every example log, a log with only blocks no record knows, a clean log,
// standard input, a log whose path needs escaping in a URI, and answers in
// Chinese.
//
// usage: node tests/js/sarif_schema.mjs <kedb-binary> <kb-path>
// exit:  0 passed, 1 failed, 2 bad usage, 77 skipped (ajv not installed)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { binaryAndKb, expect, run, skip } from './lib.mjs';

const NAME = 'sarif_schema';
let Ajv, addFormats;
try {
  Ajv = (await import('ajv')).default;
  addFormats = (await import('ajv-formats')).default;
} catch {
  skip(NAME, 'ajv or ajv-formats is not installed (run npm ci in tests/js)');
}
const { bin, kb } = binaryAndKb(NAME);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// Runs `kedb scan FILE --format sarif` and returns the parsed log; exit 0
// or 1 (known error found or not) are both answers.
function scan(file, { input, extra = [] } = {}) {
  const r = spawnSync(bin, ['scan', file, '--format', 'sarif', '--kb', kb, ...extra], { input, encoding: 'utf8' });
  expect(r.status === 0 || r.status === 1, `kedb scan ${file} exited ${r.status}: ${r.stderr}`);
  try {
    return JSON.parse(r.stdout);
  } catch (e) {
    throw new Error(`kedb scan ${file} wrote no JSON: ${e.message}: ${r.stdout.slice(0, 300)}`);
  }
}

await run(NAME, async () => {
  const schema = JSON.parse(fs.readFileSync(path.join(root, 'tests', 'data', 'sarif-schema-2.1.0.json'), 'utf8'));
  expect(schema.$schema === 'http://json-schema.org/draft-07/schema#', `the schema is ${schema.$schema}, not draft-07`);
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kedb-sarif-'));
  const odd = path.join(tmp, 'run 7 [gpu#2] 100%.log');  // blanks, brackets, '#' and '%' must be escaped in a URI
  fs.copyFileSync(path.join(root, 'examples', 'train-cudnn.log'), odd);
  const unknownOnly = path.join(tmp, 'unknown.log');
  fs.writeFileSync(unknownOnly, 'step 1 ok\nERROR launcher: worker 3 exited with status 7\nFrobError: the frobnicator jammed\n');
  const clean = path.join(tmp, 'clean.log');
  fs.writeFileSync(clean, 'step 1 ok\nstep 2 ok\nall 12 tests passed\n');

  const examples = fs.readdirSync(path.join(root, 'examples')).filter((f) => f.endsWith('.log'));
  expect(examples.includes('train-cudnn.log'), `examples/ has no train-cudnn.log: ${examples}`);
  const cases = [
    ...examples.map((f) => [f, () => scan(path.join(root, 'examples', f))]),
    ['train-cudnn.log in Chinese', () => scan(path.join(root, 'examples', 'train-cudnn.log'), { extra: ['--lang', 'zh'] })],
    ['a path to escape', () => scan(odd)],
    ['unknown blocks only', () => scan(unknownOnly)],
    ['a clean log', () => scan(clean)],
    ['standard input', () => scan('-', { input: fs.readFileSync(path.join(root, 'examples', 'nccl-timeout.log')) })],
    ['every example log in one run (a folder)', () => scan(path.join(root, 'examples'))],
  ];
  const levels = new Set();
  for (const [label, produce] of cases) {
    const log = produce();
    expect(validate(log), `${label}: the SARIF log breaks the SARIF 2.1.0 schema: ${ajv.errorsText(validate.errors)}`);
    const [only] = log.runs;
    for (const result of only.results) {
      levels.add(result.level);
      expect(only.tool.driver.rules[result.ruleIndex]?.id === result.ruleId, `${label}: ruleIndex names another rule than ruleId`);
    }
    if (label === 'a clean log') expect(only.results.length === 0, `${label}: has results`);
  }
  // Both kinds of result were checked: a known error and a block no record knows.
  expect(levels.has('error') && levels.has('warning'), `results seen only at levels ${[...levels]}`);

  const escaped = scan(odd).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri;
  expect(decodeURIComponent(escaped) === odd.replaceAll(path.sep, '/'), `the artifact URI ${escaped} does not name ${odd}`);
  fs.rmSync(tmp, { recursive: true, force: true });
});
