//! An engine as a child process: its command line, the lines it writes (read on a thread of their
//! own, so that a silent or hung engine never blocks the manager), and the log of the traffic.

use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a process gets to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The engine closed its output or exited (crashed, or quit on its own).
    Crashed(String),
    /// No answer before the deadline.
    Timeout,
    /// An answer that breaks the protocol.
    Protocol(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crashed(s) => write!(f, "disconnected ({s})"),
            Failure::Timeout => write!(f, "no answer in time"),
            Failure::Protocol(s) => write!(f, "protocol error: {s}"),
        }
    }
}

/// Which dialect an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// Hub (Scan 3.1's protocol).
    Hub,
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
}

/// Splits a command line into words as a POSIX shell would for simple cases: blanks separate
/// words, single quotes keep everything, double quotes keep everything but `\"` and `\\`, and a
/// backslash outside quotes escapes the next character.
///
/// # Errors
/// An unterminated quote or a trailing backslash.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated ' in {text:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unterminated \" in {text:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated \" in {text:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(
                    chars
                        .next()
                        .ok_or_else(|| format!("trailing backslash in {text:?}"))?,
                );
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

impl EngineSpec {
    /// Reads an `--engine` value: a command line in which the words `name=N`, `proto=hub|uci`,
    /// `dir=PATH` and `option.NAME=VALUE` are settings for the manager and every other word is
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
        };
        for word in split_words(text)? {
            if let Some(v) = word.strip_prefix("name=") {
                spec.name = Some(v.to_string());
            } else if let Some(v) = word.strip_prefix("proto=") {
                spec.proto = Some(match v.to_ascii_lowercase().as_str() {
                    "hub" => Proto::Hub,
                    "uci" => Proto::Uci,
                    _ => return Err(format!("--engine {text:?}: proto is hub or uci, not {v:?}")),
                });
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
        if spec.command.is_empty() {
            return Err(format!("--engine {text:?}: no command to run"));
        }
        Ok(spec)
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
}

impl Log {
    /// Creates (truncates) the log file.
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(path: &std::path::Path) -> Result<Log, String> {
        let file = File::create(path).map_err(|e| format!("cannot create log {}: {e}", path.display()))?;
        Ok(Log {
            file: Mutex::new(file),
            start: Instant::now(),
        })
    }

    /// Appends one line.
    pub fn line(&self, who: &str, dir: &str, text: &str) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut f) = self.file.lock() {
            let _ = writeln!(f, "{t:10.3} {who} {dir} {text}");
        }
    }
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    who: String,
    log: Option<Arc<Log>>,
}

impl std::fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EngineProcess({})", self.who)
    }
}

impl EngineProcess {
    /// Starts the engine's command; its output is read on a thread of its own, its standard error
    /// goes to the log (or nowhere).
    ///
    /// # Errors
    /// The program cannot be started (not found, not executable, bad directory).
    pub fn start(spec: &EngineSpec, label: &str, log: Option<Arc<Log>>) -> Result<EngineProcess, String> {
        let mut cmd = Command::new(&spec.command[0]);
        cmd.args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
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
        let (tx, lines) = unbounded();
        std::thread::Builder::new()
            .name(format!("read {who}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf);
                            let line = line.trim_end_matches(['\n', '\r']).to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        if let (Some(mut stderr), Some(log)) = (child.stderr.take(), log.clone()) {
            let who = who.clone();
            let _ = std::thread::Builder::new()
                .name(format!("stderr {who}"))
                .spawn(move || {
                    let mut text = Vec::new();
                    let _ = stderr.read_to_end(&mut text);
                    for l in String::from_utf8_lossy(&text).lines() {
                        log.line(&who, "!", l);
                    }
                });
        }
        Ok(EngineProcess {
            stdin: child.stdin.take(),
            child,
            lines,
            who,
            log,
        })
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
        if let Some(log) = &self.log {
            log.line(&self.who, ">", line);
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Failure::Crashed("input closed".into()))?;
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| Failure::Crashed(format!("cannot write to the engine: {e}")))
    }

    /// The next line, waiting until `deadline` at most.
    ///
    /// # Errors
    /// [`Failure::Timeout`] at the deadline, [`Failure::Crashed`] when the output is closed.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, Failure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                if let Some(log) = &self.log {
                    log.line(&self.who, "<", &line);
                }
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                let status = match self.child.try_wait() {
                    Ok(Some(s)) => s.to_string(),
                    _ => "output closed".into(),
                };
                Err(Failure::Crashed(status))
            }
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
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the process at once and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
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
        assert!(EngineSpec::parse("name=x").is_err());
        assert!(EngineSpec::parse("e proto=dxp").is_err());
        assert!(EngineSpec::parse("e option.x").is_err());
    }
}
