// kedb's MCP server driven by the official TypeScript SDK client, as an agent
// would drive it: over stdio (`kedb mcp`) and over Streamable HTTP (`/mcp` on
// `kedb serve`). Both transports must give the same answers.
//
// Every tool declares an outputSchema, and every tool is called: the SDK's
// client checks each structuredContent against its tool's schema itself
// (and throws when one breaks it), and each is checked again here with
// ajv, under JSON Schema draft-07 (what the SDK uses) and 2020-12 (MCP's
// default dialect from 2025-11-25 on).
//
// usage: node tests/js/mcp_sdk.mjs <kedb-binary> <kb-path>
// exit:  0 passed, 1 failed, 2 bad usage, 77 skipped (SDK not installed)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { binaryAndKb, expect, run, skip, startServer } from './lib.mjs';

const NAME = 'mcp_sdk';
const SEED0 = 'RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM when setting batch normalization epsilon to 0';
const ID = 'cuda/cudnn-bn-epsilon-nan';

let sdk, Ajv, Ajv2020;
try {
  Ajv = (await import('ajv')).default;
  Ajv2020 = (await import('ajv/dist/2020.js')).default;
  sdk = {
    ...(await import('@modelcontextprotocol/sdk/client/index.js')),
    ...(await import('@modelcontextprotocol/sdk/client/stdio.js')),
    ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
    ...(await import('@modelcontextprotocol/sdk/types.js')),
  };
} catch {
  skip(NAME, '@modelcontextprotocol/sdk is not installed (run npm ci in tests/js)');
}
const { bin, kb } = binaryAndKb(NAME);

// Compiled outputSchema validators, by dialect and tool.
const dialects = [['draft-07', new Ajv({ strict: false, allErrors: true })], ['2020-12', new Ajv2020({ strict: false, allErrors: true })]];
function checkOutputSchemas(tools, where) {
  const validators = new Map();
  for (const t of tools) {
    expect(t.outputSchema?.type === 'object', where(`${t.name} declares no object outputSchema`));
    validators.set(t.name, dialects.map(([dialect, ajv]) => [dialect, ajv, ajv.compile(t.outputSchema)]));
  }
  return validators;
}

// Calls a tool, as callTool does, and holds a successful answer to the
// tool's declared outputSchema; an error answer carries no structuredContent.
async function call(client, validators, called, params, where) {
  const result = await client.callTool(params);
  called.add(params.name);
  if (result.isError) {
    expect(result.structuredContent === undefined, where(`${params.name}: an error result carries structuredContent`));
    return result;
  }
  for (const [dialect, ajv, validate] of validators.get(params.name)) {
    expect(validate(result.structuredContent),
      where(`${params.name}: structuredContent breaks its outputSchema (${dialect}): ${ajv.errorsText(validate.errors)}`));
  }
  return result;
}

// Everything an agent does in a session, checked; returns a summary that
// must be equal across transports.
async function exercise(client, transportName) {
  const where = (msg) => `${transportName}: ${msg}`;
  const version = client.getServerVersion();
  expect(version?.name === 'kedb', where(`serverInfo.name is ${JSON.stringify(version)}`));

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  const want = ['batch_lookup', 'get_domain_stats', 'get_error_chain', 'get_error_detail', 'list_error_domains',
    'list_errors_by_domain', 'lookup_error', 'mine_thread', 'report_outcome', 'scan_log', 'search_errors'];
  expect(JSON.stringify(names) === JSON.stringify(want), where(`tools are ${names}`));
  const lookup = tools.find((t) => t.name === 'lookup_error');
  expect(lookup.inputSchema.required?.[0] === 'error_message', where('lookup_error does not require error_message'));
  const validators = checkOutputSchemas(tools, where);
  const called = new Set();
  const callTool = (params) => call(client, validators, called, params, where);

  const found = await callTool({ name: 'lookup_error', arguments: { error_message: SEED0 } });
  expect(!found.isError, where('lookup_error failed'));
  expect(found.structuredContent?.matches?.[0]?.id === ID, where(`lookup_error best match is ${found.structuredContent?.matches?.[0]?.id}`));
  expect(found.content[0].type === 'text' && found.content[0].text.includes(ID), where('lookup_error text does not name the record'));

  const zh = await callTool({ name: 'lookup_error', arguments: { error_message: SEED0, lang: 'zh', top: 1 } });
  expect(/[\u4e00-\u9fff]/.test(zh.content[0].text), where('lang zh gave no Chinese text'));

  const log = `epoch 3 step 200 loss 0.41\nTraceback (most recent call last):\n  File "train.py", line 9, in <module>\n    model(x)\n${SEED0}\n`;
  const scan = await callTool({ name: 'scan_log', arguments: { log_text: log } });
  const root = scan.structuredContent?.blocks?.[0];
  expect(root?.root === true && root.matches?.[0]?.id === ID, where(`scan_log root block is ${JSON.stringify(root)?.slice(0, 200)}`));

  const batch = await callTool({ name: 'batch_lookup', arguments: { error_messages: [SEED0, 'all good, nothing failed'] } });
  const results = batch.structuredContent?.results;
  expect(results?.length === 2 && results[0].matches[0].id === ID && results[1].matches.length === 0,
    where('batch_lookup did not answer each message in order'));

  const detail = await callTool({ name: 'get_error_detail', arguments: { error_id: ID } });
  expect(detail.structuredContent?.id === ID && detail.structuredContent?.root_cause_zh, where('get_error_detail is not the whole record'));

  const chain = await callTool({ name: 'get_error_chain', arguments: { error_id: ID, depth: 2 } });
  expect(chain.structuredContent?.edges?.length > 0, where('get_error_chain has no edges'));
  // More answers of other shapes, for the schemas: a hub's neighbours, a
  // block no record knows, a miss, a record in Chinese.
  const hub = await callTool({ name: 'get_error_chain', arguments: { error_id: 'nccl/watchdog-timeout', depth: 1, lang: 'zh' } });
  expect(hub.structuredContent?.nodes?.length > 2, where('get_error_chain at depth 1 lists no neighbours'));
  const unknown = await callTool({ name: 'scan_log', arguments: { log_text: `${log}ValueError: could not convert string to float: 'n/a'\n` } });
  expect(unknown.structuredContent?.blocks?.some((b) => b.abstained), where('scan_log found no block it does not know'));
  const miss = await callTool({ name: 'lookup_error', arguments: { error_message: 'FrobError: the frobnicator jammed' } });
  expect(miss.structuredContent?.abstained === true, where('a message no record knows was matched'));
  await callTool({ name: 'get_error_detail', arguments: { error_id: 'nccl/watchdog-timeout', lang: 'zh' } });

  const search = await callTool({ name: 'search_errors', arguments: { query: 'batch norm epsilon', limit: 3 } });
  expect(search.structuredContent?.hits?.[0]?.id === ID, where('search_errors did not find the record first'));

  const domains = await callTool({ name: 'list_error_domains', arguments: {} });
  const cuda = domains.structuredContent?.domains?.find((d) => d.domain === 'cuda');
  expect(cuda?.records > 0, where('list_error_domains lacks cuda'));
  const inDomain = await callTool({ name: 'list_errors_by_domain', arguments: { domain: 'cuda', sort_by: 'name' } });
  expect(inDomain.structuredContent?.errors?.length === cuda.records, where('list_errors_by_domain count differs from list_error_domains'));
  const stats = await callTool({ name: 'get_domain_stats', arguments: { domain: 'cuda' } });
  expect(stats.structuredContent?.records === cuda.records, where('get_domain_stats count differs'));

  // A thread in, a draft record out, through the official SDK's client.
  const thread = `alice commented\nTraining stops with\n${SEED0}\nbob commented\nThe fix is to set eps=1e-5 in the layer.\nalice commented\nThanks, that fixed it!\n`;
  const draft = await callTool({ name: 'mine_thread', arguments: { thread } });
  expect(!draft.isError && draft.structuredContent?.verification_tier === 'mined', where('mine_thread gave no draft'));
  expect(draft.structuredContent?.x_mined?.related_records?.[0]?.id === ID, where('mine_thread does not relate the known record'));

  // A tool that runs but cannot answer says so in the result...
  const missing = await callTool({ name: 'get_error_detail', arguments: { error_id: 'cuda/no-such-error' } });
  expect(missing.isError === true, where('an unknown id is not isError'));
  // ...while bad arguments and unknown tools are JSON-RPC errors naming the field.
  for (const [args, fragment] of [
    [{ name: 'lookup_error', arguments: {} }, '"error_message": is required'],
    [{ name: 'lookup_error', arguments: { error_message: SEED0, top: 0 } }, '"top"'],
    [{ name: 'lookup_error', arguments: { error_message: SEED0, colour: 'red' } }, '"colour": unknown field'],
    [{ name: 'batch_lookup', arguments: { error_messages: 'one' } }, '"error_messages": must be an array'],
    [{ name: 'no_such_tool', arguments: {} }, 'unknown tool'],
  ]) {
    let error = null;
    try {
      await callTool(args);
    } catch (e) {
      error = e;
    }
    expect(error instanceof sdk.McpError && error.code === sdk.ErrorCode.InvalidParams && error.message.includes(fragment),
      where(`${JSON.stringify(args)} gave ${error} instead of invalid params mentioning ${fragment}`));
  }

  const { resources } = await client.listResources();
  expect(resources.some((r) => r.uri === `kedb://errors/${ID}`), where('the record is not listed as a resource'));
  const read = await client.readResource({ uri: `kedb://errors/${ID}` });
  expect(JSON.parse(read.contents[0].text).id === ID, where('resources/read gave another record'));

  await client.ping();
  const uncalled = names.filter((n) => !called.has(n) && n !== 'report_outcome');  // a write: called over stdio below
  expect(uncalled.length === 0, where(`not every tool was called, so not every outputSchema was checked: ${uncalled}`));
  return JSON.stringify({ names, found: found.structuredContent, chain: chain.structuredContent, stats: stats.structuredContent });
}

await run(NAME, async (setServer) => {
  // stdio, as an agent's configuration launches it.
  const stdioClient = new sdk.Client({ name: 'kedb-test', version: '1.0.0' });
  const store = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kedb-mcp-store-')), 'outcomes.sqlite');
  await stdioClient.connect(new sdk.StdioClientTransport({ command: bin, args: ['mcp', '--kb', kb, '--store', store], stderr: 'pipe' }));
  const viaStdio = await exercise(stdioClient, 'stdio');
  // Over stdio the agent's own process may report; the rate moves at once.
  const report = { error_id: ID, index: 1, outcome: 'failed', env: { os: 'linux' }, event_id: 'mcp-test-1' };
  // The answers that carry observed counts are held to their schemas too.
  const stdioWhere = (msg) => `stdio: ${msg}`;
  const validators = checkOutputSchemas((await stdioClient.listTools()).tools, stdioWhere);
  const callTool = (params) => call(stdioClient, validators, new Set(), params, stdioWhere);
  const reported = await callTool({ name: 'report_outcome', arguments: report });
  expect(!reported.isError && reported.structuredContent?.observed?.failed === 1, `report_outcome: ${JSON.stringify(reported).slice(0, 300)}`);
  const again = await callTool({ name: 'report_outcome', arguments: report });
  expect(again.structuredContent?.duplicate === true && again.structuredContent?.observed?.failed === 1, 'a repeated event_id counted twice');
  const seen = await callTool({ name: 'get_error_detail', arguments: { error_id: ID } });
  expect(seen.structuredContent?.observed?.workarounds?.[0]?.failed === 1, 'get_error_detail does not carry the observed counts');
  const rated = await callTool({ name: 'lookup_error', arguments: { error_message: SEED0, top: 1 } });
  expect(rated.structuredContent?.matches?.[0]?.workarounds?.some((w) => w.observed?.failed === 1),
    'lookup_error does not show the reported workaround with its counts');
  await stdioClient.close();

  // Streamable HTTP on kedb serve.
  const server = await startServer(bin, kb);
  setServer(server);
  const httpClient = new sdk.Client({ name: 'kedb-test', version: '1.0.0' });
  await httpClient.connect(new sdk.StreamableHTTPClientTransport(new URL('/mcp', server.url)));
  const viaHttp = await exercise(httpClient, 'http');
  // Over HTTP, writing needs the server's token: without one it is refused.
  let refused = false;
  try {
    await httpClient.callTool({ name: 'report_outcome', arguments: { error_id: ID, index: 1, outcome: 'worked' } });
  } catch (e) {
    refused = /401|unauthorized|token/i.test(String(e));
  }
  expect(refused, 'report_outcome over HTTP without a token was not refused');
  await httpClient.close();

  expect(viaStdio === viaHttp, 'stdio and HTTP answered differently');
});
