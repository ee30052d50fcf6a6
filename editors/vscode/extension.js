'use strict';
// The uplint extension: starts `uplint server` over standard input and output through
// `vscode-languageclient` (the client library of VS Code's own language extensions) for the
// languages of the files uplint reads. Diagnostics, quick fixes (the safe fix preferred:
// *Auto Fix*, Shift+Alt+.), `source.fixAll.uplint` and hovers come from the server.

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

/** The VS Code language ids of the files uplint scans (CI configuration is `yaml`). */
const LANGUAGES = [
  'yaml',
  'graphql',
  'shellscript',
  'toml',
  'json',
  'ruby',
  'python',
  'go',
  'javascript',
  'typescript',
  'java',
  'php',
  'terraform',
  'dockerfile',
  'makefile',
];

let client;

/** The command line of the server: `uplint.path server`, with `--data` for each `uplint.data`. */
function serverOptions() {
  const config = vscode.workspace.getConfiguration('uplint');
  const command = config.get('path', 'uplint') || 'uplint';
  const data = config.get('data', []) || [];
  const args = ['server', ...data.flatMap((path) => ['--data', path])];
  // No `transport`: standard input and output, without the `--stdio` argument that
  // `TransportKind.stdio` would add (uplint server takes no such flag).
  return { command, args };
}

async function activate(context) {
  const documentSelector = LANGUAGES.flatMap((language) => [
    { scheme: 'file', language },
    { scheme: 'untitled', language },
  ]);
  client = new LanguageClient('uplint', 'uplint', serverOptions(), { documentSelector });
  context.subscriptions.push(client);
  await client.start();
  return client;
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, LANGUAGES };
