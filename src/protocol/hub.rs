//! The Hub protocol, line for line as Scan 3.1 speaks it (`protocol.md` §1; the notes in
//! `shared/reference/protocols.md` record Scan's exact behaviour and what each client needs).

use super::session::{BookSource, Report, Session, SetupError, Start, new_session};
use super::{Face, Input, MAX_LINE, Out, check_rule_option, clip_message, rule_options};
use crate::game::MoveStyle;
pub use crate::hub_line::{HubLine, hub_name, parse_line, quote};
use crate::search::{
    Clock, ELO_MAX, ELO_MIN, Info, Limits, MAX_DEPTH, MAX_THREADS, MOVE_OVERHEAD, MOVE_OVERHEAD_MAX_MS,
    Strength, WIN,
};
use crate::tt::WIN_BOUND;
use crate::variant::Variant;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::time::Duration;

/// Hundredths as a decimal with two places (`-0.05`, `1.20`).
fn centi(v: i64) -> String {
    let sign = if v < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", v.abs() / 100, v.abs() % 100)
}

/// A score as Hub prints it: men with two decimals, for the side to move; a win in `n` plies is
/// `100 - n/100` (a loss its negation), the encoding Scan uses and clients decode.
pub fn score_text(score: i32) -> String {
    let s = i64::from(score);
    let win = i64::from(WIN);
    if score >= WIN_BOUND {
        centi(10_000 - (win - s))
    } else if score <= -WIN_BOUND {
        centi(-(10_000 - (win + s)))
    } else {
        // Evaluations stay inside Scan's ±80 men so that no client reads one as a win.
        centi(s.clamp(-8_000, 8_000))
    }
}

/// An `info` line in Scan's field order, every field present.
pub fn info_line(info: &Info<String>) -> String {
    let secs = info.time.as_secs_f64();
    let mnps = if secs > 0.0 {
        info.nodes as f64 / secs / 1e6
    } else {
        0.0
    };
    let mut line = format!(
        "info depth={} mean-depth={}.0 score={} nodes={} time={secs:.3} nps={mnps:.1} pv={}",
        info.depth,
        info.depth,
        score_text(info.score),
        info.nodes,
        quote(&info.pv.join(" "))
    );
    if info.multipv > 1 {
        line.push_str(&format!(" multipv={}", info.multipv));
    }
    line
}

/// The `variant` parameter's values: Scan's five first, then every other game.
pub fn variant_values() -> Vec<&'static str> {
    let scan = [
        Variant::International,
        Variant::Killer,
        Variant::Breakthrough,
        Variant::Frisian,
        Variant::Antidraughts,
    ];
    scan.iter()
        .chain(Variant::ALL.iter().filter(|v| !scan.contains(v)))
        .map(|&v| hub_name(v))
        .collect()
}

/// Default `book-margin` / `BookMargin`: book moves within three hundredths of a man of the best
/// are chosen among at random. A tenth gave away 0.075 of a man a game in the International book
/// runs; three still makes the games from the initial position differ (docs/book.md).
pub const BOOK_MARGIN: u32 = 3;
/// The largest book margin, in hundredths of a man.
pub const BOOK_MARGIN_MAX: u32 = 10_000;

/// `tt-size` is Scan's: the base-2 logarithm of the number of 16-byte entries.
const TT_SIZE_MIN: u32 = 16;
/// The largest `tt-size` (16 GiB).
const TT_SIZE_MAX: u32 = 30;
/// Default `tt-size`: 2^22 entries, 64 MiB.
const TT_SIZE_DEFAULT: u32 = 22;
pub use crate::search::MULTIPV_MAX;

fn tt_mib(log2: u32) -> usize {
    ((1usize << log2) * 16) >> 20
}

/// What `level` lines have set since the last `pos` or search.
#[derive(Clone, Copy, Debug, Default)]
struct Level {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<Duration>,
    time: Option<Duration>,
    inc: Option<Duration>,
    moves: Option<u32>,
    infinite: bool,
}

fn seconds(name: &str, text: &str) -> Result<Duration, String> {
    let v: f64 = text
        .parse()
        .map_err(|_| format!("{name}={text} is not a number of seconds"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("{name}={text} must be zero or more seconds"));
    }
    Ok(Duration::from_secs_f64(v.min(1e9)))
}

fn integer(name: &str, text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("{name}={text} is not a whole number of 0 or more"))
}

fn boolean(name: &str, text: &str) -> Result<bool, String> {
    match text.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{name} takes true or false, not {text:?}")),
    }
}

/// The Hub front-end.
pub struct Hub {
    out: Out,
    session: Box<dyn Session>,
    reports: Receiver<Report>,
    sender: Sender<Report>,
    variant: Variant,
    tt_size: u32,
    threads: u64,
    /// `move-overhead`: milliseconds kept back on the clock ([`Clock::overhead`]).
    move_overhead: u32,
    ponder: bool,
    /// `book`, `book-file` and `book-margin`: the opening book (see [`Hub::apply_book`]).
    book: bool,
    book_file: String,
    book_margin: u32,
    multipv: usize,
    /// Hub `limit-strength` and `elo`.
    strength: Strength,
    options: Vec<(String, String)>,
    level: Level,
    searching: bool,
    /// The running search ends by itself (it has a limit and is neither infinite nor waiting for
    /// `ponder-hit`): at end of input it is let finish.
    ends_alone: bool,
    /// The running ponder search will end by itself after `ponder-hit`.
    ends_after_hit: bool,
    /// Why the last `pos` was refused, until a valid one arrives: `go` then searches nothing,
    /// since the position kept is not the one the client sent.
    refused: Option<String>,
}

impl Hub {
    /// A Hub engine writing to `out`, set up for International draughts.
    pub fn new(out: Out) -> Hub {
        Hub::with_tt_size(out, TT_SIZE_DEFAULT)
    }

    /// As [`Hub::new`] with a table of `tt_size` (the parameter's units, clamped to its range):
    /// tests and fuzz targets use the smallest.
    pub fn with_tt_size(out: Out, tt_size: u32) -> Hub {
        let tt_size = tt_size.clamp(TT_SIZE_MIN, TT_SIZE_MAX);
        let (sender, reports) = unbounded();
        let (session, _) = new_session(
            Variant::International,
            tt_mib(tt_size),
            &[],
            MoveStyle::Hub,
            sender.clone(),
        );
        Hub {
            out,
            session,
            reports,
            sender,
            variant: Variant::International,
            tt_size,
            threads: 1,
            move_overhead: MOVE_OVERHEAD.as_millis() as u32,
            ponder: false,
            book: false,
            book_file: String::new(),
            book_margin: BOOK_MARGIN,
            multipv: 1,
            strength: Strength::default(),
            options: Vec::new(),
            level: Level::default(),
            searching: false,
            ends_alone: false,
            ends_after_hit: false,
            refused: None,
        }
    }

    /// Ends a running search, if any, and writes its last lines (`done` included).
    pub fn finish(&mut self) {
        if self.searching {
            self.finish_search();
        }
    }

    /// The lines written since the last call, when writing to [`Out::buffer`].
    pub fn take_output(&mut self) -> Vec<String> {
        self.out.take()
    }

    fn error(&mut self, message: &str) {
        self.out
            .line(&format!("error message={}", quote(&clip_message(message))));
    }

    /// Where a background load of endgame tables reports its end: this front-end's report queue.
    fn egdb_notify(&self) -> crate::egdb::registry::Notify {
        let sender = self.sender.clone();
        Box::new(move |r| drop(sender.send(Report::Egdb(r))))
    }

    /// Starts the default endgame tables, once, if `egdb-dir` is empty
    /// ([`crate::egdb::registry::want_defaults`]). Hub has no line for news outside a search, and
    /// the default tables are no setting of the client's, so their failures are not `error`
    /// lines: they go to standard error, one line each.
    fn want_default_tables(&self) {
        crate::egdb::registry::want_defaults(
            self.variant,
            std::sync::Arc::new(|r: Result<String, String>| {
                if let Err(e) = r {
                    crate::stderr_line!("{e}");
                }
            }),
        );
    }

    fn handle_report(&mut self, report: Report) {
        // Moves leave in the variant's Hub numbering (`Variant::hub_notation`).
        let notation = self.variant.hub_notation();
        let out = |m: String| notation.move_from_tempo(&m);
        match report {
            Report::Info(mut info) => {
                info.pv = info.pv.into_iter().map(out).collect();
                self.out.line(&info_line(&info));
            }
            Report::Book { mv, score } => {
                // Scan's fields, a search of depth 0, and `book=true` to say where it came from.
                let info = Info {
                    depth: 0,
                    seldepth: 0,
                    score,
                    nodes: 0,
                    time: std::time::Duration::ZERO,
                    pv: vec![out(mv)],
                    multipv: 1,
                };
                self.out.line(&format!("{} book=true", info_line(&info)));
            }
            Report::Done { best, ponder } => {
                let (best, ponder) = (best.map(out), ponder.map(out));
                self.searching = false;
                self.out.line(&match (best, ponder) {
                    (Some(b), Some(p)) => format!("done move={b} ponder={p}"),
                    (Some(b), None) => format!("done move={b}"),
                    (None, _) => "done".to_string(),
                });
            }
            // Hub has no line for news outside a search: only a failure is told.
            Report::Egdb(Ok(_)) => {}
            Report::Egdb(Err(e)) => self.error(&e),
        }
    }

    /// Ends the running search: stops it and writes its last lines, `done` included.
    fn finish_search(&mut self) {
        self.session.stop();
        self.wait_search();
    }

    /// Writes the running search's lines until its `done`.
    fn wait_search(&mut self) {
        while self.searching {
            match self.reports.recv() {
                Ok(r) => self.handle_report(r),
                Err(_) => self.searching = false,
            }
        }
    }

    /// Handles one input; `false` means quit.
    fn handle_input(&mut self, input: Input) -> bool {
        let line = match input {
            Input::Line(l) => l,
            Input::TooLong(n) => {
                if self.searching {
                    self.finish_search();
                }
                self.error(&format!("line too long ({n} bytes; at most {MAX_LINE})"));
                return true;
            }
        };
        let parsed = parse_line(&line);
        if self.searching {
            match parsed.as_ref().map(|l| l.command.as_str()) {
                Ok("ping") => {
                    self.out.line("pong");
                    return true;
                }
                Ok("ponder-hit") => {
                    self.session.ponder_hit();
                    self.ends_alone = self.ends_after_hit;
                    return true;
                }
                // Any other line ends the search (Scan does the same), then is carried out.
                _ => self.finish_search(),
            }
        }
        match parsed {
            Ok(l) => self.command(&l),
            Err(e) => {
                // A `pos` line that cannot even be read is a refused position too.
                if line.split_whitespace().next() == Some("pos") {
                    self.refused = Some(e.clone());
                }
                self.error(&e);
                true
            }
        }
    }

    fn command(&mut self, line: &HubLine) -> bool {
        let result = match line.command.as_str() {
            "hub" => {
                self.handshake();
                Ok(())
            }
            "set-param" => self.set_param(line),
            "init" => {
                self.want_default_tables();
                self.out.line("ready");
                Ok(())
            }
            "new-game" => {
                self.session.new_game();
                Ok(())
            }
            "pos" => self.pos(line),
            "level" => self.level(line),
            "go" => self.go(line),
            "ping" => {
                self.out.line("pong");
                Ok(())
            }
            // Outside a search these have nothing to act on (a race with `done` is normal).
            "stop" | "ponder-hit" => Ok(()),
            "quit" => return false,
            other => Err(format!("bad command {other}")),
        };
        if let Err(e) = result {
            self.error(&e);
        }
        true
    }

    fn handshake(&mut self) {
        self.out.line(&format!(
            "id name=Tempo version={} author={} country={}",
            quote(env!("CARGO_PKG_VERSION")),
            quote("the Tempo developers"),
            quote("none")
        ));
        self.out.line(&format!(
            "param name=variant value={} type=enum values={}",
            hub_name(self.variant),
            quote(&variant_values().join(" "))
        ));
        self.out.line(&format!(
            "param name=tt-size value={} type=int min={TT_SIZE_MIN} max={TT_SIZE_MAX}",
            self.tt_size
        ));
        self.out.line(&format!(
            "param name=threads value={} type=int min=1 max={MAX_THREADS}",
            self.threads
        ));
        self.out.line(&format!(
            "param name=move-overhead value={} type=int min=0 max={MOVE_OVERHEAD_MAX_MS}",
            self.move_overhead
        ));
        self.out
            .line(&format!("param name=ponder value={} type=bool", self.ponder));
        self.out
            .line(&format!("param name=book value={} type=bool", self.book));
        self.out.line(&format!(
            "param name=book-file value={} type=string",
            quote(&self.book_file)
        ));
        self.out.line(&format!(
            "param name=book-margin value={} type=int min=0 max={BOOK_MARGIN_MAX}",
            self.book_margin
        ));
        self.out.line(&format!(
            "param name=multipv value={} type=int min=1 max={MULTIPV_MAX}",
            self.multipv
        ));
        self.out.line(&format!(
            "param name=limit-strength value={} type=bool",
            self.strength.limited
        ));
        self.out.line(&format!(
            "param name=elo value={} type=int min={ELO_MIN} max={ELO_MAX}",
            self.strength.elo
        ));
        self.out.line(&format!(
            "param name=eval-file value={} type=string",
            quote(&crate::eval::choice::current_label(self.variant.name()))
        ));
        let (egdb_dir, egdb_pieces) = crate::egdb::registry::settings();
        self.out.line(&format!(
            "param name=egdb-dir value={} type=string",
            quote(&egdb_dir)
        ));
        self.out.line(&format!(
            "param name=egdb-pieces value={egdb_pieces} type=int min=0 max={}",
            crate::egdb::registry::MAX_PIECES
        ));
        for o in rule_options() {
            let value = self
                .options
                .iter()
                .find(|(n, _)| n == o.name)
                .map_or(o.default, |(_, v)| v.as_str());
            let kind = if o.values == ["true", "false"] {
                "type=bool".to_string()
            } else {
                format!("type=enum values={}", quote(&o.values.join(" ")))
            };
            self.out
                .line(&format!("param name={} value={} {kind}", o.name, quote(value)));
        }
        self.out.line("wait");
    }

    fn set_param(&mut self, line: &HubLine) -> Result<(), String> {
        let name = line
            .get("name")
            .ok_or("set-param needs name=<parameter> and value=<value>")?;
        let value = line
            .get("value")
            .ok_or_else(|| format!("set-param name={name} needs value=<value>"))?;
        match name {
            "variant" => {
                let v: Variant = value.parse().map_err(|e| format!("{e}"))?;
                if v != self.variant {
                    self.variant = v;
                    self.rebuild()?;
                }
            }
            "tt-size" => {
                let n = integer(name, value)?;
                if !(u64::from(TT_SIZE_MIN)..=u64::from(TT_SIZE_MAX)).contains(&n) {
                    return Err(format!("tt-size={n} is out of range {TT_SIZE_MIN}-{TT_SIZE_MAX}"));
                }
                self.session.resize(tt_mib(n as u32))?;
                self.tt_size = n as u32;
            }
            "threads" => {
                let n = integer(name, value)?;
                if !(1..=MAX_THREADS as u64).contains(&n) {
                    return Err(format!("threads={n} is out of range 1-{MAX_THREADS}"));
                }
                self.threads = n;
                self.session.set_threads(n as usize);
            }
            "move-overhead" => {
                let n = integer(name, value)?;
                if n > u64::from(MOVE_OVERHEAD_MAX_MS) {
                    return Err(format!(
                        "move-overhead={n} is out of range 0-{MOVE_OVERHEAD_MAX_MS}"
                    ));
                }
                self.move_overhead = n as u32;
            }
            "ponder" => self.ponder = boolean(name, value)?,
            "book" => {
                self.book = boolean(name, value)?;
                self.apply_book()?;
            }
            "book-file" => {
                self.book_file = value.to_string();
                self.apply_book()?;
            }
            "book-margin" => {
                let n = integer(name, value)?;
                if n > u64::from(BOOK_MARGIN_MAX) {
                    return Err(format!("book-margin={n} is out of range 0-{BOOK_MARGIN_MAX}"));
                }
                self.book_margin = n as u32;
                self.apply_book()?;
            }
            "eval-file" => crate::eval::choice::set_eval_file(self.variant.name(), value)?,
            "egdb-dir" => drop(crate::egdb::registry::set_dir(
                self.variant,
                value,
                self.egdb_notify(),
            )?),
            "egdb-pieces" => {
                let n = u32::try_from(integer(name, value)?).unwrap_or(u32::MAX);
                drop(crate::egdb::registry::set_pieces(
                    self.variant,
                    n,
                    self.egdb_notify(),
                )?);
            }
            "multipv" => {
                let n = integer(name, value)?;
                if !(1..=MULTIPV_MAX as u64).contains(&n) {
                    return Err(format!("multipv={n} is out of range 1-{MULTIPV_MAX}"));
                }
                self.multipv = n as usize;
            }
            "limit-strength" => {
                self.strength.limited = boolean(name, value)?;
                self.apply_strength();
            }
            "elo" => {
                let n = integer(name, value)?;
                if !(u64::from(ELO_MIN)..=u64::from(ELO_MAX)).contains(&n) {
                    return Err(format!("elo={n} is out of range {ELO_MIN}-{ELO_MAX}"));
                }
                self.strength.elo = n as u32;
                self.apply_strength();
            }
            _ => {
                if !rule_options().iter().any(|o| o.name == name) {
                    return Err(format!("unknown parameter {}", quote(name)));
                }
                check_rule_option(name, value)?;
                self.session.set_rule_option(name, value)?;
                self.options.retain(|(n, _)| n != name);
                self.options.push((name.to_string(), value.to_string()));
            }
        }
        Ok(())
    }

    /// A new session for the variant, with the table size and rule options set so far.
    fn rebuild(&mut self) -> Result<(), String> {
        // The old table goes first: a variant change never holds two tables at once.
        let _ = self.session.resize(1);
        let (session, warning) = new_session(
            self.variant,
            tt_mib(self.tt_size),
            &self.options,
            MoveStyle::Hub,
            self.sender.clone(),
        );
        self.session = session;
        self.session.set_threads(self.threads as usize);
        self.apply_strength();
        // Each setting is carried over on its own: one that fails (no book ships for the new
        // variant) must not keep the others (the new variant's endgame tables) from following.
        super::every_error([
            warning.map_or(Ok(()), Err),
            self.apply_book(),
            crate::egdb::registry::follow_variant(self.variant, self.egdb_notify()).map(drop),
        ])
    }

    /// Gives the session the book of `book`, `book-file` and `book-margin`: played from when `book`
    /// is true and a file is named (the file is read again at each change, so a rebuilt book is
    /// taken up).
    ///
    /// A book that cannot be had turns `book` off (the session has none then), so that `param`
    /// shows what is played and a later variant with a book does not take it up unasked.
    fn apply_book(&mut self) -> Result<(), String> {
        let source = BookSource::of_settings(self.book, &self.book_file);
        self.session
            .set_book(source, self.book_margin as i32)
            .map_err(|e| {
                self.book = false;
                format!("{e}; book is off (book=false)")
            })
    }

    /// Gives the session the handicap of `limit-strength` and `elo`.
    fn apply_strength(&mut self) {
        self.session.set_handicap(self.strength.handicap());
    }

    fn pos(&mut self, line: &HubLine) -> Result<(), String> {
        self.level = Level::default();
        // The position string and moves arrive in the variant's Hub numbering; a FEN does not.
        let notation = self.variant.hub_notation();
        let text = line.get("pos").map(|t| notation.position_to_tempo(t));
        let start = match text.as_deref() {
            Some(text) if !line.has("start") => Start::HubOrFen(text),
            _ => Start::Initial,
        };
        let sent: Vec<&str> = line
            .get("moves")
            .map(|m| m.split_whitespace().collect())
            .unwrap_or_default();
        let moves: Vec<String> = sent.iter().map(|m| notation.move_to_tempo(m)).collect();
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        let set = self.session.set_position(start, &moves).map_err(|e| match e {
            SetupError::Position(_) => e.to_string(),
            // The move is named as the client sent it, in the reason too.
            SetupError::Move { index, text, reason } => {
                let as_sent: &str = index
                    .checked_sub(1)
                    .and_then(|i| sent.get(i))
                    .copied()
                    .unwrap_or(&text);
                let reason = if text.is_empty() {
                    reason
                } else {
                    reason.replace(text.as_str(), as_sent)
                };
                format!("bad move {index} {as_sent}: {reason}; the position is unchanged")
            }
        });
        self.refused = set.as_ref().err().cloned();
        set
    }

    fn level(&mut self, line: &HubLine) -> Result<(), String> {
        // Check every argument before changing anything: a bad line leaves the level as it was.
        let mut level = self.level;
        for (name, value) in &line.args {
            let v = value.as_deref().unwrap_or("");
            match name.as_str() {
                "depth" => {
                    let d = integer(name, v)?;
                    level.depth = Some(d.clamp(1, u64::from(MAX_DEPTH)) as u32);
                }
                "nodes" => level.nodes = Some(integer(name, v)?),
                "move-time" => level.move_time = Some(seconds(name, v)?),
                // pydraughts sends the time left minus the increment, which is below zero when
                // fewer than one increment is left (a first move of 0.5+1): that clock is the
                // increment alone, not a bad line (refused, it left the search unlimited).
                "time" => {
                    let negative = v.parse::<f64>().is_ok_and(|t| t < 0.0 && t.is_finite());
                    level.time = Some(if negative {
                        Duration::ZERO
                    } else {
                        seconds(name, v)?
                    });
                }
                "inc" => level.inc = Some(seconds(name, v)?),
                "moves" => {
                    let n = integer(name, v)?;
                    level.moves = (n > 0).then(|| n.min(u64::from(u32::MAX)) as u32);
                }
                "infinite" => level.infinite = true,
                // Scan's `ponder` flag, lidraughts' `handicap` and `ply`: not used by Tempo.
                _ => {}
            }
        }
        self.level = level;
        Ok(())
    }

    fn go(&mut self, line: &HubLine) -> Result<(), String> {
        self.want_default_tables();
        // A mode flag Tempo does not know starts nothing (other arguments are ignored, as Scan
        // ignores them).
        if let Some((mode, _)) = line
            .args
            .iter()
            .find(|(n, v)| v.is_none() && !["think", "ponder", "analyze"].contains(&n.as_str()))
        {
            return Err(format!("go takes think, ponder or analyze, not {mode}"));
        }
        let ponder = line.has("ponder");
        let analyze = line.has("analyze");
        let level = std::mem::take(&mut self.level);
        // A client whose `pos` was refused must not get a confident move for the position kept
        // from before, which it never sent (pydraughts and lidraughts-bot log the error line and
        // play the move): an error and a bare `done`, as for a game that is over.
        if let Some(why) = &self.refused {
            let message =
                format!("no position to search: the last pos was refused ({why}); send a valid pos");
            self.error(&message);
            self.out.line("done");
            return Ok(());
        }
        if self.session.is_over() {
            self.error("the game is over in this position: no legal move");
            self.out.line("done");
            return Ok(());
        }
        let clock = (level.time.is_some() || level.inc.is_some() || level.moves.is_some()).then(|| {
            // Hub's `time` leaves out the increment the engine adds before the move.
            Clock::hub(
                level.time.unwrap_or_default(),
                level.inc.unwrap_or_default(),
                level.moves,
            )
            .with_overhead(Duration::from_millis(u64::from(self.move_overhead)))
        });
        let limits = Limits {
            depth: level.depth,
            nodes: level.nodes,
            movetime: level.move_time,
            clock,
            infinite: level.infinite,
            multipv: self.multipv,
            play: !analyze,
        };
        self.session.go(limits, ponder, &[])?;
        self.searching = true;
        if let Some(why) = self.session.take_failure() {
            // Its `done` is already on its way: written now, before any later reply.
            self.error(&format!("internal error: {why}"));
            self.wait_search();
        }
        // With no limit at all the search runs to depth 100: at end of input it is stopped.
        let limited =
            level.depth.is_some() || level.nodes.is_some() || level.move_time.is_some() || clock.is_some();
        self.ends_after_hit = limited && !level.infinite;
        self.ends_alone = self.ends_after_hit && !ponder;
        Ok(())
    }
}

impl Face for Hub {
    fn input(&mut self, input: Input) -> bool {
        self.handle_input(input)
    }
    fn report(&mut self, report: Report) {
        self.handle_report(report);
    }
    fn reports(&self) -> &Receiver<Report> {
        &self.reports
    }
    fn end_of_input(&mut self) {
        if !self.ends_alone {
            self.session.stop();
        }
        self.wait_search();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_as_scan_reads_them() {
        let l = parse_line("  pos pos = Wbbe  moves=\"32-28 19-23\" start").unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(l.get("pos"), Some("Wbbe"));
        assert_eq!(l.get("moves"), Some("32-28 19-23"));
        assert!(l.has("start"));
        assert_eq!(l.get("start"), Some(""));
        assert_eq!(parse_line("").unwrap_err(), "missing command");
        assert!(parse_line("pos moves=\"32-28").is_err());
        assert!(parse_line("level depth=").is_err());
        assert!(parse_line("=x").is_err());
        assert!(parse_line("set-param name=a value=\"\"").is_ok());
    }

    #[test]
    fn values_are_quoted_only_when_needed() {
        assert_eq!(quote("31-27"), "31-27");
        assert_eq!(quote("31-27 17-21"), "\"31-27 17-21\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("a=b"), "\"a=b\"");
        assert_eq!(quote("say \"hi\""), "\"say 'hi'\"");
    }

    #[test]
    fn scores_use_scan_units() {
        assert_eq!(score_text(0), "0.00");
        assert_eq!(score_text(-5), "-0.05");
        assert_eq!(score_text(120), "1.20");
        // Win in 3 plies: 100 - 0.03.
        assert_eq!(score_text(WIN - 3), "99.97");
        assert_eq!(score_text(-(WIN - 4)), "-99.96");
        assert_eq!(score_text(20_000), "80.00");
    }

    #[test]
    fn variant_values_start_with_scans_names_and_cover_every_game() {
        let values = variant_values();
        assert_eq!(values[..5], ["normal", "killer", "bt", "frisian", "losing"]);
        assert_eq!(values.len(), Variant::ALL.len());
        for v in values {
            assert!(v.parse::<Variant>().is_ok(), "{v}");
        }
    }
}
