//! The manager's side of the two dialects: the handshake, a new game, and one move (position,
//! limits, the reply with the engine's last score).
//!
//! Hub (Scan 3.1's protocol, `shared/reference/protocols.md` §1): `hub` → `id`, `param`…, `wait`;
//! `set-param`; `init` → `ready`; per move `pos pos=<Hub string> moves="<all moves>"`, `level …`,
//! `go think` → `info …`, `done move=M [ponder=P]`. The whole game goes in `moves`, as pydraughts and
//! GWDGUI send it, so that the engine sees every repetition.
//!
//! Hub-1 (Scan 2.0's first Hub, read from its `hub_loop`): `hub` → `name …`, `author …`, `wait`;
//! `set NAME VALUE`; `init` → `ready`; `new` per game; per move `start` or `pos <turn w|b, 50
//! squares w|b|W|B|e>`, one `move M` line per move played (captures list every captured square:
//! `28x19x23`), then the limits (`depth N`, `time MS` a fixed move time, `level MOVES MS INC_MS`
//! a clock; all integers, and only after `pos`/`start`, which reset them), `go` → `info DEPTH
//! PLY SCORE NODES TIME SPEED PV` (SCORE in hundredths of a man), `move M [P]`. It plays
//! International only and has no node limit. Errors come as `error illegal move` and the like.
//!
//! UCI-style (Tempo's `tempo uci`): `uci` → `option`…, `uciok`; `setoption name UCI_Variant value V`;
//! `isready` → `readyok`; per move `position startpos|fen <FEN> moves …`, `go …` → `info … score
//! cp N|win N …`, `bestmove M`.

use super::dxp::DxpClient;
use super::process::{EngineProcess, EngineSpec, Failure, Log, Proto};
pub use super::{ClockView, EngineClient, MoveLimits, Reply, Request};
use crate::draughts::hub_notation::HubNotation;
use crate::hub_line::{hub_name, parse_line, quote};
use crate::variant::Variant;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long an engine may take to answer the handshake, `init` or `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// The most handshake lines kept (`id`, `param`, `option`...): an engine that writes more before
/// its `wait` or `uciok` is not kept in memory beyond them.
const MAX_HEADER_LINES: usize = 1000;

/// The most error replies to settings quoted in the message that stops the match.
const MAX_ERRORS: usize = 20;

/// How long protocol detection waits for a Hub `wait` before trying UCI, and then for a UCI
/// `uciok` before giving up: an engine that answers neither is reported within twice this. (An
/// engine slower to start names its dialect with `proto=` and gets [`HANDSHAKE_TIMEOUT`].)
const DETECT: Duration = Duration::from_secs(3);
/// The score that stands for a won position in hundredths of a man (a UCI `win N`); Hub engines
/// print wins near 100 men, which is the same.
pub const WIN_SCORE: i32 = 10_000;

/// A running engine on pipes that has completed its handshake.
#[derive(Debug)]
pub struct PipeClient {
    proc: EngineProcess,
    proto: Proto,
    id_name: Option<String>,
    /// How the Hub dialect numbers this variant (pydraughts' convention, `protocol.md` 4.6):
    /// positions and moves are translated on the way out and replies on the way in.
    notation: HubNotation,
}

fn seconds(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// The score of a Hub `info` line (`score=1.25`, men) in hundredths of a man.
pub fn hub_score(line: &str) -> Option<i32> {
    let l = parse_line(line).ok()?;
    if l.command != "info" {
        return None;
    }
    let men: f64 = l.get("score")?.parse().ok()?;
    men.is_finite()
        .then(|| (men * 100.0).round().clamp(-1e6, 1e6) as i32)
}

/// The depth of an `info` line: Hub's `depth=N`, UCI's `depth N`, or Hub-1's first number
/// (`info DEPTH PLY SCORE ...`, with `hub1`).
pub fn info_depth(line: &str, hub1: bool) -> Option<u32> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    if hub1 {
        return words.next()?.parse().ok();
    }
    while let Some(w) = words.next() {
        if let Some(d) = w.strip_prefix("depth=") {
            return d.parse().ok();
        }
        if w == "depth" {
            return words.next()?.parse().ok();
        }
    }
    None
}

/// The score of a Hub-1 `info` line (`info DEPTH PLY SCORE NODES …`, SCORE in hundredths of a
/// man, as Scan 2.0 prints it).
pub fn hub1_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    let n: i64 = words.get(3)?.parse().ok()?;
    Some(n.clamp(-1_000_000, 1_000_000) as i32)
}

/// Whether the lines an engine wrote up to its `wait` are Hub-1's (Scan 2.0: `name Scan 2.0`,
/// `author …`) rather than Hub's (`id name=… version=…`, `param …`): a `name` line and no `id`
/// line. No Hub engine starts a line with `name`, so the test cannot take a Hub engine for a
/// Hub-1 one.
pub fn looks_like_hub1(lines: &[String]) -> bool {
    let has = |w: &str| lines.iter().any(|l| l.split_whitespace().next() == Some(w));
    has("name") && !has("id")
}

/// The Hub-1 position string of a Hub one: Hub-1 writes the side to move in lower case.
fn hub1_position(hub: &str) -> String {
    let mut chars = hub.chars();
    chars.next().map_or_else(String::new, |side| {
        side.to_ascii_lowercase().to_string() + chars.as_str()
    })
}

/// A whole number of milliseconds, as Hub-1 reads times (it parses integers only).
fn millis(d: Duration) -> u128 {
    d.as_millis()
}

/// The score of a UCI `info` line (`score cp N`, `score win N`, `score mate N`).
pub fn uci_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    let at = words.iter().position(|w| *w == "score")?;
    let kind = *words.get(at + 1)?;
    let n: i64 = words.get(at + 2)?.parse().ok()?;
    match kind {
        "cp" => Some(n.clamp(-1_000_000, 1_000_000) as i32),
        "win" | "mate" => Some(if n > 0 { WIN_SCORE } else { -WIN_SCORE }),
        _ => None,
    }
}

/// Fails the start of an engine that refused some of its settings: a match played with settings
/// the engine did not take would not measure what was asked.
fn refusal(label: &str, variant: Variant, spec: &EngineSpec, errors: &[String]) -> Result<(), String> {
    if errors.is_empty() {
        return Ok(());
    }
    let mut sent = vec![format!("variant={}", variant.name())];
    sent.extend(spec.options.iter().map(|(n, v)| format!("option.{n}={v}")));
    Err(format!(
        "engine {label} refused its settings ({}): {}",
        sent.join(" "),
        errors.join("; ")
    ))
}

/// An engine the manager plays: a process on pipes (Hub, Hub-1, UCI, [`PipeClient`]) or a DXP
/// peer over TCP ([`DxpClient`]), behind the [`EngineClient`] interface they share.
#[derive(Debug)]
pub struct Client(Box<dyn EngineClient>);

impl Client {
    /// Starts (or connects to) an engine and completes its handshake; see [`PipeClient::start`]
    /// and [`DxpClient::start`]. `label` names the engine in messages and the log.
    ///
    /// # Errors
    /// The engine cannot be started or reached, or its handshake fails.
    pub fn start(
        spec: &EngineSpec,
        label: &str,
        variant: Variant,
        log: Option<Arc<Log>>,
    ) -> Result<Client, String> {
        if spec.dxp.is_some() {
            return DxpClient::start(spec, label, variant, log).map(|c| Client(Box::new(c)));
        }
        PipeClient::start(spec, label, variant, log).map(|c| Client(Box::new(c)))
    }

    /// The name the engine gave (Hub/UCI `id`, DXP accept).
    pub fn id_name(&self) -> Option<&str> {
        self.0.id_name()
    }

    /// The dialect spoken on pipes (`None` for DXP).
    pub fn proto(&self) -> Option<Proto> {
        self.0.proto()
    }

    /// Tells the engine that a new game starts.
    ///
    /// # Errors
    /// See [`EngineClient::new_game`].
    pub fn new_game(&mut self) -> Result<(), Failure> {
        self.0.new_game()
    }

    /// Asks for a move and waits for it until `deadline`.
    ///
    /// # Errors
    /// See [`EngineClient::think`].
    pub fn think(&mut self, req: &Request<'_>, deadline: Instant) -> Result<Reply, Failure> {
        self.0.think(req, deadline)
    }

    /// The game is over (the manager's verdict; `None`: aborted).
    pub fn end_game(&mut self, outcome: Option<crate::game::Outcome>) {
        self.0.end_game(outcome);
    }

    /// Ends the engine: `quit`, a short grace, then kill.
    pub fn quit(self) {
        self.0.quit();
    }

    /// Kills the engine at once (after a failure).
    pub fn kill(self) {
        self.0.kill();
    }
}

impl EngineClient for PipeClient {
    fn id_name(&self) -> Option<&str> {
        PipeClient::id_name(self)
    }

    fn proto(&self) -> Option<Proto> {
        Some(PipeClient::proto(self))
    }

    fn new_game(&mut self) -> Result<(), Failure> {
        PipeClient::new_game(self)
    }

    fn think(&mut self, req: &Request<'_>, deadline: Instant) -> Result<Reply, Failure> {
        PipeClient::think(self, req, deadline)
    }

    fn quit(self: Box<Self>) {
        PipeClient::quit(*self);
    }

    fn kill(self: Box<Self>) {
        PipeClient::kill(*self);
    }
}

impl PipeClient {
    /// Starts an engine and completes the handshake for `variant`: the dialect (given or
    /// detected), the variant when it is not International or the engine offers it, and the
    /// spec's options. `label` names the engine in the log.
    ///
    /// # Errors
    /// The process cannot start, the handshake fails or times out (the message says which), or the
    /// engine answers a setting (the variant or an `option.`) with an error.
    pub fn start(
        spec: &EngineSpec,
        label: &str,
        variant: Variant,
        log: Option<Arc<Log>>,
    ) -> Result<PipeClient, String> {
        let fail = |what: &str, e: Failure| format!("engine {label}: {what}: {e}");
        let mut proc = EngineProcess::start(spec, label, log.clone())?;
        let guess = spec.proto.or_else(|| {
            spec.command[1..].iter().find_map(|w| match w.as_str() {
                "hub" => Some(Proto::Hub),
                "uci" => Some(Proto::Uci),
                _ => None,
            })
        });
        // Whether the dialect is being detected (neither given nor guessed from the command).
        let detecting = guess.is_none();
        let mut client = match guess {
            Some(proto) => PipeClient {
                proc,
                proto,
                id_name: None,
                notation: HubNotation::SAME,
            },
            None => {
                // Detection: Hub first (a Hub engine answers `hub` with `wait`); an engine that
                // does not answer in time is asked `uci`, one that died on `hub` is restarted.
                proc.send("hub").map_err(|e| fail("cannot send hub", e))?;
                let mut lines = Vec::new();
                match proc.recv_until(
                    Instant::now() + DETECT,
                    |l| {
                        if lines.len() < MAX_HEADER_LINES {
                            lines.push(l.to_string());
                        }
                    },
                    |l| l.trim() == "wait",
                ) {
                    Ok(_) => {
                        let mut c = PipeClient {
                            proc,
                            proto: Proto::Hub,
                            id_name: None,
                            notation: HubNotation::SAME,
                        };
                        c.after_hub_header(spec, label, variant, &lines)?;
                        return Ok(c);
                    }
                    Err(Failure::Crashed(_)) => {
                        proc = EngineProcess::start(spec, label, log)?;
                    }
                    Err(_) => {}
                }
                PipeClient {
                    proc,
                    proto: Proto::Uci,
                    id_name: None,
                    notation: HubNotation::SAME,
                }
            }
        };
        match client.proto {
            Proto::Hub | Proto::Hub1 => {
                let lines = client
                    .handshake("hub", "wait", HANDSHAKE_TIMEOUT)
                    .map_err(|e| fail(&e.0, e.1))?;
                client.after_hub_header(spec, label, variant, &lines)?;
            }
            Proto::Uci => {
                let timeout = if detecting { DETECT } else { HANDSHAKE_TIMEOUT };
                let lines = client.handshake("uci", "uciok", timeout).map_err(|e| match e.1 {
                    Failure::Timeout if detecting => format!(
                        "engine {label} answers neither Hub (no `wait` within {} s of `hub`) nor UCI \
                             (no `uciok` within {} s of `uci`); name its dialect with proto=hub, \
                             proto=hub1 or proto=uci if it speaks one of them but starts slowly",
                        DETECT.as_secs(),
                        DETECT.as_secs()
                    ),
                    f => fail(&e.0, f),
                })?;
                let mut has_variant = false;
                for l in &lines {
                    if let Some(rest) = l.trim().strip_prefix("id name ") {
                        client.id_name = Some(rest.trim().to_string());
                    }
                    if l.contains("option name UCI_Variant ") {
                        has_variant = true;
                    }
                }
                if has_variant || variant != Variant::International {
                    client
                        .proc
                        .send(&format!("setoption name UCI_Variant value {}", variant.name()))
                        .map_err(|e| fail("setoption", e))?;
                }
                for (n, v) in &spec.options {
                    client
                        .proc
                        .send(&format!("setoption name {n} value {v}"))
                        .map_err(|e| fail("setoption", e))?;
                }
                let refused = client
                    .sync()
                    .map_err(|e| fail("no `readyok` after `isready`", e))?;
                refusal(label, variant, spec, &refused)?;
            }
        }
        Ok(client)
    }

    /// Sends the dialect's opening command and collects the lines up to its terminator (`wait`
    /// in Hub, `uciok` in UCI); on failure, what went wrong and why.
    fn handshake(
        &mut self,
        command: &str,
        end: &str,
        timeout: Duration,
    ) -> Result<Vec<String>, (String, Failure)> {
        self.proc
            .send(command)
            .map_err(|e| (format!("cannot send {command}"), e))?;
        let mut lines = Vec::new();
        self.proc
            .recv_until(
                Instant::now() + timeout,
                |l| {
                    if lines.len() < MAX_HEADER_LINES {
                        lines.push(l.to_string());
                    }
                },
                |l| l.trim() == end,
            )
            .map_err(|e| (format!("no `{end}` after `{command}`"), e))?;
        Ok(lines)
    }

    /// Completes a Hub or Hub-1 start from the lines up to `wait`. A Hub engine whose dialect was
    /// guessed (from a `hub` argument or by detection) and whose lines look like Hub-1
    /// ([`looks_like_hub1`]) is spoken to in Hub-1: Scan 2.0 is started as `scan hub` too. With
    /// `proto=hub1` the dialect is kept; with `proto=hub` such lines are an error.
    fn after_hub_header(
        &mut self,
        spec: &EngineSpec,
        label: &str,
        variant: Variant,
        lines: &[String],
    ) -> Result<(), String> {
        if looks_like_hub1(lines) {
            match spec.proto {
                None => self.proto = Proto::Hub1,
                // No Hub engine writes a `name` line; spoken to in Hub, a Hub-1 engine would only
                // time out on `go think`, far from the cause.
                Some(Proto::Hub) => {
                    return Err(format!(
                        "engine {label} answered `hub` in Hub-1 (a `name` line, no `id` line): \
                         use proto=hub1, or leave proto= out"
                    ));
                }
                Some(_) => {}
            }
        }
        let fail = |e: Failure| format!("engine {label}: Hub setup: {e}");
        let refused = if self.proto == Proto::Hub1 {
            if variant != Variant::International {
                return Err(format!(
                    "engine {label} speaks Hub-1, which plays International draughts only, not {}",
                    variant.name()
                ));
            }
            if let Some((n, v)) = spec.options.iter().find(|(n, v)| {
                n.is_empty()
                    || n.contains(char::is_whitespace)
                    || v.contains(char::is_whitespace)
                    || v.is_empty()
            }) {
                return Err(format!(
                    "engine {label} speaks Hub-1, whose `set NAME VALUE` takes one word each: \
                     option.{n}={v:?} cannot be sent"
                ));
            }
            self.read_hub1_header(lines);
            self.hub1_setup(spec).map_err(fail)?
        } else {
            let has_variant = self.read_hub_header(lines);
            self.hub_setup(spec, variant, has_variant).map_err(fail)?
        };
        refusal(label, variant, spec, &refused)
    }

    /// Reads the `name` line of a Hub-1 handshake.
    fn read_hub1_header(&mut self, lines: &[String]) {
        for l in lines {
            if let Some(rest) = l.trim().strip_prefix("name ") {
                self.id_name = Some(rest.trim().to_string());
            }
        }
    }

    /// Hub-1 `set` for the options, then `init` → `ready`; the `error` lines written meanwhile.
    fn hub1_setup(&mut self, spec: &EngineSpec) -> Result<Vec<String>, Failure> {
        self.notation = Variant::International.hub_notation();
        for (n, v) in &spec.options {
            self.proc.send(&format!("set {n} {v}"))?;
        }
        self.init_ready()
    }

    /// Sends `init` and waits for `ready`; the `error` lines written meanwhile.
    fn init_ready(&mut self) -> Result<Vec<String>, Failure> {
        self.proc.send("init")?;
        let mut errors = Vec::new();
        self.proc.recv_until(
            Instant::now() + HANDSHAKE_TIMEOUT,
            |l| {
                if l.split_whitespace().next() == Some("error") && errors.len() < MAX_ERRORS {
                    errors.push(l.trim().to_string());
                }
            },
            |l| l.trim() == "ready",
        )?;
        Ok(errors)
    }

    /// Reads the `id` and `param` lines of a Hub handshake; whether a `variant` param exists.
    fn read_hub_header(&mut self, lines: &[String]) -> bool {
        let mut has_variant = false;
        for l in lines {
            let Ok(parsed) = parse_line(l) else { continue };
            match parsed.command.as_str() {
                "id" => self.id_name = parsed.get("name").map(str::to_string),
                "param" if parsed.get("name") == Some("variant") => has_variant = true,
                _ => {}
            }
        }
        has_variant
    }

    /// `set-param` for the variant and the options, then `init` → `ready`; the `error` lines the
    /// engine wrote meanwhile (settings it refused).
    fn hub_setup(
        &mut self,
        spec: &EngineSpec,
        variant: Variant,
        has_variant: bool,
    ) -> Result<Vec<String>, Failure> {
        self.notation = variant.hub_notation();
        // Scan-like engines know only International; they get the variant only when they offer
        // it or the match is not International (then an engine that cannot play it will say so).
        if has_variant || variant != Variant::International {
            self.proc
                .send(&format!("set-param name=variant value={}", hub_name(variant)))?;
        }
        for (n, v) in &spec.options {
            self.proc
                .send(&format!("set-param name={} value={}", quote(n), quote(v)))?;
        }
        self.init_ready()
    }

    /// UCI `isready` → `readyok`; the error lines written meanwhile (`info string error…`, or
    /// `No such option` as several UCI engines write it).
    fn sync(&mut self) -> Result<Vec<String>, Failure> {
        self.proc.send("isready")?;
        let mut errors = Vec::new();
        self.proc.recv_until(
            Instant::now() + HANDSHAKE_TIMEOUT,
            |l| {
                let t = l.trim();
                let lower = t.to_ascii_lowercase();
                if (lower.starts_with("info string error") || lower.starts_with("no such option"))
                    && errors.len() < MAX_ERRORS
                {
                    errors.push(t.to_string());
                }
            },
            |l| l.trim() == "readyok",
        )?;
        Ok(errors)
    }

    /// The name the engine gave in its `id` line.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The dialect spoken.
    pub fn proto(&self) -> Proto {
        self.proto
    }

    /// Tells the engine that a new game starts.
    ///
    /// # Errors
    /// The engine is gone, or (UCI) does not confirm in time.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        match self.proto {
            Proto::Hub => self.proc.send("new-game"),
            Proto::Hub1 => self.proc.send("new"),
            Proto::Uci => {
                self.proc.send("ucinewgame")?;
                self.sync().map(drop)
            }
        }
    }

    /// Asks for a move and waits for it until `deadline`.
    ///
    /// # Errors
    /// [`Failure::Timeout`] at the deadline, [`Failure::Crashed`] when the engine is gone,
    /// [`Failure::Protocol`] for an answer without a move.
    pub fn think(&mut self, req: &Request<'_>, deadline: Instant) -> Result<Reply, Failure> {
        let (mut score, mut depth) = (None, None);
        match self.proto {
            Proto::Hub => {
                let notation = self.notation;
                // Without the run or clock the engine would play another game than the referee.
                let start = if req.hub_exact {
                    notation.position_from_tempo(req.start_hub)
                } else {
                    crate::hub_line::quote(req.start_fen)
                };
                let mut pos = format!("pos pos={start}");
                if !req.moves_hub.is_empty() {
                    let moves: Vec<String> = req
                        .moves_hub
                        .iter()
                        .map(|m| notation.move_from_tempo(m))
                        .collect();
                    pos += &format!(" moves={}", quote(&moves.join(" ")));
                }
                self.proc.send(&pos)?;
                let mut level = Vec::new();
                let l = req.limits;
                if let Some(d) = l.depth {
                    level.push(format!("depth={d}"));
                }
                if let Some(n) = l.nodes {
                    level.push(format!("nodes={n}"));
                }
                if let Some(t) = l.movetime {
                    level.push(format!("move-time={}", seconds(t)));
                }
                if let Some(c) = l.clock {
                    // Hub adds the increment before every move (protocol.txt), so the time sent
                    // is the clock less the increment, as pydraughts does: the engine's total is
                    // then exactly the time left.
                    let left = c.left[req.side.index()].saturating_sub(c.inc);
                    level.push(format!("time={}", seconds(left)));
                    if !c.inc.is_zero() {
                        level.push(format!("inc={}", seconds(c.inc)));
                    }
                    if let Some(m) = c.moves_to_go {
                        level.push(format!("moves={m}"));
                    }
                }
                if !level.is_empty() {
                    self.proc.send(&format!("level {}", level.join(" ")))?;
                }
                self.proc.send("go think")?;
                let line = self.proc.recv_until(
                    deadline,
                    |l| {
                        if let Some(s) = hub_score(l) {
                            score = Some(s);
                            depth = info_depth(l, false);
                        }
                    },
                    |l| l.split_whitespace().next() == Some("done"),
                )?;
                let parsed = parse_line(&line).map_err(|e| Failure::Protocol(format!("{line:?}: {e}")))?;
                match parsed.get("move") {
                    Some(m) if !m.is_empty() => Ok(Reply {
                        mv: notation.move_to_tempo(m),
                        score,
                        depth,
                    }),
                    _ => Err(Failure::Protocol(format!("no move in {line:?}"))),
                }
            }
            Proto::Hub1 => {
                let l = req.limits;
                if l.nodes.is_some() {
                    return Err(Failure::Protocol(
                        "Hub-1 has no node limit (use --depth, --movetime or --tc)".into(),
                    ));
                }
                let notation = self.notation;
                if req.initial {
                    self.proc.send("start")?;
                } else {
                    let hub = notation.position_from_tempo(req.start_hub);
                    self.proc.send(&format!("pos {}", hub1_position(&hub)))?;
                }
                for m in req.moves_hub {
                    self.proc.send(&format!("move {}", notation.move_from_tempo(m)))?;
                }
                // After `pos`/`start`, which reset the limits to none (Scan 2.0 would then think
                // for a million seconds).
                if let Some(d) = l.depth {
                    self.proc.send(&format!("depth {d}"))?;
                }
                if let Some(t) = l.movetime {
                    self.proc.send(&format!("time {}", millis(t)))?;
                }
                if let Some(c) = l.clock {
                    // As for Hub: Scan 2.0 counts the increment as part of this move's time, so
                    // the time sent is the clock less the increment.
                    let left = c.left[req.side.index()].saturating_sub(c.inc);
                    self.proc.send(&format!(
                        "level {} {} {}",
                        c.moves_to_go.unwrap_or(0),
                        millis(left),
                        millis(c.inc)
                    ))?;
                }
                self.proc.send("go")?;
                let line = self.proc.recv_until(
                    deadline,
                    |l| {
                        if let Some(s) = hub1_score(l) {
                            score = Some(s);
                            depth = info_depth(l, true);
                        }
                    },
                    |l| matches!(l.split_whitespace().next(), Some("move" | "error")),
                )?;
                let mut words = line.split_whitespace();
                if words.next() == Some("error") {
                    // The engine refused the position or a move of the game: what it plays next
                    // would be for another game.
                    return Err(Failure::Protocol(format!(
                        "answered {:?} to the game sent",
                        line.trim()
                    )));
                }
                match words.next() {
                    Some(m) => Ok(Reply {
                        mv: notation.move_to_tempo(m),
                        score,
                        depth,
                    }),
                    None => Err(Failure::Protocol(format!("no move in {line:?}"))),
                }
            }
            Proto::Uci => {
                let mut pos = if req.initial {
                    "position startpos".to_string()
                } else {
                    format!("position fen {}", req.start_fen)
                };
                if !req.moves_std.is_empty() {
                    pos += &format!(" moves {}", req.moves_std.join(" "));
                }
                self.proc.send(&pos)?;
                let mut go = vec!["go".to_string()];
                let l = req.limits;
                if let Some(c) = l.clock {
                    go.push(format!(
                        "wtime {} btime {} winc {} binc {}",
                        c.left[0].as_millis(),
                        c.left[1].as_millis(),
                        c.inc.as_millis(),
                        c.inc.as_millis()
                    ));
                    if let Some(m) = c.moves_to_go {
                        go.push(format!("movestogo {m}"));
                    }
                }
                if let Some(t) = l.movetime {
                    go.push(format!("movetime {}", t.as_millis()));
                }
                if let Some(d) = l.depth {
                    go.push(format!("depth {d}"));
                }
                if let Some(n) = l.nodes {
                    go.push(format!("nodes {n}"));
                }
                self.proc.send(&go.join(" "))?;
                let line = self.proc.recv_until(
                    deadline,
                    |l| {
                        if let Some(s) = uci_score(l) {
                            score = Some(s);
                            depth = info_depth(l, false);
                        }
                    },
                    |l| l.split_whitespace().next() == Some("bestmove"),
                )?;
                match line.split_whitespace().nth(1) {
                    Some(m) if m != "(none)" && m != "0000" => Ok(Reply {
                        mv: m.to_string(),
                        score,
                        depth,
                    }),
                    _ => Err(Failure::Protocol(format!("no move in {line:?}"))),
                }
            }
        }
    }

    /// Ends the engine: `quit`, a short grace, then kill.
    pub fn quit(mut self) {
        self.proc.shutdown(Some("quit"));
    }

    /// Kills the engine at once (after a failure).
    pub fn kill(mut self) {
        self.proc.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_parse_from_both_dialects() {
        assert_eq!(
            hub_score("info depth=3 score=-0.25 pv=\"32-28 19-23\""),
            Some(-25)
        );
        assert_eq!(hub_score("info depth=9 score=99.97 nodes=3"), Some(9997));
        assert_eq!(hub_score("info depth=9 nodes=3"), None);
        assert_eq!(hub_score("done move=32-28"), None);
        assert_eq!(uci_score("info depth 4 score cp 31 nodes 9 pv 32-28"), Some(31));
        assert_eq!(uci_score("info depth 4 score win -3 pv 32-28"), Some(-WIN_SCORE));
        assert_eq!(uci_score("info string score cp x"), None);
        assert_eq!(uci_score("bestmove 32-28"), None);
        assert_eq!(
            hub1_score("info 12 10.3 -25 123456 0.10 1.2 32-28 19-23"),
            Some(-25)
        );
        assert_eq!(hub1_score("info 0 0.0 1905 0 0.00 0.0 33-29"), Some(1905));
        assert_eq!(hub1_score("info depth=3 score=-0.25"), None);
        assert_eq!(hub1_score("move 32-28 19-23"), None);
        assert_eq!(info_depth("info depth=9 score=0.1", false), Some(9));
        assert_eq!(info_depth("info depth 4 score cp 31", false), Some(4));
        assert_eq!(info_depth("info 12 10.3 -25 123456", true), Some(12));
        assert_eq!(info_depth("info score cp 31", false), None);
    }

    #[test]
    fn hub1_is_told_from_hub_by_its_handshake() {
        let lines = |ls: &[&str]| ls.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        assert!(looks_like_hub1(&lines(&[
            "Scan 2.0 by Fabien Letouzey",
            "name Scan 2.0",
            "author Fabien Letouzey",
            "country France",
        ])));
        assert!(!looks_like_hub1(&lines(&[
            "id name=Scan version=3.1",
            "param name=variant value=normal type=enum values=\"normal killer bt frisian losing\"",
        ])));
        assert!(!looks_like_hub1(&lines(&["id name=x", "name y"])));
        assert!(!looks_like_hub1(&[]));
    }

    #[test]
    fn hub1_positions_write_the_side_in_lower_case() {
        assert_eq!(hub1_position("Wbbe"), "wbbe");
        assert_eq!(hub1_position("BwWe"), "bwWe");
        assert_eq!(hub1_position(""), "");
    }
}
