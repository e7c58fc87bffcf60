// Drives our servers with the official TypeScript SDK client
// (`@modelcontextprotocol/sdk` 1.x) and the MCP Inspector's `--cli` mode:
//
// - `mcp-server demo` over Streamable HTTP: list tools, resources and
//   prompts, call `countdown` with progress, read the embedded OpenAPI
//   document;
// - the `everything` example over stdio: get a prompt, and run
//   `slow_compute` as a 2025-11-25 task to completion (`params.task`,
//   `tasks/get`, `tasks/result`);
// - the Inspector CLI: `tools/list` and `tools/call` against `demo` and
//   against `mcp-server serve --openapi <petstore>` (both over HTTP).
//
// Usage: node e2e.cjs <peer dir> <mcp-server> <everything> <petstore.yaml>
// Prints "all checks passed" when every check holds; exits non-zero otherwise.
'use strict';

const path = require('node:path');
const { spawn, execFile } = require('node:child_process');
const readline = require('node:readline');

const [peerDir, mcpServer, everything, petstore] = process.argv.slice(2).map((arg) => path.resolve(arg));
const peer = require('node:module').createRequire(path.join(peerDir, 'node_modules', 'peer.js'));
const { Client } = peer('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = peer('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { StdioClientTransport } = peer('@modelcontextprotocol/sdk/client/stdio.js');
const { ResultSchema, CallToolResultSchema } = peer('@modelcontextprotocol/sdk/types.js');

const children = [];
function check(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
  console.log(`ok: ${message}`);
}

// Starts `args` over HTTP on a free port; resolves with the endpoint URL
// and, for `demo`, the URL of the Petstore API it embeds.
function startHttp(args) {
  const child = spawn(mcpServer, [...args, '--transport', 'http', '--bind', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    let api;
    let url;
    lines.on('line', (line) => {
      const text = line.trim();
      if (text.startsWith('Petstore API (embedded): ')) {
        api = text.slice('Petstore API (embedded): '.length);
      }
      if (text.startsWith('http://') && text.endsWith('/mcp')) {
        url = text;
      }
      if (url && (api || args[0] !== 'demo')) {
        resolve({ url, api });
      }
    });
    child.on('exit', (code) => reject(new Error(`${args[0]} exited (${code}) before listening`)));
  });
}

async function demoOverHttp(url) {
  const client = new Client({ name: 'ts-e2e', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  check(tools.includes('add') && tools.includes('countdown'), `demo lists its tools (${tools.length})`);
  const resources = (await client.listResources()).resources.map((resource) => resource.uri);
  check(resources.includes('demo://petstore/openapi.yaml'), 'demo lists its resources');
  const prompts = await client.listPrompts();
  check(Array.isArray(prompts.prompts), `demo lists prompts (${prompts.prompts.length})`);
  const progress = [];
  const countdown = await client.callTool({ name: 'countdown', arguments: { from: 3 } }, undefined, {
    onprogress: (update) => progress.push(update.progress),
  });
  check(!countdown.isError, 'countdown succeeds');
  check(progress.length >= 3, `countdown reports progress (${progress.join(', ')})`);
  const read = await client.readResource({ uri: 'demo://petstore/openapi.yaml' });
  check(read.contents[0].text.includes('openapi'), 'the OpenAPI document reads');
  await client.close();
}

async function everythingOverStdio() {
  const client = new Client({ name: 'ts-e2e', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: everything, args: ['--stdio'], stderr: 'inherit' }));
  check(client.getServerCapabilities().tasks !== undefined, 'everything declares the tasks capability');
  const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
  check(prompt.messages.length > 0, 'a prompt with arguments renders');
  const listed = (await client.listTools()).tools.find((tool) => tool.name === 'slow_compute');
  check(listed.execution && listed.execution.taskSupport === 'optional', 'slow_compute advertises optional task support');
  const created = await client.request(
    { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 0.2 }, task: { ttl: 60000 } } },
    ResultSchema,
  );
  const taskId = created.task && created.task.taskId;
  check(typeof taskId === 'string' && created.task.ttl === 60000, `tools/call created task ${taskId}`);
  const polled = await client.request({ method: 'tasks/get', params: { taskId } }, ResultSchema);
  check(['working', 'completed'].includes(polled.status), `tasks/get reports ${polled.status}`);
  const result = await client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema);
  check(result.content[0].text === 'computed for 0.2 s', `tasks/result answers "${result.content[0].text}"`);
  const done = await client.request({ method: 'tasks/get', params: { taskId } }, ResultSchema);
  check(done.status === 'completed', 'the task completed');
  await client.close();
}

function runInspector(args) {
  const launcher = path.join(peerDir, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [launcher, '--cli', ...args], { timeout: 60000 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`inspector ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      } else {
        resolve({ stdout, stderr });
      }
    });
  });
}

async function inspector(args) {
  return JSON.parse((await runInspector(args)).stdout);
}

// `tools/list` with the Inspector's `--strict` schema lint: it reports every
// portability finding (warnings too, such as `type` arrays or `$schema`) on
// stderr, so a clean list leaves stderr empty.
async function inspectorStrictList(url, label) {
  const { stdout, stderr } = await runInspector([url, '--transport', 'http', '--method', 'tools/list', '--strict']);
  check(stderr.trim() === '', `inspector --strict finds no schema portability problem on ${label}${stderr.trim() ? `:\n${stderr}` : ''}`);
  return JSON.parse(stdout);
}

async function inspectorCall(url, label, tool, toolArgs) {
  const called = await inspector([
    url, '--transport', 'http', '--method', 'tools/call', '--tool-name', tool,
    ...toolArgs.flatMap((arg) => ['--tool-arg', arg]),
  ]);
  check(called.isError !== true && Array.isArray(called.content), `inspector tools/call ${tool} on ${label} succeeds`);
  return called;
}

async function main() {
  const demo = await startHttp(['demo']);
  check(typeof demo.api === 'string', `demo embeds the Petstore API at ${demo.api}`);
  await demoOverHttp(demo.url);
  await everythingOverStdio();

  const demoTools = await inspectorStrictList(demo.url, 'demo');
  check(demoTools.tools.some((tool) => tool.name === 'add'), 'inspector tools/list on demo shows add');
  const sum = await inspectorCall(demo.url, 'demo', 'add', ['a=2', 'b=3']);
  check(JSON.stringify(sum).includes('5'), 'add answers 5');

  // The generated tools call the API the demo embeds (on loopback).
  const openapi = await startHttp(['serve', '--openapi', petstore, '--base-url', demo.api]);
  const listed = await inspectorStrictList(openapi.url, 'serve --openapi');
  check(listed.tools.length > 0, `inspector tools/list on serve --openapi shows ${listed.tools.length} tools`);
  const free = listed.tools.find((tool) => !(tool.inputSchema.required || []).length);
  check(free !== undefined, `serve --openapi has a tool without required arguments (${free && free.name})`);
  await inspectorCall(openapi.url, 'serve --openapi', free.name, []);
  console.log('all checks passed');
}

main()
  .catch((error) => {
    console.error(error.stack || String(error));
    process.exitCode = 1;
  })
  .finally(() => children.forEach((child) => child.kill()));
