//! `uplint server`: the Language Server Protocol over standard input and output. Documents are
//! scanned as `uplint scan` scans their files (the same classification, settings, findings and
//! fixes), on open, change and save; their findings become diagnostics, their fixes and the
//! inline suppression code actions, and the hover on a finding says what `uplint explain` says.
//!
//! Messages already sent are taken together before diagnostics are published: a burst of
//! changes costs one scan. A request the server does not know is answered `MethodNotFound`, a
//! notification it does not know is ignored, malformed input is answered or skipped, and the
//! end of the input ends the server: nothing a client sends makes it panic.

mod actions;
mod ci;
mod document;
mod engine;
mod text;
mod transport;

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    DidChangeTextDocumentParams, DidChangeWatchedFilesParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, HoverParams, HoverProviderCapability,
    InitializeResult, PublishDiagnosticsParams, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Uri,
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use document::Document;
use engine::Engine;
pub use engine::StartError;
use transport::Incoming;

/// Why the server stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error(transparent)]
    Start(#[from] StartError),
    /// Standard output failed: the client is gone.
    #[error("cannot write to the client: {0}")]
    Io(#[from] std::io::Error),
}

/// How the session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// `exit` after `shutdown`.
    Clean,
    /// `exit` without `shutdown`, or the input ended first.
    Abrupt,
}

/// Serve the client on standard input and output, with the data files of the command line.
pub fn run(data: Vec<PathBuf>) -> Result<End, ServerError> {
    // The data is checked before the first message: a server that cannot scan says so at once.
    let (engine, _) = Engine::load(&data, None)?;
    let rx = transport::stdin_reader()?;
    let mut server = Server {
        out: std::io::stdout(),
        data,
        root: None,
        engine,
        docs: HashMap::new(),
        dirty: BTreeSet::new(),
        state: State::Uninitialized,
        watch_config: false,
        next_id: 0,
    };
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        batch.extend(rx.try_iter());
        for incoming in batch {
            if let Some(end) = server.handle(incoming)? {
                return Ok(end);
            }
        }
        server.publish_dirty()?;
    }
    Ok(End::Abrupt)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Uninitialized,
    Running,
    ShutDown,
}

struct Server {
    out: std::io::Stdout,
    /// `--data` of the command line.
    data: Vec<PathBuf>,
    root: Option<PathBuf>,
    engine: Engine,
    docs: HashMap<Uri, Document>,
    /// Documents whose diagnostics are to be published.
    dirty: BTreeSet<Uri>,
    state: State,
    /// Register a watcher of `.uplint.yml` once initialized.
    watch_config: bool,
    next_id: i64,
}

/// A request's failure, answered with its code.
struct Refusal(ErrorCode, String);

fn params<P: DeserializeOwned>(v: Value) -> Result<P, Refusal> {
    serde_json::from_value(v).map_err(|e| Refusal(ErrorCode::InvalidParams, e.to_string()))
}

impl Server {
    fn send(&mut self, msg: impl serde::Serialize) -> std::io::Result<()> {
        let mut v = serde_json::to_value(msg)?;
        if let Some(o) = v.as_object_mut() {
            o.insert("jsonrpc".into(), json!("2.0"));
        }
        transport::write(&mut self.out.lock(), &v)
    }

    fn notify(&mut self, method: &str, params: impl serde::Serialize) -> std::io::Result<()> {
        self.send(Message::Notification(Notification::new(
            method.to_string(),
            params,
        )))
    }

    fn show_error(&mut self, message: String) -> std::io::Result<()> {
        self.notify(
            "window/showMessage",
            json!({"type": 1, "message": format!("uplint: {message}")}),
        )
    }

    fn handle(&mut self, incoming: Incoming) -> Result<Option<End>, ServerError> {
        match incoming {
            Incoming::Invalid { id, why } => {
                let code = if id.is_some() {
                    ErrorCode::InvalidRequest
                } else {
                    ErrorCode::ParseError
                };
                self.send(json!({
                    "jsonrpc": "2.0",
                    "id": id,
                    "error": {"code": code as i32, "message": why},
                }))?;
            }
            Incoming::Message(Message::Response(_)) => {}
            Incoming::Message(Message::Request(req)) => self.request(req)?,
            Incoming::Message(Message::Notification(n)) => {
                if n.method == "exit" {
                    return Ok(Some(if self.state == State::ShutDown {
                        End::Clean
                    } else {
                        End::Abrupt
                    }));
                }
                if self.state == State::Running {
                    self.notification(n)?;
                }
            }
        }
        Ok(None)
    }

    fn request(&mut self, req: Request) -> Result<(), ServerError> {
        let Request { id, method, params } = req;
        let answer = match (self.state, method.as_str()) {
            (State::Uninitialized, "initialize") => self.initialize(params),
            (State::Uninitialized, _) => Err(Refusal(
                ErrorCode::ServerNotInitialized,
                "the server is not initialized".into(),
            )),
            (State::ShutDown, _) => Err(Refusal(
                ErrorCode::InvalidRequest,
                "the server was shut down".into(),
            )),
            (State::Running, "initialize") => Err(Refusal(
                ErrorCode::InvalidRequest,
                "the server is already initialized".into(),
            )),
            (State::Running, "shutdown") => {
                self.state = State::ShutDown;
                Ok(Value::Null)
            }
            (State::Running, "textDocument/codeAction") => self.code_action(params),
            (State::Running, "textDocument/hover") => self.hover(params),
            (State::Running, m) => Err(Refusal(
                ErrorCode::MethodNotFound,
                format!("unknown method {m}"),
            )),
        };
        let response = match answer {
            Ok(v) => Response::new_ok(id, v),
            Err(Refusal(code, message)) => Response::new_err(id, code as i32, message),
        };
        self.send(Message::Response(response))?;
        Ok(())
    }

    fn initialize(&mut self, p: Value) -> Result<Value, Refusal> {
        if !p.is_object() {
            return Err(Refusal(
                ErrorCode::InvalidParams,
                "initialize needs InitializeParams".into(),
            ));
        }
        self.root = workspace_root(&p);
        self.watch_config = p
            .pointer("/capabilities/workspace/didChangeWatchedFiles/dynamicRegistration")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        self.state = State::Running;
        let result = InitializeResult {
            capabilities: capabilities(),
            server_info: Some(ServerInfo {
                name: "uplint".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        };
        serde_json::to_value(result).map_err(|e| Refusal(ErrorCode::InternalError, e.to_string()))
    }

    fn code_action(&mut self, p: Value) -> Result<Value, Refusal> {
        let p: CodeActionParams = params(p)?;
        let uri = p.text_document.uri;
        let Some(doc) = self.docs.get_mut(&uri) else {
            return Ok(Value::Null);
        };
        let wanted = actions::Wanted(p.context.only, p.context.diagnostics);
        let found = actions::code_actions(&self.engine, &uri, doc, p.range, &wanted);
        serde_json::to_value(found).map_err(|e| Refusal(ErrorCode::InternalError, e.to_string()))
    }

    fn hover(&mut self, p: Value) -> Result<Value, Refusal> {
        let p: HoverParams = params(p)?;
        let at = p.text_document_position_params;
        let Some(doc) = self.docs.get_mut(&at.text_document.uri) else {
            return Ok(Value::Null);
        };
        let h = actions::hover(&self.engine, doc, at.position);
        serde_json::to_value(h).map_err(|e| Refusal(ErrorCode::InternalError, e.to_string()))
    }

    fn notification(&mut self, n: Notification) -> Result<(), ServerError> {
        let done = match n.method.as_str() {
            "initialized" => return self.initialized(),
            "textDocument/didOpen" => params(n.params).map(|p| self.did_open(p)),
            "textDocument/didChange" => params(n.params).map(|p| self.did_change(p)),
            "textDocument/didClose" => match params(n.params) {
                Ok(p) => return self.did_close(p),
                Err(e) => Err(e),
            },
            "textDocument/didSave" => match params(n.params) {
                Ok(p) => return self.did_save(p),
                Err(e) => Err(e),
            },
            "workspace/didChangeWatchedFiles" => match params(n.params) {
                Ok(p) => return self.did_change_watched(p),
                Err(e) => Err(e),
            },
            // `$/cancelRequest`, `$/setTrace`, and whatever else: nothing to do.
            _ => Ok(()),
        };
        if let Err(Refusal(_, why)) = done {
            eprintln!("uplint server: ignored {}: {why}", n.method);
        }
        Ok(())
    }

    /// Read the workspace's settings; watch `.uplint.yml` where the client can.
    fn initialized(&mut self) -> Result<(), ServerError> {
        self.reload()?;
        if self.watch_config {
            self.next_id += 1;
            let req = Request::new(
                RequestId::from(format!("uplint-{}", self.next_id)),
                "client/registerCapability".into(),
                json!({"registrations": [{
                    "id": "uplint-config",
                    "method": "workspace/didChangeWatchedFiles",
                    "registerOptions": {"watchers": [
                        {"globPattern": "**/.uplint.yml"},
                        {"globPattern": "**/.uplint.yaml"},
                    ]},
                }]}),
            );
            self.send(Message::Request(req))?;
        }
        Ok(())
    }

    /// Build the engine again from the data and the workspace's `.uplint.yml`, and scan every
    /// open document again.
    fn reload(&mut self) -> Result<(), ServerError> {
        match Engine::load(&self.data, self.root.as_deref()) {
            Ok((engine, problem)) => {
                self.engine = engine;
                if let Some(why) = problem {
                    self.show_error(format!("settings not applied: {why}"))?;
                }
            }
            Err(e) => self.show_error(format!("cannot load the data: {e}"))?,
        }
        for (uri, doc) in &mut self.docs {
            doc.reclassify(uri.as_str(), self.root.as_deref(), &self.engine.ci);
            doc.invalidate();
            self.dirty.insert(uri.clone());
        }
        Ok(())
    }

    /// Read the workspace's CI project again (a file that may be part of it was saved): the
    /// documents whose kind changed, and those of the project, are scanned again.
    fn refresh_ci(&mut self) {
        self.engine.ci = ci::CiContext::read(self.root.as_deref());
        for (uri, doc) in &mut self.docs {
            let changed = doc.reclassify(uri.as_str(), self.root.as_deref(), &self.engine.ci);
            if changed || doc.kind.as_ref().is_some_and(|k| k.ci_project.is_some()) {
                doc.invalidate();
                self.dirty.insert(uri.clone());
            }
        }
    }

    fn did_open(&mut self, p: DidOpenTextDocumentParams) {
        let d = p.text_document;
        let doc = Document::new(
            d.uri.as_str(),
            d.language_id,
            d.text,
            self.root.as_deref(),
            &self.engine.ci,
        );
        self.docs.insert(d.uri.clone(), doc);
        self.dirty.insert(d.uri);
    }

    fn did_change(&mut self, p: DidChangeTextDocumentParams) {
        let uri = p.text_document.uri;
        if let Some(doc) = self.docs.get_mut(&uri) {
            for c in p.content_changes {
                doc.change(c);
            }
            self.dirty.insert(uri);
        }
    }

    fn did_close(&mut self, p: DidCloseTextDocumentParams) -> Result<(), ServerError> {
        let uri = p.text_document.uri;
        self.dirty.remove(&uri);
        if self.docs.remove(&uri).is_some() {
            self.publish(uri, Vec::new())?;
        }
        Ok(())
    }

    fn did_save(&mut self, p: DidSaveTextDocumentParams) -> Result<(), ServerError> {
        let uri = p.text_document.uri;
        let mut ci_part = false;
        if let Some(doc) = self.docs.get_mut(&uri) {
            if let Some(text) = p.text {
                let language = std::mem::take(&mut doc.language);
                let (root, ci) = (self.root.as_deref(), &self.engine.ci);
                *doc = Document::new(uri.as_str(), language, text, root, ci);
            }
            ci_part = may_be_ci(uri.as_str(), doc);
            self.dirty.insert(uri.clone());
        }
        if is_config(uri.as_str()) {
            self.reload()?;
        } else if ci_part {
            self.refresh_ci();
        }
        Ok(())
    }

    fn did_change_watched(&mut self, p: DidChangeWatchedFilesParams) -> Result<(), ServerError> {
        if p.changes.iter().any(|c| is_config(c.uri.as_str())) {
            self.reload()?;
        }
        Ok(())
    }

    fn publish(
        &mut self,
        uri: Uri,
        diagnostics: Vec<lsp_types::Diagnostic>,
    ) -> std::io::Result<()> {
        self.notify(
            "textDocument/publishDiagnostics",
            PublishDiagnosticsParams {
                uri,
                diagnostics,
                version: None,
            },
        )
    }

    /// Publish the diagnostics of every document changed since the last time.
    fn publish_dirty(&mut self) -> Result<(), ServerError> {
        for uri in std::mem::take(&mut self.dirty) {
            let Some(doc) = self.docs.get_mut(&uri) else {
                continue;
            };
            let (text, findings) = doc.analysed(&self.engine);
            let diagnostics = findings
                .iter()
                .map(|f| actions::diagnostic(text, f))
                .collect();
            self.publish(uri, diagnostics)?;
        }
        Ok(())
    }
}

/// May the saved document be (or become) part of the workspace's CI project: CI configuration,
/// a file the project includes, or a YAML file (which an include may name)?
fn may_be_ci(uri: &str, doc: &Document) -> bool {
    let Some(kind) = doc.kind.as_ref() else {
        return false;
    };
    kind.file.is_some()
        && (kind.ci_project.is_some()
            || kind.class.kind == crate::syntax::FileKind::Ci
            || uri.ends_with(".yml")
            || uri.ends_with(".yaml"))
}

/// Is the URI a configuration file's (`.uplint.yml`)?
fn is_config(uri: &str) -> bool {
    let name = uri.rsplit('/').next().unwrap_or("");
    crate::config::FILE_NAMES.contains(&name)
}

/// The workspace's root directory: the first workspace folder, else `rootUri`, else `rootPath`.
fn workspace_root(p: &Value) -> Option<PathBuf> {
    let uri = p
        .pointer("/workspaceFolders/0/uri")
        .or_else(|| p.get("rootUri"))
        .and_then(Value::as_str);
    uri.and_then(document::file_path).or_else(|| {
        p.get("rootPath")
            .and_then(Value::as_str)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    })
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(true),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::from(actions::FIX_ALL),
            ]),
            ..CodeActionOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

/// The path a document is shown as in a workspace at `root` (for tests of the module).
#[cfg(test)]
fn shown(uri: &str, root: &std::path::Path) -> Option<String> {
    document::kind_of(uri, "", Some(root)).map(|k| k.shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_is_the_first_workspace_folder() {
        let p = json!({"workspaceFolders": [{"uri": "file:///a/b", "name": "b"}], "rootUri": "file:///c"});
        assert_eq!(workspace_root(&p), Some(PathBuf::from("/a/b")));
        let p = json!({"rootUri": null, "rootPath": "/d"});
        assert_eq!(workspace_root(&p), Some(PathBuf::from("/d")));
        assert_eq!(workspace_root(&json!({"rootUri": 3})), None);
        assert_eq!(
            shown("file:///a/b/x/values.yaml", std::path::Path::new("/a/b")).as_deref(),
            Some("x/values.yaml")
        );
        assert!(is_config("file:///a/.uplint.yml"));
        assert!(!is_config("file:///a/uplint.yml"));
    }
}
