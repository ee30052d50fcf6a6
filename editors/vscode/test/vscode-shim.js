'use strict';
// A minimal stand-in for VS Code's `vscode` API module, enough for `vscode-languageclient/node`
// to run under plain Node: documents, events, URIs, positions and ranges, diagnostics, code
// actions and workspace edits behave as VS Code's do; the editor's UI (windows, tabs, progress)
// is inert. `test/round.js` makes Node resolve `require('vscode')` to this file. What the
// client registers (providers, the diagnostic collections, commands) is kept in `shim` for the
// test to call, as the editor would.

// --- events and lifetimes ---------------------------------------------------------------------

class Disposable {
  constructor(onDispose) {
    this._onDispose = onDispose;
  }
  static from(...items) {
    return new Disposable(() => items.forEach((d) => d && typeof d.dispose === 'function' && d.dispose()));
  }
  dispose() {
    const f = this._onDispose;
    this._onDispose = undefined;
    if (f) f();
  }
}

class EventEmitter {
  constructor() {
    this._listeners = new Set();
    this.event = (listener, thisArg, disposables) => {
      const f = thisArg ? listener.bind(thisArg) : listener;
      this._listeners.add(f);
      const d = new Disposable(() => this._listeners.delete(f));
      if (Array.isArray(disposables)) disposables.push(d);
      return d;
    };
  }
  fire(e) {
    for (const f of [...this._listeners]) f(e);
  }
  dispose() {
    this._listeners.clear();
  }
}

class CancellationError extends Error {
  constructor() {
    super('Canceled');
    this.name = 'Canceled';
  }
}

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this._emitter = emitter;
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
  }
  cancel() {
    if (!this.token.isCancellationRequested) {
      this.token.isCancellationRequested = true;
      this._emitter.fire(undefined);
    }
  }
  dispose() {
    this._emitter.dispose();
  }
}

// --- URIs, positions, ranges ------------------------------------------------------------------

function encodePath(path) {
  return path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}

class Uri {
  constructor(scheme, authority, path, query, fragment) {
    this.scheme = scheme;
    this.authority = authority || '';
    this.path = path || '';
    this.query = query || '';
    this.fragment = fragment || '';
  }
  static parse(value) {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!m) throw new Error(`not a URI: ${value}`);
    return new Uri(m[1], m[2], decodeURIComponent(m[3]), m[4], m[5]);
  }
  static file(path) {
    return new Uri('file', '', path);
  }
  static joinPath(base, ...parts) {
    return base.with({ path: [base.path, ...parts].join('/').replace(/\/+/g, '/') });
  }
  get fsPath() {
    return this.path;
  }
  with(change) {
    const c = { ...this, ...change };
    return new Uri(c.scheme, c.authority, c.path, c.query, c.fragment);
  }
  toString() {
    const authority = this.authority || this.scheme === 'file' ? `//${this.authority}` : '';
    const query = this.query ? `?${this.query}` : '';
    const fragment = this.fragment ? `#${this.fragment}` : '';
    return `${this.scheme}:${authority}${encodePath(this.path)}${query}${fragment}`;
  }
  toJSON() {
    return this.toString();
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
  compareTo(o) {
    return this.line - o.line || this.character - o.character;
  }
  isEqual(o) {
    return this.compareTo(o) === 0;
  }
  isBefore(o) {
    return this.compareTo(o) < 0;
  }
  isBeforeOrEqual(o) {
    return this.compareTo(o) <= 0;
  }
  isAfter(o) {
    return this.compareTo(o) > 0;
  }
  isAfterOrEqual(o) {
    return this.compareTo(o) >= 0;
  }
  translate(lineDelta = 0, characterDelta = 0) {
    return new Position(this.line + lineDelta, this.character + characterDelta);
  }
  with(line = this.line, character = this.character) {
    return new Position(line, character);
  }
}

class Range {
  constructor(a, b, c, d) {
    const [start, end] = typeof a === 'number' ? [new Position(a, b), new Position(c, d)] : [a, b];
    [this.start, this.end] = start.isAfter(end) ? [end, start] : [start, end];
  }
  get isEmpty() {
    return this.start.isEqual(this.end);
  }
  get isSingleLine() {
    return this.start.line === this.end.line;
  }
  contains(p) {
    return p instanceof Range
      ? this.contains(p.start) && this.contains(p.end)
      : this.start.isBeforeOrEqual(p) && p.isBeforeOrEqual(this.end);
  }
  isEqual(o) {
    return this.start.isEqual(o.start) && this.end.isEqual(o.end);
  }
  with(start = this.start, end = this.end) {
    return new Range(start, end);
  }
}

class Selection extends Range {
  constructor(anchor, active) {
    super(anchor, active);
    this.anchor = anchor;
    this.active = active;
  }
}

class Location {
  constructor(uri, rangeOrPosition) {
    this.uri = uri;
    this.range = rangeOrPosition;
  }
}

// --- documents --------------------------------------------------------------------------------

class TextDocument {
  constructor(uri, languageId, text) {
    this.uri = uri;
    this.languageId = languageId;
    this.version = 1;
    this.isClosed = false;
    this.isDirty = false;
    this.isUntitled = uri.scheme === 'untitled';
    this.eol = 1; // EndOfLine.LF
    this._text = text;
  }
  get fileName() {
    return this.uri.fsPath;
  }
  get lineCount() {
    return this._text.split('\n').length;
  }
  getText(range) {
    return range ? this._text.slice(this.offsetAt(range.start), this.offsetAt(range.end)) : this._text;
  }
  // Offsets and characters are UTF-16 code units, as JavaScript strings count them.
  offsetAt(p) {
    const lines = this._text.split('\n');
    let offset = 0;
    for (let i = 0; i < Math.min(p.line, lines.length); i++) offset += lines[i].length + 1;
    const line = lines[Math.min(p.line, lines.length - 1)] || '';
    return Math.min(offset + Math.min(p.character, line.length), this._text.length);
  }
  positionAt(offset) {
    const before = this._text.slice(0, Math.max(0, Math.min(offset, this._text.length))).split('\n');
    return new Position(before.length - 1, before[before.length - 1].length);
  }
  lineAt(lineOrPosition) {
    const line = typeof lineOrPosition === 'number' ? lineOrPosition : lineOrPosition.line;
    const text = this._text.split('\n')[line];
    return { lineNumber: line, text, range: new Range(line, 0, line, text.length) };
  }
  save() {
    return Promise.resolve(true);
  }
}

// --- diagnostics, edits, code actions ---------------------------------------------------------

const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };
const DiagnosticTag = { Unnecessary: 1, Deprecated: 2 };

class Diagnostic {
  constructor(range, message, severity = DiagnosticSeverity.Error) {
    this.range = range;
    this.message = message;
    this.severity = severity;
  }
}

class DiagnosticRelatedInformation {
  constructor(location, message) {
    this.location = location;
    this.message = message;
  }
}

class TextEdit {
  constructor(range, newText) {
    this.range = range;
    this.newText = newText;
  }
  static replace(range, newText) {
    return new TextEdit(range, newText);
  }
  static insert(position, newText) {
    return new TextEdit(new Range(position, position), newText);
  }
  static delete(range) {
    return new TextEdit(range, '');
  }
}

class SnippetString {
  constructor(value = '') {
    this.value = value;
  }
}

class SnippetTextEdit {
  constructor(range, snippet) {
    this.range = range;
    this.snippet = snippet;
  }
}

class WorkspaceEdit {
  constructor() {
    this._edits = new Map(); // uri string -> [uri, TextEdit[]]
    this._files = [];
  }
  _list(uri) {
    const key = uri.toString();
    if (!this._edits.has(key)) this._edits.set(key, [uri, []]);
    return this._edits.get(key)[1];
  }
  replace(uri, range, newText) {
    this._list(uri).push(new TextEdit(range, newText));
  }
  insert(uri, position, newText) {
    this._list(uri).push(TextEdit.insert(position, newText));
  }
  delete(uri, range) {
    this._list(uri).push(TextEdit.delete(range));
  }
  // Edits, or [edit, metadata] pairs (as the client's converter gives them).
  set(uri, edits) {
    const list = this._list(uri);
    list.length = 0;
    for (const e of edits || []) list.push(Array.isArray(e) ? e[0] : e);
  }
  has(uri) {
    return this._edits.has(uri.toString());
  }
  get(uri) {
    return this.has(uri) ? [...this._list(uri)] : [];
  }
  entries() {
    return [...this._edits.values()].map(([uri, edits]) => [uri, [...edits]]);
  }
  get size() {
    return this._edits.size;
  }
  createFile(uri, options) {
    this._files.push({ create: uri, options });
  }
  renameFile(from, to, options) {
    this._files.push({ rename: from, to, options });
  }
  deleteFile(uri, options) {
    this._files.push({ delete: uri, options });
  }
}

class CodeActionKind {
  constructor(value) {
    this.value = value;
  }
  append(part) {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other) {
    return this.value === '' || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
  intersects(other) {
    return this.contains(other) || other.contains(this);
  }
}
for (const [name, value] of Object.entries({
  Empty: '',
  QuickFix: 'quickfix',
  Refactor: 'refactor',
  RefactorExtract: 'refactor.extract',
  RefactorInline: 'refactor.inline',
  RefactorMove: 'refactor.move',
  RefactorRewrite: 'refactor.rewrite',
  Source: 'source',
  SourceOrganizeImports: 'source.organizeImports',
  SourceFixAll: 'source.fixAll',
  Notebook: 'notebook',
})) {
  CodeActionKind[name] = new CodeActionKind(value);
}

class CodeAction {
  constructor(title, kind) {
    this.title = title;
    this.kind = kind;
  }
}

class MarkdownString {
  constructor(value = '', supportThemeIcons = false) {
    this.value = value;
    this.supportThemeIcons = supportThemeIcons;
  }
  appendText(text) {
    this.value += text.replace(/[\\`*_{}[\]()#+\-.!]/g, '\\$&');
    return this;
  }
  appendMarkdown(text) {
    this.value += text;
    return this;
  }
  appendCodeblock(code, language = '') {
    this.value += `\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    return this;
  }
}

class Hover {
  constructor(contents, range) {
    this.contents = Array.isArray(contents) ? contents : [contents];
    this.range = range;
  }
}

// Classes the client only extends or constructs for features uplint's server does not offer.
function plain(...fields) {
  return class {
    constructor(...args) {
      fields.forEach((f, i) => {
        this[f] = args[i];
      });
    }
  };
}

// --- the editor: what the client registers, and the workspace -------------------------------

const shim = {
  documents: [],
  folders: [],
  settings: {},
  providers: [],
  collections: [],
  commands: new Map(),
  messages: [],
  onDidOpen: new EventEmitter(),
  onDidChange: new EventEmitter(),
  onDidClose: new EventEmitter(),
  onDidSave: new EventEmitter(),
  onWillSave: new EventEmitter(),
  onDidSetDiagnostics: new EventEmitter(),
};

shim.openDocument = openDocument;
shim.editDocument = editDocument;

function openDocument(uri, languageId, text) {
  const doc = new TextDocument(uri, languageId, text);
  shim.documents.push(doc);
  shim.onDidOpen.fire(doc);
  return doc;
}

// Replace ranges of a document's text (the edits of one document do not overlap), as the
// editor applies a workspace edit, and tell the listeners.
function editDocument(doc, edits) {
  const sorted = [...edits].sort((a, b) => b.range.start.compareTo(a.range.start));
  const contentChanges = [];
  for (const e of sorted) {
    const rangeOffset = doc.offsetAt(e.range.start);
    const end = doc.offsetAt(e.range.end);
    contentChanges.push({ range: e.range, rangeOffset, rangeLength: end - rangeOffset, text: e.newText });
    doc._text = doc._text.slice(0, rangeOffset) + e.newText + doc._text.slice(end);
  }
  doc.version += 1;
  doc.isDirty = true;
  shim.onDidChange.fire({ document: doc, contentChanges, reason: undefined });
}

// A glob of a document selector (`**`, `*`, `?`; no braces) as a regular expression.
function globToRegExp(glob) {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      out += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`(?:^|/)${out}$`);
}

function documentSelectorMatches(selector, doc) {
  if (Array.isArray(selector)) return selector.some((s) => documentSelectorMatches(s, doc));
  if (typeof selector === 'string') return selector === '*' || selector === doc.languageId;
  if (selector.language && selector.language !== '*' && selector.language !== doc.languageId) return false;
  if (selector.scheme && selector.scheme !== '*' && selector.scheme !== doc.uri.scheme) return false;
  if (selector.pattern) {
    const glob = typeof selector.pattern === 'string' ? selector.pattern : selector.pattern.pattern;
    if (!globToRegExp(glob).test(doc.uri.path)) return false;
  }
  return true;
}

function register(kind) {
  return (selector, provider, ...rest) => {
    const entry = { kind, selector, provider, rest };
    shim.providers.push(entry);
    return new Disposable(() => shim.providers.splice(shim.providers.indexOf(entry), 1));
  };
}

function createDiagnosticCollection(name) {
  const map = new Map();
  const collection = {
    name,
    set(uri, diagnostics) {
      if (Array.isArray(uri)) {
        for (const [u, d] of uri) collection.set(u, d);
        return;
      }
      map.set(uri.toString(), diagnostics || []);
      shim.onDidSetDiagnostics.fire({ uri, diagnostics: diagnostics || [] });
    },
    get: (uri) => map.get(uri.toString()),
    has: (uri) => map.has(uri.toString()),
    delete: (uri) => {
      map.delete(uri.toString());
      shim.onDidSetDiagnostics.fire({ uri, diagnostics: [] });
    },
    clear: () => map.clear(),
    forEach: (f) => map.forEach((d, u) => f(Uri.parse(u), d, collection)),
    dispose: () => map.clear(),
  };
  shim.collections.push(collection);
  return collection;
}

function outputChannel(name) {
  const write = (level) => (text) => {
    if (process.env.UPLINT_VSCODE_TRACE) process.stderr.write(`[${name}${level}] ${text}\n`);
  };
  return {
    name,
    logLevel: 3,
    onDidChangeLogLevel: new EventEmitter().event,
    append: write(''),
    appendLine: write(''),
    replace: write(''),
    trace: write(' trace'),
    debug: write(' debug'),
    info: write(' info'),
    warn: write(' warn'),
    error: write(' error'),
    clear() {},
    show() {},
    hide() {},
    dispose() {},
  };
}

function message(level) {
  return (text) => {
    shim.messages.push({ level, text });
    return Promise.resolve(undefined);
  };
}

const idle = new EventEmitter().event;

const workspace = {
  get textDocuments() {
    return shim.documents.filter((d) => !d.isClosed);
  },
  get workspaceFolders() {
    return shim.folders.length ? shim.folders : undefined;
  },
  notebookDocuments: [],
  getWorkspaceFolder(uri) {
    return shim.folders.find((f) => uri.path === f.uri.path || uri.path.startsWith(`${f.uri.path}/`));
  },
  getConfiguration(section) {
    const prefix = section ? `${section}.` : '';
    return {
      get: (key, fallback) => {
        const v = shim.settings[prefix + key];
        return v === undefined ? fallback : v;
      },
      has: (key) => shim.settings[prefix + key] !== undefined,
      update: () => Promise.resolve(),
    };
  },
  onDidOpenTextDocument: shim.onDidOpen.event,
  onDidChangeTextDocument: shim.onDidChange.event,
  onDidCloseTextDocument: shim.onDidClose.event,
  onDidSaveTextDocument: shim.onDidSave.event,
  onWillSaveTextDocument: shim.onWillSave.event,
  onDidChangeConfiguration: idle,
  onDidChangeWorkspaceFolders: idle,
  onDidOpenNotebookDocument: idle,
  onDidChangeNotebookDocument: idle,
  onDidSaveNotebookDocument: idle,
  onDidCloseNotebookDocument: idle,
  createFileSystemWatcher() {
    return { onDidCreate: idle, onDidChange: idle, onDidDelete: idle, dispose() {} };
  },
  registerTextDocumentContentProvider: () => new Disposable(),
  async applyEdit(edit) {
    for (const [uri, edits] of edit.entries()) {
      const doc = shim.documents.find((d) => d.uri.toString() === uri.toString() && !d.isClosed);
      if (!doc) return false;
      editDocument(doc, edits);
    }
    return true;
  },
};

const window = {
  activeTextEditor: undefined,
  visibleTextEditors: [],
  tabGroups: { all: [], onDidChangeTabs: idle, onDidChangeTabGroups: idle },
  onDidChangeActiveTextEditor: idle,
  onDidChangeVisibleTextEditors: idle,
  createOutputChannel: outputChannel,
  showInformationMessage: message('info'),
  showWarningMessage: message('warning'),
  showErrorMessage: message('error'),
  showTextDocument: () => Promise.resolve(undefined),
  withProgress: (_options, task) => task({ report() {} }, new CancellationTokenSource().token),
};

const languageFeatures = [
  'CallHierarchy', 'CodeActions', 'CodeLens', 'Color', 'CompletionItem', 'Declaration', 'Definition',
  'DocumentFormattingEdit', 'DocumentHighlight', 'DocumentLink', 'DocumentRangeFormattingEdit',
  'DocumentRangeSemanticTokens', 'DocumentSemanticTokens', 'DocumentSymbol', 'FoldingRange', 'Hover',
  'Implementation', 'InlayHints', 'InlineCompletionItem', 'InlineValues', 'LinkedEditingRange',
  'OnTypeFormattingEdit', 'Reference', 'Rename', 'SelectionRange', 'SignatureHelp', 'TypeDefinition',
  'TypeHierarchy', 'WorkspaceSymbol',
];

const languages = {
  match: (selector, doc) => (documentSelectorMatches(selector, doc) ? 10 : 0),
  createDiagnosticCollection,
  getDiagnostics: () => [],
  onDidChangeDiagnostics: idle,
};
for (const f of languageFeatures) languages[`register${f}Provider`] = register(f);

const commands = {
  registerCommand(id, callback, thisArg) {
    shim.commands.set(id, thisArg ? callback.bind(thisArg) : callback);
    return new Disposable(() => shim.commands.delete(id));
  },
  executeCommand(id, ...args) {
    const f = shim.commands.get(id);
    return f ? Promise.resolve(f(...args)) : Promise.reject(new Error(`no command ${id}`));
  },
};

module.exports = {
  version: '1.91.0',
  env: { language: 'en', appName: 'uplint vscode shim', machineId: 'shim', openExternal: () => Promise.resolve(false) },
  workspace,
  window,
  languages,
  commands,
  Disposable,
  EventEmitter,
  CancellationError,
  CancellationTokenSource,
  Uri,
  Position,
  Range,
  Selection,
  Location,
  TextDocument,
  Diagnostic,
  DiagnosticSeverity,
  DiagnosticTag,
  DiagnosticRelatedInformation,
  TextEdit,
  SnippetString,
  SnippetTextEdit,
  WorkspaceEdit,
  CodeActionKind,
  CodeAction,
  CodeActionTriggerKind: { Invoke: 1, Automatic: 2 },
  MarkdownString,
  Hover,
  RelativePattern: plain('baseUri', 'pattern'),
  CompletionItem: plain('label', 'kind'),
  CompletionList: plain('items', 'isIncomplete'),
  CodeLens: plain('range', 'command'),
  DocumentLink: plain('range', 'target'),
  InlayHint: plain('position', 'label', 'kind'),
  CallHierarchyItem: plain('kind', 'name', 'detail', 'uri', 'range', 'selectionRange'),
  TypeHierarchyItem: plain('kind', 'name', 'detail', 'uri', 'range', 'selectionRange'),
  SymbolInformation: plain('name', 'kind', 'containerName', 'location'),
  TabInputText: plain('uri'),
  TabInputTextDiff: plain('original', 'modified'),
  TabInputNotebook: plain('uri', 'notebookType'),
  TabInputCustom: plain('uri', 'viewType'),
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
  NotebookCellKind: { Markup: 1, Code: 2 },
  TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
  EndOfLine: { LF: 1, CRLF: 2 },
  // The test's handle on the editor.
  shim,
};
