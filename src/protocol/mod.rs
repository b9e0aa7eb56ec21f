//! The engine process: Hub as Scan 3.1 speaks it ([`hub`]) and a UCI-style dialect ([`uci`]), both
//! over one input thread, one search session ([`session`]) and one line writer. `protocol.md` at the
//! top of the repository is the specification.
//!
//! The protocol thread never blocks on the search: it waits on two channels at once, the lines
//! read from stdin by a reader thread and the reports of the search thread, so `ping`/`isready` and
//! `stop` are answered at any moment.

pub use crate::dxp_codec as dxp;
pub mod dxp_player;
pub mod hub;
pub mod session;
pub mod uci;

use crate::game::RuleOption;
use crate::variant::Variant;
use crossbeam_channel::{Receiver, bounded, select};
use session::Report;
use std::io::{BufRead, BufReader, Read, Write};

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

/// Lines read ahead of the engine at most. The reader thread waits when the engine has this many
/// unhandled lines, so a client that floods the input cannot fill memory (five million queued
/// lines took 287-384 MB); at most this many lines of up to [`MAX_LINE`] bytes wait.
///
/// `stop` and `quit` still get through at once during a search: the protocol thread takes lines
/// as they come while the search runs on its own thread (answering `ping` at once and ending the
/// search at any other line), so the queue only fills while the protocol thread itself is busy
/// (a table being resized, a position with a long move list being set up).
pub const QUEUE_LINES: usize = 64;

/// Starts the thread that reads stdin line by line; the channel closes at end of input (or on a
/// read error, which ends input the same way).
pub fn spawn_reader() -> Receiver<Input> {
    spawn_reader_from(std::io::stdin())
}

/// As [`spawn_reader`], reading `input` (tests read from memory). At most [`QUEUE_LINES`] lines
/// wait in the channel.
pub fn spawn_reader_from(input: impl Read + Send + 'static) -> Receiver<Input> {
    let (tx, rx) = bounded(QUEUE_LINES);
    let spawned = std::thread::Builder::new().name("input".into()).spawn(move || {
        let mut lines = LineReader::new(BufReader::new(input));
        while let Some(input) = lines.next_input() {
            if tx.send(input).is_err() {
                break;
            }
        }
    });
    // Without a reader thread the channel is closed at once: the engine sees end of input.
    drop(spawned);
    rx
}

/// Splits input into lines of at most [`MAX_LINE`] bytes. A line ends at `\n`, at `\r`, or at
/// `\r\n` (one end, not an empty line between): clients on every system, and old Mac-style
/// `\r`-only text, must all be read line by line.
///
/// After a `\r` the reader does not wait to see whether a `\n` follows (a client that ends its
/// lines with `\r` alone waits for the answer before it sends more); it remembers the `\r` and
/// skips a `\n` that starts the next read.
#[derive(Debug)]
pub struct LineReader<R> {
    reader: R,
    after_cr: bool,
}

impl<R: BufRead> LineReader<R> {
    /// Reads lines from `reader`.
    pub fn new(reader: R) -> Self {
        LineReader {
            reader,
            after_cr: false,
        }
    }

    /// The next line; `None` at end of input (or on a read error).
    pub fn next_input(&mut self) -> Option<Input> {
        let mut line = Vec::new();
        let mut length = 0usize;
        loop {
            let buf = match self.reader.fill_buf() {
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
            if std::mem::take(&mut self.after_cr) && buf[0] == b'\n' {
                // The `\n` of a `\r\n` whose `\r` ended the previous line.
                self.reader.consume(1);
                continue;
            }
            let (chunk, used, end) = match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => (&buf[..i], i + 1, Some(buf[i])),
                None => (buf, buf.len(), None),
            };
            length += chunk.len();
            if line.len() + chunk.len() <= MAX_LINE {
                line.extend_from_slice(chunk);
            }
            // A `\n` already read after the `\r` is consumed now; otherwise the next call skips it.
            let crlf = end == Some(b'\r') && buf.get(used) == Some(&b'\n');
            self.reader.consume(used + usize::from(crlf));
            if end.is_some() {
                self.after_cr = end == Some(b'\r') && !crlf;
                break;
            }
        }
        if length > MAX_LINE {
            return Some(Input::TooLong(length));
        }
        Some(Input::Line(String::from_utf8_lossy(&line).into_owned()))
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes as [`LineReader`] does; `None` at end of input.
/// Being stateless, it looks past a final `\r` for a `\n` to skip, which waits for input when
/// none is buffered: it is meant for in-memory input (fuzz targets); the engine reads stdin
/// through a [`LineReader`].
pub fn read_line(reader: &mut impl BufRead) -> Option<Input> {
    let mut lines = LineReader::new(&mut *reader);
    let input = lines.next_input()?;
    if lines.after_cr
        && let Ok(buf) = reader.fill_buf()
        && buf.first() == Some(&b'\n')
    {
        reader.consume(1);
    }
    Some(input)
}

/// The most characters of one word (a run without whitespace) that an error message quotes.
pub const QUOTE_MAX: usize = 80;
/// The most characters of an error message.
pub const MESSAGE_MAX: usize = 400;

/// An error message made fit to echo: a word longer than [`QUOTE_MAX`] characters is cut there and
/// marked `...`, and a message still longer than [`MESSAGE_MAX`] is cut there. Messages quote the
/// input they refuse, and a client that sent a megabyte must not get it back (nor its log fill up).
pub fn clip_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(MESSAGE_MAX + 3));
    let mut word = 0;
    let mut total = 0;
    for c in message.chars() {
        if total == MESSAGE_MAX {
            out.push_str("...");
            break;
        }
        if c.is_whitespace() {
            word = 0;
        } else {
            word += 1;
            if word > QUOTE_MAX {
                if word == QUOTE_MAX + 1 {
                    out.push_str("...");
                    total += 3;
                }
                continue;
            }
        }
        out.push(c);
        total += 1;
    }
    out
}

/// Writes protocol lines to stdout, each flushed at once. When stdout is gone (the client closed the
/// pipe), nobody is listening: the process ends quietly.
///
/// [`Out::buffer`] collects the lines in memory instead, for tests and fuzz targets that drive a
/// front-end line by line ([`Face::handle_line`]).
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

/// The errors of several settings applied one after another, joined by `; ` (none: `Ok`): each
/// setting is tried whatever the others gave.
pub fn every_error(results: impl IntoIterator<Item = Result<(), String>>) -> Result<(), String> {
    let errors: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
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

/// What the line loop asks of a protocol front-end ([`hub::Hub`], [`uci::Uci`]): the loop itself,
/// [`Face::run`] and [`Face::handle_line`], is the same for both.
pub trait Face {
    /// Handles one input; `false` means `quit`.
    fn input(&mut self, input: Input) -> bool;
    /// Writes what a search report says.
    fn report(&mut self, report: Report);
    /// The queue the search and the table loader report to.
    fn reports(&self) -> &Receiver<Report>;
    /// At end of input: a search that ends by itself is let finish and answers (a script that
    /// pipes `go` and closes its input wants the result); any other is stopped and answered, as
    /// at `quit`.
    fn end_of_input(&mut self);

    /// Serves lines from `input` (after `first`, a line already read) until `quit` or end of
    /// input, answering the search's reports as they come.
    fn run(mut self, input: Receiver<Input>, first: Option<String>)
    where
        Self: Sized,
    {
        if let Some(line) = first
            && !self.input(Input::Line(line))
        {
            return;
        }
        let reports = self.reports().clone();
        loop {
            select! {
                recv(input) -> msg => match msg {
                    Ok(i) => {
                        if !self.input(i) {
                            return;
                        }
                    }
                    Err(_) => {
                        self.end_of_input();
                        return;
                    }
                },
                recv(reports) -> r => {
                    if let Ok(r) = r {
                        self.report(r);
                    }
                }
            }
        }
    }

    /// Handles one input line as [`Face::run`] does, without a reader thread: the lines it
    /// writes, and those of a search that has ended meanwhile, collect in the front-end's [`Out`]
    /// (see [`Out::buffer`]). `false` means `quit`.
    fn handle_line(&mut self, line: &str) -> bool {
        let go_on = self.input(Input::Line(line.to_string()));
        while let Ok(r) = self.reports().try_recv() {
            self.report(r);
        }
        go_on
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn all_lines(reader: impl BufRead) -> Vec<String> {
        let mut lines = LineReader::new(reader);
        let mut out = Vec::new();
        while let Some(input) = lines.next_input() {
            match input {
                Input::Line(l) => out.push(l),
                Input::TooLong(n) => out.push(format!("<{n}>")),
            }
        }
        out
    }

    /// Endless input: `ping` lines for ever, counting the bytes taken.
    struct Flood(std::sync::Arc<std::sync::atomic::AtomicUsize>);

    impl Read for Flood {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            for (i, b) in buf.iter_mut().enumerate() {
                *b = b"ping\n"[i % 5];
            }
            let n = buf.len() - buf.len() % 5;
            self.0.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
            Ok(n)
        }
    }

    #[test]
    fn the_reader_stops_reading_when_the_engine_is_behind() {
        let taken = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let lines = spawn_reader_from(Flood(taken.clone()));
        std::thread::sleep(std::time::Duration::from_millis(300));
        // The queue and one buffer of the reader (8 KiB), not the megabytes of 300 ms of reading.
        let ahead = taken.load(std::sync::atomic::Ordering::Relaxed);
        assert!(ahead <= 64 * 1024, "read {ahead} bytes ahead");
        assert_eq!(lines.len(), QUEUE_LINES);
        // Taking lines lets it read on.
        for _ in 0..10 * QUEUE_LINES {
            assert_eq!(lines.recv(), Ok(Input::Line("ping".into())));
        }
    }

    #[test]
    fn error_messages_quote_at_most_a_few_words() {
        assert_eq!(clip_message("bad command frobnicate"), "bad command frobnicate");
        let long = "x".repeat(1 << 20);
        let clipped = clip_message(&format!("unknown parameter {long}; see hub"));
        // The rest of the word goes, its trailing `;` with it.
        assert_eq!(
            clipped,
            format!("unknown parameter {}... see hub", "x".repeat(QUOTE_MAX))
        );
        // Many short words: the message as a whole is cut.
        let words = "ab ".repeat(1 << 18);
        let clipped = clip_message(&format!("unknown option {words:?}"));
        assert!(
            clipped.len() <= MESSAGE_MAX + 3 && clipped.ends_with("..."),
            "{clipped}"
        );
        // Characters, not bytes: no cut inside a UTF-8 sequence.
        let wide = "\u{e9}".repeat(200);
        assert_eq!(clip_message(&wide).chars().count(), QUOTE_MAX + 3);
    }

    #[test]
    fn cr_lf_and_crlf_each_end_a_line() {
        let want = ["hub", "ping", "", "quit"];
        for text in [
            "hub\nping\n\nquit\n",
            "hub\rping\r\rquit\r",
            "hub\r\nping\r\n\r\nquit\r\n",
            "hub\r\nping\r\rquit",
        ] {
            assert_eq!(all_lines(Cursor::new(text)), want, "{text:?}");
            let mut cursor = Cursor::new(text);
            let mut stateless = Vec::new();
            while let Some(Input::Line(l)) = read_line(&mut cursor) {
                stateless.push(l);
            }
            assert_eq!(stateless, want, "read_line {text:?}");
        }
    }

    #[test]
    fn a_crlf_split_between_two_reads_is_one_line_end() {
        // The `\r` arrives in one read and its `\n` in the next: no empty line between.
        let split = Cursor::new(&b"hub\r"[..]).chain(Cursor::new(&b"\nping\r"[..]));
        assert_eq!(all_lines(BufReader::with_capacity(4, split)), ["hub", "ping"]);
    }

    #[test]
    fn an_overlong_line_is_measured_up_to_its_cr() {
        let mut text = vec![b'x'; MAX_LINE + 5];
        text.extend_from_slice(b"\rping\r");
        assert_eq!(
            all_lines(Cursor::new(text)),
            [format!("<{}>", MAX_LINE + 5), "ping".to_string()]
        );
    }
}
