//! The engine process: Hub as Scan 3.1 speaks it ([`hub`]) and a UCI-style dialect ([`uci`]), both
//! over one input thread, one search session ([`session`]) and one line writer. `protocol.md` at the
//! top of the repository is the specification.
//!
//! The protocol thread never blocks on the search: it waits on two channels at once, the lines
//! read from stdin by a reader thread and the reports of the search thread, so `ping`/`isready` and
//! `stop` are answered at any moment.

pub mod hub;
pub mod session;
pub mod uci;

use crate::game::RuleOption;
use crate::variant::Variant;
use crossbeam_channel::{Receiver, unbounded};
use std::io::{BufRead, Write};

/// The longest input line read whole; the rest of a longer line is skipped and the line refused.
pub const MAX_LINE: usize = 1 << 20;

/// A protocol dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The Hub protocol (Scan 3.1).
    Hub,
    /// The UCI-style dialect.
    Uci,
}

/// One thing read from stdin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line, without its end of line (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes (its length), skipped.
    TooLong(usize),
}

/// Starts the thread that reads stdin line by line; the channel closes at end of input (or on a
/// read error, which ends input the same way).
pub fn spawn_reader() -> Receiver<Input> {
    let (tx, rx) = unbounded();
    let spawned = std::thread::Builder::new().name("input".into()).spawn(move || {
        let stdin = std::io::stdin();
        let mut reader = stdin.lock();
        while let Some(input) = read_line(&mut reader) {
            if tx.send(input).is_err() {
                break;
            }
        }
    });
    // Without a reader thread the channel is closed at once: the engine sees end of input.
    drop(spawned);
    rx
}

/// Reads one line of at most [`MAX_LINE`] bytes; `None` at end of input.
pub fn read_line(reader: &mut impl BufRead) -> Option<Input> {
    let mut line = Vec::new();
    let mut length = 0usize;
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buf.is_empty() {
            if length == 0 {
                return None;
            }
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        length += chunk.len();
        if line.len() + chunk.len() <= MAX_LINE {
            line.extend_from_slice(chunk);
        }
        let newline = done > chunk.len();
        reader.consume(done);
        if newline {
            break;
        }
    }
    if length > MAX_LINE {
        return Some(Input::TooLong(length));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(Input::Line(String::from_utf8_lossy(&line).into_owned()))
}

/// Writes protocol lines to stdout, each flushed at once. When stdout is gone (the client closed the
/// pipe), nobody is listening: the process ends quietly.
///
/// [`Out::buffer`] collects the lines in memory instead, for tests and fuzz targets that drive a
/// front-end line by line (`Hub::handle_line`, `Uci::handle_line`).
#[derive(Debug, Default)]
pub struct Out {
    buffer: Option<Vec<String>>,
}

impl Out {
    /// Lines go to stdout.
    pub fn stdout() -> Out {
        Out { buffer: None }
    }

    /// Lines are kept in memory; [`Out::take`] hands them over.
    pub fn buffer() -> Out {
        Out {
            buffer: Some(Vec::new()),
        }
    }

    /// The lines collected since the last call (always none when writing to stdout).
    pub fn take(&mut self) -> Vec<String> {
        self.buffer.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Writes one line and flushes it. Control characters and Unicode line separators (which an
    /// error message may echo from the input) become `?`: a client that also breaks lines at `\r`
    /// must still read one line.
    pub fn line(&mut self, text: &str) {
        let clean;
        let text = if text.contains(breaks_line) {
            clean = text.replace(breaks_line, "?");
            &clean
        } else {
            text
        };
        if let Some(buffer) = &mut self.buffer {
            buffer.push(text.to_string());
            return;
        }
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        if writeln!(lock, "{text}").and_then(|()| lock.flush()).is_err() {
            std::process::exit(0);
        }
    }
}

/// A character that has no place inside a protocol line: a control character other than tab, or a
/// Unicode line or paragraph separator.
fn breaks_line(c: char) -> bool {
    (c.is_control() && c != '\t') || c == '\u{2028}' || c == '\u{2029}'
}

/// Every rule option of every game, one entry per name (games that share an option share the
/// entry), in the order the games list them.
pub fn rule_options() -> Vec<RuleOption> {
    let mut all: Vec<RuleOption> = Vec::new();
    for v in Variant::ALL {
        let options = crate::with_variant!(v, G => <G as crate::game::Game>::options());
        for o in options {
            if !all.iter().any(|a| a.name == o.name) {
                all.push(*o);
            }
        }
    }
    all
}

/// Checks a rule option setting against the union of the games' options.
///
/// # Errors
/// An unknown name or a value it does not take.
pub fn check_rule_option(name: &str, value: &str) -> Result<(), String> {
    let options = rule_options();
    let option = options
        .iter()
        .find(|o| o.name == name)
        .ok_or_else(|| format!("unknown option {name:?}"))?;
    if option.values.contains(&value) {
        Ok(())
    } else {
        Err(format!(
            "option {name} takes {}, not {value:?}",
            option.values.join(" or ")
        ))
    }
}

/// Runs the engine on stdin/stdout in `dialect`, or, with `None`, in the dialect its first line
/// names (`hub` or `uci`). Returns at `quit` or end of input.
pub fn run(dialect: Option<Dialect>) {
    let input = spawn_reader();
    let mut out = Out::stdout();
    let (dialect, first) = match dialect {
        Some(d) => (d, None),
        None => loop {
            match input.recv() {
                Err(_) => return,
                Ok(Input::Line(l)) => match l.split_whitespace().next() {
                    Some("hub") => break (Dialect::Hub, Some(l)),
                    Some("uci") => break (Dialect::Uci, Some(l)),
                    Some("quit") => return,
                    None => {}
                    Some(_) => out.line(
                        "error message=\"send hub or uci first to choose the protocol; see tempo --help\"",
                    ),
                },
                Ok(Input::TooLong(_)) => out
                    .line("error message=\"send hub or uci first to choose the protocol; see tempo --help\""),
            }
        },
    };
    quiet_panics(dialect);
    match dialect {
        Dialect::Hub => hub::Hub::new(out).run(input, first),
        Dialect::Uci => uci::Uci::new(out).run(input, first),
    }
}

/// Reports a panic (a bug) as a protocol error line instead of text on stderr, which clients merge
/// into the protocol stream or never read. A panic in the search is caught and the engine still
/// answers (see [`crate::engine::Engine::go_with`]).
fn quiet_panics(dialect: Dialect) {
    std::panic::set_hook(Box::new(move |info| {
        let what = format!("internal error: {info}").replace(['\n', '\r'], " ");
        let line = match dialect {
            Dialect::Hub => format!("error message={}", hub::quote(&what)),
            Dialect::Uci => format!("info string error: {what}"),
        };
        let mut stdout = std::io::stdout();
        let _ = writeln!(stdout, "{line}").and_then(|()| stdout.flush());
    }));
}
