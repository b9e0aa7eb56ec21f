//! Drives the `tempo` binary over stdin/stdout for black-box protocol tests.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a test waits for a reply that should come at once.
pub const PROMPT: Duration = Duration::from_secs(10);

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    stderr: Option<JoinHandle<Vec<u8>>>,
    /// Every line read so far.
    pub log: Vec<String>,
}

impl Engine {
    /// Starts `tempo` with these arguments.
    pub fn start(args: &[&str]) -> Engine {
        Engine::start_with_env(args, &[])
    }

    /// Starts `tempo` with these arguments and these environment variables set.
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tempo starts");
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut all = Vec::new();
            let _ = stderr.read_to_end(&mut all);
            all
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: Some(stderr),
            log: Vec::new(),
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A field of `/proc/<pid>/status` in KiB (`VmRSS`, `VmHWM`), where the system has it.
    pub fn status_kib(&self, field: &str) -> Option<u64> {
        let text = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = text.lines().find(|l| l.starts_with(&format!("{field}:")))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Sends one line; returns when it was written.
    pub fn send(&mut self, line: &str) -> Instant {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        Instant::now()
    }

    /// Sends raw bytes (no newline added).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_within(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((at, line)) => {
                self.log.push(line.clone());
                Some((at, line))
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns it with its arrival time and the lines
    /// before it. Panics after `timeout`.
    pub fn until_at(
        &mut self,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> (Instant, String, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_within(left) {
                Some((at, line)) if pred(&line) => return (at, line, before),
                Some((_, line)) => before.push(line),
                None => panic!(
                    "no expected line within {timeout:?}; read: {before:?}; log tail: {:?}",
                    self.log.iter().rev().take(5).collect::<Vec<_>>()
                ),
            }
        }
    }

    /// Reads until a line starts with `prefix`; returns it and the lines before it.
    pub fn until(&mut self, prefix: &str) -> (String, Vec<String>) {
        let (_, line, before) = self.until_at(PROMPT, |l| l.starts_with(prefix));
        (line, before)
    }

    /// Asserts that no line arrives for `wait`.
    pub fn silent_for(&mut self, wait: Duration) {
        if let Some((_, line)) = self.next_within(wait) {
            panic!("unexpected line {line:?}");
        }
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to end; returns its exit code and how long it took.
    pub fn wait_exit(&mut self, timeout: Duration) -> (Option<i32>, Duration) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status.code(), start.elapsed());
            }
            if start.elapsed() > timeout {
                let _ = self.child.kill();
                panic!("the engine did not exit within {timeout:?}");
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Ends the process (if needed) and returns what it wrote on stderr.
    pub fn stderr(mut self) -> String {
        self.stdin = None;
        let _ = self.wait_exit(Duration::from_secs(10));
        let bytes = self.stderr.take().unwrap().join().unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A command that runs the `tempo` binary under test.
pub fn tempo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
}

/// The Python with pydraughts that the cross-checks run (`TEMPO_PYDRAUGHTS_PYTHON`). Those tests
/// are ignored when it was not set at build time (`build.rs` sets `cfg(pydraughts)`), so reaching
/// here without it means `TEMPO_REQUIRE_PYDRAUGHTS` asked for them: that fails.
pub fn pydraughts_python() -> String {
    std::env::var("TEMPO_PYDRAUGHTS_PYTHON")
        .expect("TEMPO_REQUIRE_PYDRAUGHTS is set but TEMPO_PYDRAUGHTS_PYTHON is not")
}

/// What `tempo match ARGS` did: whether it succeeded, its standard output and standard error.
pub struct MatchRun {
    pub ok: bool,
    pub out: String,
    pub err: String,
}

/// Runs `tempo match ARGS` to its end; its output is echoed to the test's standard error, which
/// the test harness shows only for a failing test.
pub fn run_match(args: &[&str]) -> MatchRun {
    let o = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg("match")
        .args(args)
        .output()
        .expect("tempo runs");
    let run = MatchRun {
        ok: o.status.success(),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    eprintln!("tempo match {}\n{}{}", args.join(" "), run.out, run.err);
    run
}
