//! The wire: JSON-RPC messages framed by `Content-Length` headers, read on a thread of their
//! own so that the server can take every message already sent before it publishes (a burst of
//! changes is scanned once). A malformed frame is skipped and a malformed message answered
//! with a parse error: a client that sends garbage does not end the server.

use std::io::{self, BufRead, Write};

use crossbeam_channel::{Receiver, bounded};
use lsp_server::Message;

/// The largest message body read (a document of 256 MiB, the scan's own limit, as JSON).
const MAX_BODY: usize = 512 * 1024 * 1024;

/// What the reader hands the server.
#[derive(Debug)]
pub enum Incoming {
    /// A message that parsed.
    Message(Message),
    /// A body that is not a JSON-RPC message, and the request id it had if any.
    Invalid {
        id: Option<serde_json::Value>,
        why: String,
    },
}

/// A framing problem: the frame is dropped and reading goes on.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("header line without a value: {0:?}")]
    BadHeader(String),
    #[error("Content-Length is not a number: {0:?}")]
    BadLength(String),
    #[error("message without Content-Length")]
    NoLength,
    #[error("Content-Length {0} is over the limit of {MAX_BODY} bytes")]
    TooLong(usize),
}

/// One frame's body, `Ok(None)` at the end of the stream.
pub fn read_frame(r: &mut impl BufRead) -> io::Result<Option<Result<Vec<u8>, FrameError>>> {
    let mut length = None;
    let mut bad = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        if r.read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        let Some((name, value)) = text.split_once(':') else {
            bad.get_or_insert(FrameError::BadHeader(text.to_string()));
            continue;
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            match value.trim().parse::<usize>() {
                Ok(n) => length = Some(n),
                Err(_) => {
                    bad.get_or_insert(FrameError::BadLength(value.trim().to_string()));
                }
            }
        }
    }
    let Some(n) = length else {
        return Ok(Some(Err(bad.unwrap_or(FrameError::NoLength))));
    };
    if n > MAX_BODY {
        // Skipped without keeping it.
        let mut rest = io::Read::take(&mut *r, n as u64);
        io::copy(&mut rest, &mut io::sink())?;
        return Ok(Some(Err(FrameError::TooLong(n))));
    }
    let mut body = vec![0; n];
    r.read_exact(&mut body)?;
    Ok(Some(bad.map_or(Ok(body), Err)))
}

/// A frame's body as a message.
pub fn parse(body: &[u8]) -> Incoming {
    match serde_json::from_slice::<Message>(body) {
        Ok(m) => Incoming::Message(m),
        Err(e) => {
            let id = serde_json::from_slice::<serde_json::Value>(body)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .filter(|id| id.is_string() || id.is_number());
            Incoming::Invalid {
                id,
                why: e.to_string(),
            }
        }
    }
}

/// Read standard input on a thread: the channel closes at the end of the stream or when the
/// stream fails.
pub fn stdin_reader() -> io::Result<Receiver<Incoming>> {
    let (tx, rx) = bounded(64);
    std::thread::Builder::new()
        .name("uplint-lsp-reader".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            while let Ok(Some(frame)) = read_frame(&mut input) {
                let incoming = match frame {
                    Ok(body) => parse(&body),
                    Err(e) => {
                        eprintln!("uplint server: dropped a frame: {e}");
                        continue;
                    }
                };
                let exit = matches!(&incoming, Incoming::Message(Message::Notification(n)) if n.method == "exit");
                if tx.send(incoming).is_err() || exit {
                    break;
                }
            }
        })?;
    Ok(rx)
}

/// Write one message.
pub fn write(out: &mut impl Write, msg: &serde_json::Value) -> io::Result<()> {
    let text = serde_json::to_string(msg)?;
    write!(out, "Content-Length: {}\r\n\r\n", text.len())?;
    out.write_all(text.as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Result<Vec<u8>, String>> {
        let mut r = io::BufReader::new(input);
        let mut out = Vec::new();
        while let Some(f) = read_frame(&mut r).unwrap_or(None) {
            out.push(f.map_err(|e| e.to_string()));
        }
        out
    }

    #[test]
    fn bad_frames_are_skipped_and_reading_goes_on() {
        let input = b"Content-Length: 2\r\n\r\n{}garbage\r\n\r\nContent-Length: x\r\n\r\nContent-Type: a\r\nContent-Length: 4\r\n\r\nnull";
        let got = frames(input);
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(got[0], Ok(b"{}".to_vec()));
        assert!(got[1].is_err());
        assert!(got[2].is_err());
        assert_eq!(got[3], Ok(b"null".to_vec()));
    }

    #[test]
    fn a_truncated_body_ends_the_stream() {
        assert!(frames(b"Content-Length: 10\r\n\r\n{}").is_empty());
    }

    #[test]
    fn an_invalid_message_keeps_its_id() {
        match parse(br#"{"id": 7, "method": 3}"#) {
            Incoming::Invalid { id, .. } => assert_eq!(id, Some(serde_json::json!(7))),
            other => panic!("{other:?}"),
        }
        assert!(matches!(parse(b"[1,"), Incoming::Invalid { id: None, .. }));
    }
}
