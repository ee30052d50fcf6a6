'use strict';
// uplint server through `vscode-languageclient` under Node (scripts/test-vscode-client.sh): the
// extension (../extension.js) starts `uplint server` with the client's `node` entry, `vscode`
// being the minimal shim next to this file. A .gitlab-ci.yml with $CI_JOB_JWT_V2 and a GraphQL
// file with totalWeight are opened; the diagnostics arrive in the client's diagnostic
// collection; the code actions come from the provider the client registered, as VS Code asks
// for them; the preferred quick fix's WorkspaceEdit (totalWeight -> totalIssueWeight, safe with
// min-version 16.5) and the suppression of ci-job-jwt are applied to the documents' text, the
// client sends the changes and the diagnostics go away; the client stops the server
// (shutdown, exit). Uses UPLINT_BIN (default: uplint on PATH). Exit status 1 on any failure.

const Module = require('module');
const fs = require('fs');
const os = require('os');
const path = require('path');

// `require('vscode')` anywhere (the client library, the extension) is the shim.
const shimPath = path.join(__dirname, 'vscode-shim.js');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? shimPath : resolve.call(this, request, ...rest);
};

const vscode = require('vscode');
const extension = require('../extension.js');

const { shim } = vscode;
const WAIT_MS = 20000;

function fail(message) {
  throw new Error(message);
}

// The next diagnostics the client sets for `doc` that satisfy `accept`.
function diagnosticsOf(doc, accept) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no diagnostics as expected for ${path.basename(doc.uri.fsPath)} in ${WAIT_MS} ms`)),
      WAIT_MS,
    );
    const check = (diagnostics) => {
      if (accept(diagnostics)) {
        clearTimeout(timer);
        listener.dispose();
        resolve(diagnostics);
      }
    };
    const listener = shim.onDidSetDiagnostics.event(({ uri, diagnostics }) => {
      if (uri.toString() === doc.uri.toString()) check(diagnostics);
    });
    for (const c of shim.collections) {
      if (c.has(doc.uri)) check(c.get(doc.uri));
    }
  });
}

function withCode(code) {
  return (diagnostics) => diagnostics.some((d) => d.code === code || (d.code && d.code.value === code));
}

function show(doc, d) {
  const name = path.basename(doc.uri.fsPath);
  const { line, character } = d.range.start;
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  const tags = (d.tags || []).map((t) => (t === vscode.DiagnosticTag.Deprecated ? 'deprecated' : 'unnecessary'));
  console.log(`diagnostic ${name}:${line + 1}:${character + 1} [${code}] ${d.message} (tags: ${tags.join(',')})`);
}

// What VS Code does for the light bulb: ask every registered code action provider whose
// selector matches the document, with the diagnostics of the range.
async function codeActions(doc, diagnostic) {
  const providers = shim.providers.filter(
    (p) => p.kind === 'CodeActions' && vscode.languages.match(p.selector, doc) > 0,
  );
  if (providers.length === 0) fail('the client registered no code action provider for the document');
  const context = { diagnostics: [diagnostic], only: undefined, triggerKind: vscode.CodeActionTriggerKind.Invoke };
  const token = new vscode.CancellationTokenSource().token;
  const all = [];
  for (const p of providers) {
    all.push(...((await p.provider.provideCodeActions(doc, diagnostic.range, context, token)) || []));
  }
  for (const a of all) {
    const kind = a.kind ? a.kind.value : '';
    console.log(`  action${a.isPreferred ? ' (preferred)' : ''} [${kind}] ${a.title}`);
  }
  return all;
}

async function hover(doc, position) {
  const providers = shim.providers.filter((p) => p.kind === 'Hover' && vscode.languages.match(p.selector, doc) > 0);
  const token = new vscode.CancellationTokenSource().token;
  for (const p of providers) {
    const h = await p.provider.provideHover(doc, position, token);
    if (h) return h.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n');
  }
  return '';
}

// Apply a code action's WorkspaceEdit to the documents as VS Code does (the client hears the
// change and sends it to the server).
async function apply(action) {
  if (!action.edit) fail(`the action "${action.title}" has no edit`);
  if (!(await vscode.workspace.applyEdit(action.edit))) fail(`the edit of "${action.title}" did not apply`);
  console.log(`applied: ${action.title}`);
}

async function round(dir) {
  const open = (name, language) => {
    const file = path.join(dir, name);
    return shim.openDocument(vscode.Uri.file(file), language, fs.readFileSync(file, 'utf8'));
  };

  // The GraphQL file: the preferred quick fix is the rename.
  const gql = open('weight.graphql', 'graphql');
  const [weight] = (await diagnosticsOf(gql, withCode('graphql-total-weight'))).filter((d) =>
    withCode('graphql-total-weight')([d]),
  );
  show(gql, weight);
  const explained = await hover(gql, weight.range.start);
  if (!explained.includes('totalIssueWeight')) fail(`the hover does not name the replacement:\n${explained}`);
  console.log(`hover: ${explained.split('\n').find((l) => l.includes('totalIssueWeight')).trim()}`);
  const preferred = (await codeActions(gql, weight)).filter((a) => a.isPreferred);
  if (preferred.length !== 1) fail(`expected one preferred quick fix, got ${preferred.length}`);
  await apply(preferred[0]);
  const want = 'query w($p: ID!) {\n  group(fullPath: $p) {\n    issues {\n      totalIssueWeight\n    }\n  }\n}\n';
  if (gql.getText() !== want) fail(`weight.graphql is not as expected:\n${gql.getText()}`);
  await diagnosticsOf(gql, (ds) => ds.length === 0);
  console.log('weight.graphql: holds totalIssueWeight; no diagnostics left');

  // The CI file: no fix (an ID token is no rename), the suppression inserts the comment.
  const ci = open('.gitlab-ci.yml', 'yaml');
  const [jwt] = (await diagnosticsOf(ci, withCode('ci-job-jwt'))).filter((d) => withCode('ci-job-jwt')([d]));
  show(ci, jwt);
  const actions = await codeActions(ci, jwt);
  if (actions.some((a) => a.isPreferred)) fail('ci-job-jwt has no safe fix, yet a preferred action was offered');
  const suppress = actions.find((a) => a.title.startsWith('Suppress ci-job-jwt'));
  if (!suppress) fail('no suppression action for ci-job-jwt');
  await apply(suppress);
  const wantCi = 'build:\n  script:\n    # uplint: ignore[ci-job-jwt]\n    - echo "é → $CI_JOB_JWT_V2"\n';
  if (ci.getText() !== wantCi) fail(`.gitlab-ci.yml is not as expected:\n${ci.getText()}`);
  await diagnosticsOf(ci, (ds) => ds.length === 0);
  console.log('.gitlab-ci.yml: holds the suppression; no diagnostics left');
}

// The client library's version (its package.json is not among its exports).
function clientVersion() {
  const main = require.resolve('vscode-languageclient/node');
  const pkg = path.join(main.slice(0, main.lastIndexOf(`${path.sep}lib${path.sep}`)), 'package.json');
  return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
}

async function main() {
  const bin = process.env.UPLINT_BIN || 'uplint';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uplint-vscode-'));
  let client;
  try {
    fs.writeFileSync(path.join(dir, '.uplint.yml'), 'min-version: "16.5"\n');
    fs.writeFileSync(path.join(dir, '.gitlab-ci.yml'), 'build:\n  script:\n    - echo "é → $CI_JOB_JWT_V2"\n');
    fs.writeFileSync(
      path.join(dir, 'weight.graphql'),
      'query w($p: ID!) {\n  group(fullPath: $p) {\n    issues {\n      totalWeight\n    }\n  }\n}\n',
    );
    shim.folders.push({ uri: vscode.Uri.file(dir), name: path.basename(dir), index: 0 });
    shim.settings['uplint.path'] = bin;
    client = await extension.activate({ subscriptions: [] });
    const info = client.initializeResult && client.initializeResult.serverInfo;
    console.log(`vscode-languageclient ${clientVersion()} started ${info ? `${info.name} ${info.version}` : 'a server'}`);
    await round(dir);
  } finally {
    if (client) {
      // The server process, as the client's node entry started it: it must end on `exit`.
      const server = client._serverProcess;
      await extension.deactivate();
      if (server && server.exitCode === null) await new Promise((r) => server.once('exit', r));
      if (server) console.log(`client stopped; the server exited with status ${server.exitCode}`);
      // 0 after `shutdown` then `exit`; 1 when the input ended without them.
      if (!server || server.exitCode !== 0) fail('the server did not end cleanly on the client\'s stop');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log('test-vscode-client: 2 passed, 0 failed');
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`test-vscode-client: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
  },
);
