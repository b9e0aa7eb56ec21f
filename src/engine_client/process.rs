//! An engine as a child process: its command line, the lines it writes (read on a thread of their
//! own, so that a silent or hung engine never blocks the manager), and the log of the traffic.

use crossbeam_channel::{Receiver, RecvTimeoutError, bounded};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a process gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// The longest line kept from an engine, in bytes; the rest of a longer line is read and dropped,
/// so that an engine writing without newlines cannot fill the manager's memory.
pub const MAX_LINE: usize = 64 << 10;

/// Lines read ahead of the manager. When they are not taken, the reader stops reading and the
/// engine blocks on its own output: a flooding engine costs at most this many lines of memory.
pub const LINE_QUEUE: usize = 1024;

/// Lines of an engine's standard error kept to explain its exit.
pub const STDERR_TAIL: usize = 5;

/// Lines of one engine process's standard error written to the log; an engine that writes more
/// gets a note there, and only its tail is kept from then on (so the log cannot grow without end).
pub const STDERR_LOG_LINES: usize = 10_000;

/// Lines an engine writes in answer to one command that go to the log; past them the log says
/// so once and skips the rest until the next command (a flood cannot fill the disk).
pub const LOG_LINES_PER_ANSWER: usize = 10_000;

/// How long a dead engine's exit status and last standard error are waited for.
const EXIT_WAIT: Duration = Duration::from_millis(300);

/// Reads one line of at most `max` bytes into `buf` (without its newline or a carriage return
/// before it); the rest of a longer line is consumed and dropped
/// ([`crate::fsutil::read_line_limited`]). `Ok(false)` at the end of the input.
///
/// # Errors
/// A read error other than an interruption.
pub fn read_line_capped(r: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> std::io::Result<bool> {
    use crate::fsutil::{LongLine, read_line_limited};
    if read_line_limited(r, buf, max, LongLine::Truncate)? == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
    Ok(true)
}

/// The end of an engine's standard error: its last lines, and whether the stream has ended.
#[derive(Debug, Default)]
struct StderrTail {
    lines: VecDeque<String>,
    ended: bool,
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The engine closed its output or exited (crashed, or quit on its own): what is known, such
    /// as its exit status and last standard error.
    Crashed(String),
    /// No answer before the deadline.
    Timeout,
    /// An answer that breaks the protocol.
    Protocol(String),
    /// A DXP engine ended the game instead of moving, with this reason code (`0` unknown, `1`
    /// it loses, `2` a draw, `3` it wins).
    Ended(char),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crashed(s) => write!(f, "{s}"),
            Failure::Timeout => write!(f, "no answer in time"),
            Failure::Protocol(s) => write!(f, "protocol error: {s}"),
            Failure::Ended(r) => write!(f, "ended the game (DXP reason {r})"),
        }
    }
}

/// Which dialect an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// Hub (Scan 3.1's protocol).
    Hub,
    /// The first Hub protocol (Scan 2.0's): `pos`/`start` and one `move` line per move, `time`,
    /// `level`, `depth`, `go` → `move M [P]`.
    Hub1,
    /// The UCI-style dialect (UCI commands with draughts positions and moves).
    Uci,
}

/// How to start one engine and set it up, from `--engine`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name shown in results and PDN (`None`: the engine's own `id` name).
    pub name: Option<String>,
    /// Program and arguments.
    pub command: Vec<String>,
    /// Working directory of the process.
    pub dir: Option<PathBuf>,
    /// The dialect, when given (`None`: detected).
    pub proto: Option<Proto>,
    /// Engine parameters to set: Hub `set-param`, UCI `setoption`.
    pub options: Vec<(String, String)>,
    /// A DXP engine's address (`dxp://HOST:PORT`); the command, if any, starts it.
    pub dxp: Option<String>,
    /// `restart=on`: a new process for every game, as fastchess and cutechess-cli offer, so that
    /// nothing an engine keeps between games (its tables, a leak) carries over.
    pub restart: bool,
}

/// Splits a command line into words as a POSIX shell does (quotes and backslashes), by `shlex`.
///
/// # Errors
/// An unterminated quote or a trailing backslash.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    shlex::split(text).ok_or_else(|| format!("unbalanced quotes or a trailing backslash in {text:?}"))
}

impl EngineSpec {
    /// Reads an `--engine` value: a command line in which the words `name=N`, `proto=hub|hub1|uci`,
    /// `dir=PATH`, `restart=on|off` and `option.NAME=VALUE` are settings for the manager and every other word is
    /// the command (`cmd=PROGRAM` may also name the program).
    ///
    /// # Errors
    /// An empty command, a bad `proto`, or bad quoting.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: None,
            command: Vec::new(),
            dir: None,
            proto: None,
            options: Vec::new(),
            dxp: None,
            restart: false,
        };
        for word in split_words(text)? {
            if let Some(v) = word.strip_prefix("name=") {
                spec.name = Some(v.to_string());
            } else if let Some(v) = word.strip_prefix("proto=") {
                spec.proto = Some(match v.to_ascii_lowercase().as_str() {
                    "hub" => Proto::Hub,
                    "hub1" => Proto::Hub1,
                    "uci" => Proto::Uci,
                    _ => {
                        return Err(format!("--engine {text:?}: proto is hub, hub1 or uci, not {v:?}"));
                    }
                });
            } else if let Some(v) = word.strip_prefix("dxp://")
                && spec.dxp.is_none()
            {
                spec.dxp = Some(v.to_string());
            } else if let Some(v) = word.strip_prefix("restart=") {
                spec.restart = match v {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("--engine {text:?}: restart is on or off, not {v:?}")),
                };
            } else if let Some(v) = word.strip_prefix("dir=") {
                spec.dir = Some(PathBuf::from(v));
            } else if let Some(v) = word.strip_prefix("cmd=") {
                spec.command.insert(0, v.to_string());
            } else if let Some(rest) = word.strip_prefix("option.") {
                let (n, v) = rest
                    .split_once('=')
                    .ok_or_else(|| format!("--engine {text:?}: {word:?} needs option.NAME=VALUE"))?;
                spec.options.push((n.to_string(), v.to_string()));
            } else {
                spec.command.push(word);
            }
        }
        if spec.command.is_empty() && spec.dxp.is_none() {
            return Err(format!("--engine {text:?}: no command to run"));
        }
        Ok(spec)
    }

    /// How the manager names the engine in its messages and log: the `name=` it was given, or
    /// `engineN` for the `index`-th engine (from 0) without one.
    pub fn label(&self, index: usize) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| format!("engine{}", index + 1))
    }

    /// The program's file name, a fallback display name.
    pub fn program_name(&self) -> String {
        let p = std::path::Path::new(&self.command[0]);
        p.file_name()
            .map_or_else(|| self.command[0].clone(), |f| f.to_string_lossy().into_owned())
    }
}

/// The `--log` file: every line sent and received, with time, engine and process id.
#[derive(Debug)]
pub struct Log {
    file: Mutex<File>,
    start: Instant,
    path: PathBuf,
    /// The first write error; the log is not written after it.
    failed: Mutex<Option<String>>,
}

impl Log {
    /// Creates (truncates) the log file and writes its first line, so that a file that cannot be
    /// written (a full disk, `/dev/full`) fails before any game.
    ///
    /// # Errors
    /// The file cannot be created or written.
    pub fn create(path: &std::path::Path) -> Result<Log, String> {
        let mut file =
            File::create(path).map_err(|e| format!("cannot create log {}: {e}", path.display()))?;
        writeln!(
            file,
            "# tempo match log: seconds, engine#pid, > sent, < received, ! standard error"
        )
        .map_err(|e| format!("cannot write log {}: {e}", path.display()))?;
        Ok(Log {
            file: Mutex::new(file),
            start: Instant::now(),
            path: path.to_path_buf(),
            failed: Mutex::new(None),
        })
    }

    /// Appends one line. The first failure is said at once on standard error and kept for
    /// [`Log::error`]; later lines are dropped.
    pub fn line(&self, who: &str, dir: &str, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        let Ok(mut failed) = self.failed.lock() else {
            return;
        };
        if failed.is_some() {
            return;
        }
        if let Ok(mut f) = self.file.lock()
            && let Err(e) = writeln!(f, "{t:10.3} {who} {dir} {text}")
        {
            let message = format!("cannot write log {}: {e}", self.path.display());
            crate::stderr_line!("tempo match: warning: {message}; the log stops here");
            *failed = Some(message);
        }
    }

    /// The first write error, if any.
    pub fn error(&self) -> Option<String> {
        self.failed.lock().ok().and_then(|f| f.clone())
    }
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<StderrTail>>,
    who: String,
    log: Option<Arc<Log>>,
    /// Lines received since the last line sent.
    answer_lines: usize,
}

impl std::fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EngineProcess({})", self.who)
    }
}

impl EngineProcess {
    /// Starts the engine's command; its output is read on a thread of its own into a bounded
    /// queue ([`LINE_QUEUE`] lines of at most [`MAX_LINE`] bytes), its standard error on another
    /// (to the log, and its last [`STDERR_TAIL`] lines kept to explain an exit).
    ///
    /// # Errors
    /// The program cannot be started (not found, not executable, bad directory).
    pub fn start(spec: &EngineSpec, label: &str, log: Option<Arc<Log>>) -> Result<EngineProcess, String> {
        let mut cmd = Command::new(&spec.command[0]);
        cmd.args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        // A process group of its own, so that whatever the engine starts (a shell script's
        // children, a helper process) ends with it: see [`EngineProcess::end_group`].
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().map_err(|e| {
            format!(
                "cannot start engine {:?}{}: {e}",
                spec.command.join(" "),
                spec.dir
                    .as_ref()
                    .map(|d| format!(" in {}", d.display()))
                    .unwrap_or_default()
            )
        })?;
        let who = format!("{label}#{}", child.id());
        let stdout = child.stdout.take().ok_or("engine stdout missing")?;
        let (tx, lines) = bounded(LINE_QUEUE);
        std::thread::Builder::new()
            .name(format!("read {who}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                // Ends at the end of the output, or when the manager has dropped the engine.
                while let Ok(true) = read_line_capped(&mut reader, &mut buf, MAX_LINE) {
                    if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let tail = Arc::new(Mutex::new(StderrTail::default()));
        if let Some(stderr) = child.stderr.take() {
            let who = who.clone();
            let log = log.clone();
            let tail = Arc::clone(&tail);
            // The stream is always drained, so that an engine writing much to standard error
            // never blocks on it.
            std::thread::Builder::new()
                .name(format!("stderr {who}"))
                .spawn(move || {
                    let mut reader = BufReader::new(stderr);
                    let mut buf = Vec::new();
                    let mut logged = 0;
                    while let Ok(true) = read_line_capped(&mut reader, &mut buf, MAX_LINE) {
                        let line = String::from_utf8_lossy(&buf);
                        if let Some(log) = &log {
                            logged += 1;
                            match logged.cmp(&(STDERR_LOG_LINES + 1)) {
                                std::cmp::Ordering::Less => log.line(&who, "!", &line),
                                std::cmp::Ordering::Equal => log.line(
                                    &who,
                                    "!",
                                    &format!(
                                        "[more standard error: not logged after {STDERR_LOG_LINES} lines]"
                                    ),
                                ),
                                std::cmp::Ordering::Greater => {}
                            }
                        }
                        if let Ok(mut t) = tail.lock() {
                            if t.lines.len() == STDERR_TAIL {
                                t.lines.pop_front();
                            }
                            t.lines.push_back(line.into_owned());
                        }
                    }
                    if let Ok(mut t) = tail.lock() {
                        t.ended = true;
                    }
                })
                .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        }
        Ok(EngineProcess {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: tail,
            who,
            log,
            answer_lines: 0,
        })
    }

    /// What is known of an engine that stopped answering: whether it exited (and how), with its
    /// last lines of standard error, or else `what` went wrong.
    fn gone(&mut self, what: &str) -> Failure {
        let until = Instant::now() + EXIT_WAIT;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        let Some(status) = status else {
            return Failure::Crashed(what.to_string());
        };
        // The standard error reader ends soon after the process.
        while Instant::now() < until && !self.stderr.lock().is_ok_and(|t| t.ended) {
            std::thread::sleep(Duration::from_millis(5));
        }
        let tail: Vec<String> = self
            .stderr
            .lock()
            .map(|t| t.lines.iter().cloned().collect())
            .unwrap_or_default();
        let mut text = format!("the engine exited ({status})");
        if !tail.is_empty() {
            text += &format!("; its last standard error: {}", tail.join(" | "));
        }
        Failure::Crashed(text)
    }

    /// The label and process id, for messages.
    pub fn who(&self) -> &str {
        &self.who
    }

    /// Writes one line.
    ///
    /// # Errors
    /// [`Failure::Crashed`] when the engine's input is closed.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.answer_lines = 0;
        if let Some(log) = &self.log {
            log.line(&self.who, ">", line);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Failure::Crashed("input closed".into()));
        };
        match stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
        {
            Ok(()) => Ok(()),
            Err(e) => Err(self.gone(&format!("cannot write to the engine: {e}"))),
        }
    }

    /// The next line, waiting until `deadline` at most. The deadline holds even when lines are
    /// waiting: an engine that writes without end times out like a silent one.
    ///
    /// # Errors
    /// [`Failure::Timeout`] at the deadline, [`Failure::Crashed`] when the output is closed.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, Failure> {
        let now = Instant::now();
        if now >= deadline {
            return Err(Failure::Timeout);
        }
        let wait = deadline - now;
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.answer_lines += 1;
                if let Some(log) = &self.log {
                    match self.answer_lines.cmp(&(LOG_LINES_PER_ANSWER + 1)) {
                        std::cmp::Ordering::Less => log.line(&self.who, "<", &line),
                        std::cmp::Ordering::Equal => log.line(
                            &self.who,
                            "<",
                            &format!("[more lines: not logged after {LOG_LINES_PER_ANSWER} in one answer]"),
                        ),
                        std::cmp::Ordering::Greater => {}
                    }
                }
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(self.gone("the engine closed its output")),
        }
    }

    /// Reads lines until one satisfies `done`, returning it; every line is also given to `each`.
    ///
    /// # Errors
    /// As [`EngineProcess::recv`].
    pub fn recv_until(
        &mut self,
        deadline: Instant,
        mut each: impl FnMut(&str),
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, Failure> {
        loop {
            let line = self.recv(deadline)?;
            each(&line);
            if done(&line) {
                return Ok(line);
            }
        }
    }

    /// Sends `quit` (when given), waits a moment for the process to end, then kills it.
    pub fn shutdown(&mut self, quit: Option<&str>) {
        if let Some(q) = quit {
            let _ = self.send(q);
        }
        // Closing the input is the other way to ask a Hub or UCI engine to leave.
        self.stdin = None;
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.end_group();
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the process at once and reaps it, and ends the processes it started.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.end_group();
    }

    /// Kills what is left of the engine's process group (the engine leads it, see
    /// [`EngineProcess::start`]): processes the engine started that outlived it. Called once the
    /// engine itself has been reaped.
    #[allow(unsafe_code)]
    fn end_group(&mut self) {
        #[cfg(unix)]
        if let Ok(pgid) = i32::try_from(self.child.id()) {
            // SAFETY: `kill` reads no memory; a negative pid names the process group, here the
            // one this process created for the engine. ESRCH (nothing left) is the usual answer.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_the_rest_dropped() {
        let text = format!("short\r\n{}\nnext\nlast", "x".repeat(100));
        let mut r = std::io::BufReader::with_capacity(16, text.as_bytes());
        let mut buf = Vec::new();
        let mut lines = Vec::new();
        while read_line_capped(&mut r, &mut buf, 10).unwrap() {
            lines.push(String::from_utf8(buf.clone()).unwrap());
        }
        assert_eq!(lines, ["short", "xxxxxxxxxx", "next", "last"]);
    }

    #[test]
    fn words_split_like_a_shell() {
        assert_eq!(split_words("a  b\tc").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            split_words("'a b' \"c \\\" d\" e\\ f").unwrap(),
            ["a b", "c \" d", "e f"]
        );
        assert_eq!(split_words("x='1 2'").unwrap(), ["x=1 2"]);
        assert_eq!(split_words("''").unwrap(), [""]);
        assert!(split_words("'open").is_err());
        assert!(split_words("\"open").is_err());
        assert!(split_words("end\\").is_err());
    }

    #[test]
    fn engine_specs_separate_settings_from_the_command() {
        let s = EngineSpec::parse("target/release/tempo hub name=T proto=HUB option.tt-size=20 dir=/tmp")
            .unwrap();
        assert_eq!(s.command, ["target/release/tempo", "hub"]);
        assert_eq!(s.name.as_deref(), Some("T"));
        assert_eq!(s.proto, Some(Proto::Hub));
        assert_eq!(s.options, [("tt-size".to_string(), "20".to_string())]);
        assert_eq!(s.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(s.program_name(), "tempo");
        let s = EngineSpec::parse("uci cmd=/bin/eng 'option.Hash=16'").unwrap();
        assert_eq!(s.command, ["/bin/eng", "uci"]);
        assert!(!s.restart);
        assert!(EngineSpec::parse("e hub restart=on").unwrap().restart);
        assert!(EngineSpec::parse("e hub restart=yes").is_err());
        assert!(EngineSpec::parse("name=x").is_err());
        assert!(EngineSpec::parse("e proto=dxp").is_err());
        assert_eq!(
            EngineSpec::parse("scan hub proto=Hub1").unwrap().proto,
            Some(Proto::Hub1)
        );
        assert!(EngineSpec::parse("e option.x").is_err());
    }
}
