//! The UCI-style dialect (`protocol.md` §2): chess UCI's commands with draughts positions (PDN FEN)
//! and moves in each variant's own notation.

use super::session::{BookSource, Report, Session, Start, new_session};
use super::{Face, Input, MAX_LINE, Out, check_rule_option, clip_message, rule_options};
use crate::game::{MoveStyle, Side};
use crate::search::{
    Clock, ELO_MAX, ELO_MIN, Info, Limits, MAX_DEPTH, MAX_THREADS, MOVE_OVERHEAD, MOVE_OVERHEAD_MAX_MS,
    Strength, win_distance,
};
use crate::variant::Variant;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::time::Duration;

/// Default `Hash` in MiB.
pub const HASH_DEFAULT: usize = 64;
/// The largest `Hash` offered, in MiB (the memory actually available may refuse less).
pub const HASH_MAX: usize = 1 << 16;
pub use crate::search::MULTIPV_MAX;

/// An `info` line: `info depth seldepth multipv score cp|win nodes nps time hashfull pv`.
pub fn info_line(info: &Info<String>, hashfull: u32) -> String {
    let ms = info.time.as_millis();
    let nps = (u128::from(info.nodes) * 1000).checked_div(ms).unwrap_or(0);
    let score = match win_distance(info.score) {
        Some(moves) => format!("win {moves}"),
        None => format!("cp {}", info.score),
    };
    format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {nps} time {ms} hashfull {hashfull} pv {}",
        info.depth,
        info.seldepth,
        info.multipv.max(1),
        info.nodes,
        info.pv.join(" ")
    )
}

/// The keywords of `go`.
const GO_WORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// What a `go` line asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Root moves to search only.
    pub searchmoves: Vec<String>,
    /// Search in ponder mode.
    pub ponder: bool,
    /// Time left in milliseconds, White and Black.
    pub time: [Option<u64>; 2],
    /// Increment in milliseconds, White and Black.
    pub inc: [Option<u64>; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Time for this move, milliseconds.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Values out of range that were brought into it, each said in an `info string`.
    pub notes: Vec<String>,
}

fn number<T: std::str::FromStr>(word: &str, value: Option<&&str>) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("go {word} needs a number"))?;
    value
        .parse()
        .map_err(|_| format!("go {word} {value}: not a number in range"))
}

/// Milliseconds, where a clock below zero (a GUI that lets a clock run out) counts as zero.
fn millis(word: &str, value: Option<&&str>) -> Result<u64, String> {
    let v: i64 = number(word, value)?;
    Ok(v.max(0) as u64)
}

/// Reads the words after `go`.
///
/// # Errors
/// An unknown word, a missing or malformed number, or a value out of range.
pub fn parse_go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let value = words.get(i + 1);
        i += 2;
        match word {
            "searchmoves" => {
                i -= 1;
                while i < words.len() && !GO_WORDS.contains(&words[i]) {
                    go.searchmoves.push(words[i].to_string());
                    i += 1;
                }
            }
            "ponder" => {
                go.ponder = true;
                i -= 1;
            }
            "infinite" => {
                go.infinite = true;
                i -= 1;
            }
            "wtime" => go.time[0] = Some(millis(word, value)?),
            "btime" => go.time[1] = Some(millis(word, value)?),
            "winc" => go.inc[0] = Some(millis(word, value)?),
            "binc" => go.inc[1] = Some(millis(word, value)?),
            "movestogo" => {
                let n: u32 = number(word, value)?;
                go.movestogo = (n > 0).then_some(n);
            }
            "depth" => {
                // A depth out of range is brought into it rather than refused: a refused `go`
                // would leave the GUI waiting for a `bestmove`.
                let d: i64 = number(word, value)?;
                let kept = d.clamp(1, i64::from(MAX_DEPTH));
                if kept != d {
                    go.notes.push(format!(
                        "go depth {d}: out of range 1-{MAX_DEPTH}; searching to depth {kept}"
                    ));
                }
                go.depth = Some(kept as u32);
            }
            "nodes" => go.nodes = Some(number(word, value)?),
            "movetime" => {
                let t: i64 = number(word, value)?;
                if t < 0 {
                    go.notes.push(format!("go movetime {t}: below 0; taken as 0"));
                }
                go.movetime = Some(t.max(0) as u64);
            }
            "mate" => return Err("go mate is not supported; use depth".to_string()),
            other => return Err(format!("go: unknown word {other:?}")),
        }
    }
    Ok(go)
}

/// The UCI-style front-end.
pub struct Uci {
    out: Out,
    session: Box<dyn Session>,
    reports: Receiver<Report>,
    sender: Sender<Report>,
    variant: Variant,
    hash: usize,
    /// `Threads`.
    threads: usize,
    /// `Move Overhead`: milliseconds kept back on the clock ([`Clock::overhead`]).
    move_overhead: u32,
    multipv: usize,
    ponder: bool,
    /// `OwnBook`, `BookFile` and `BookMargin`: the opening book.
    book: bool,
    book_file: String,
    book_margin: u32,
    /// `UCI_LimitStrength` and `UCI_Elo`.
    strength: Strength,
    options: Vec<(String, String)>,
    searching: bool,
    /// The running search ends by itself (it has a limit and is neither infinite nor waiting for
    /// `ponderhit`): at end of input it is let finish.
    ends_alone: bool,
    /// The running ponder search will end by itself after `ponderhit`.
    ends_after_hit: bool,
    /// Why the last `position` was refused, until a valid one arrives: `go` then searches
    /// nothing, since the position kept is not the one the GUI sent.
    refused: Option<String>,
}

impl Uci {
    /// A UCI-style engine writing to `out`, set up for International draughts.
    pub fn new(out: Out) -> Uci {
        Uci::with_hash(out, HASH_DEFAULT)
    }

    /// As [`Uci::new`] with a table of `hash` MiB (clamped to `Hash`'s range): tests and fuzz
    /// targets use the smallest.
    pub fn with_hash(out: Out, hash: usize) -> Uci {
        let hash = hash.clamp(1, HASH_MAX);
        let (sender, reports) = unbounded();
        let (session, _) = new_session(
            Variant::International,
            hash,
            &[],
            MoveStyle::Standard,
            sender.clone(),
        );
        Uci {
            out,
            session,
            reports,
            sender,
            variant: Variant::International,
            hash,
            threads: 1,
            move_overhead: MOVE_OVERHEAD.as_millis() as u32,
            multipv: 1,
            ponder: false,
            book: false,
            book_file: String::new(),
            book_margin: crate::protocol::hub::BOOK_MARGIN,
            strength: Strength::default(),
            options: Vec::new(),
            searching: false,
            ends_alone: false,
            ends_after_hit: false,
            refused: None,
        }
    }

    /// Ends a running search, if any, and writes its last lines (`bestmove` included).
    pub fn finish(&mut self) {
        self.finish_search();
    }

    /// The lines written since the last call, when writing to [`Out::buffer`].
    pub fn take_output(&mut self) -> Vec<String> {
        self.out.take()
    }

    fn error(&mut self, message: &str) {
        self.out
            .line(&format!("info string error: {}", clip_message(message)));
    }

    /// Where a background load of endgame tables reports its end: this front-end's report queue.
    fn egdb_notify(&self) -> crate::egdb::registry::Notify {
        let sender = self.sender.clone();
        Box::new(move |r| drop(sender.send(Report::Egdb(r))))
    }

    /// Starts the default endgame tables, once, if `EGDB_Path` is empty
    /// ([`crate::egdb::registry::want_defaults`]). Their news and their failures are both
    /// `info string` lines: the engine plays on without tables either way.
    fn want_default_tables(&self) {
        let sender = self.sender.clone();
        crate::egdb::registry::want_defaults(
            self.variant,
            std::sync::Arc::new(move |r: Result<String, String>| {
                drop(sender.send(Report::Egdb(Ok(r.unwrap_or_else(|e| e)))));
            }),
        );
    }

    fn handle_report(&mut self, report: Report) {
        match report {
            Report::Info(info) => {
                let hashfull = self.session.hashfull();
                self.out.line(&info_line(&info, hashfull));
            }
            Report::Egdb(Ok(msg)) => self.out.line(&format!("info string {msg}")),
            Report::Book { mv, score } => {
                self.out.line(&format!("info depth 0 score cp {score} pv {mv}"));
                self.out.line(&format!("info string book move {mv}"));
            }
            Report::Egdb(Err(e)) => self.error(&e),
            Report::Done { best, ponder } => {
                self.searching = false;
                self.out.line(&match (best, ponder) {
                    (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
                    (Some(b), None) => format!("bestmove {b}"),
                    (None, _) => "bestmove (none)".to_string(),
                });
            }
        }
    }

    fn finish_search(&mut self) {
        self.session.stop();
        self.wait_search();
    }

    /// Writes the running search's lines until its `bestmove`.
    fn wait_search(&mut self) {
        while self.searching {
            match self.reports.recv() {
                Ok(r) => self.handle_report(r),
                Err(_) => self.searching = false,
            }
        }
    }

    fn handle_input(&mut self, input: Input) -> bool {
        let line = match input {
            Input::Line(l) => l,
            Input::TooLong(n) => {
                self.error(&format!("line too long ({n} bytes; at most {MAX_LINE})"));
                return true;
            }
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else {
            return true;
        };
        let result = match command {
            "uci" => {
                self.handshake();
                Ok(())
            }
            "isready" => {
                self.want_default_tables();
                self.out.line("readyok");
                Ok(())
            }
            "setoption" => {
                self.finish_search();
                self.setoption(rest)
            }
            "ucinewgame" => {
                self.finish_search();
                self.session.new_game();
                Ok(())
            }
            "position" => self.set_position(rest),
            "go" => {
                self.finish_search();
                self.want_default_tables();
                self.go(rest)
            }
            "stop" => {
                self.finish_search();
                Ok(())
            }
            "ponderhit" => {
                self.session.ponder_hit();
                self.ends_alone = self.ends_after_hit;
                Ok(())
            }
            "quit" => {
                self.finish_search();
                return false;
            }
            "debug" | "register" => Ok(()),
            other => Err(format!("unknown command {other:?}")),
        };
        if let Err(e) = result {
            self.error(&e);
        }
        true
    }

    fn handshake(&mut self) {
        self.out
            .line(&format!("id name Tempo {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Tempo developers");
        let vars: Vec<String> = Variant::ALL.iter().map(|v| format!("var {}", v.name())).collect();
        self.out.line(&format!(
            "option name UCI_Variant type combo default {} {}",
            self.variant.name(),
            vars.join(" ")
        ));
        self.out.line(&format!(
            "option name Hash type spin default {} min 1 max {HASH_MAX}",
            self.hash
        ));
        self.out.line(&format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            self.threads
        ));
        self.out.line(&format!(
            "option name Move Overhead type spin default {} min 0 max {MOVE_OVERHEAD_MAX_MS}",
            self.move_overhead
        ));
        self.out.line(&format!(
            "option name MultiPV type spin default {} min 1 max {MULTIPV_MAX}",
            self.multipv
        ));
        self.out
            .line(&format!("option name Ponder type check default {}", self.ponder));
        self.out
            .line(&format!("option name OwnBook type check default {}", self.book));
        self.out.line(&format!(
            "option name BookFile type string default {}",
            if self.book_file.is_empty() {
                "<empty>"
            } else {
                self.book_file.as_str()
            }
        ));
        self.out.line(&format!(
            "option name BookMargin type spin default {} min 0 max {}",
            self.book_margin,
            crate::protocol::hub::BOOK_MARGIN_MAX
        ));
        self.out.line("option name Clear Hash type button");
        self.out.line(&format!(
            "option name UCI_LimitStrength type check default {}",
            self.strength.limited
        ));
        self.out.line(&format!(
            "option name UCI_Elo type spin default {} min {ELO_MIN} max {ELO_MAX}",
            self.strength.elo
        ));
        self.out.line(&format!(
            "option name EvalFile type string default {}",
            crate::eval::choice::current_label(self.variant.name())
        ));
        let (egdb_dir, egdb_pieces) = crate::egdb::registry::settings();
        let egdb_dir = if egdb_dir.is_empty() {
            "<empty>".to_string()
        } else {
            egdb_dir
        };
        self.out
            .line(&format!("option name EGDB_Path type string default {egdb_dir}"));
        self.out.line(&format!(
            "option name EGDB_Pieces type spin default {egdb_pieces} min 0 max {}",
            crate::egdb::registry::MAX_PIECES
        ));
        for o in rule_options() {
            let value = self
                .options
                .iter()
                .find(|(n, _)| n == o.name)
                .map_or(o.default, |(_, v)| v.as_str());
            if o.values == ["true", "false"] {
                self.out
                    .line(&format!("option name {} type check default {value}", o.name));
            } else {
                let vars: Vec<String> = o.values.iter().map(|v| format!("var {v}")).collect();
                self.out.line(&format!(
                    "option name {} type combo default {value} {}",
                    o.name,
                    vars.join(" ")
                ));
            }
        }
        self.out.line("uciok");
    }

    fn setoption(&mut self, words: &[&str]) -> Result<(), String> {
        if words.first() != Some(&"name") {
            return Err("setoption needs: setoption name <name> [value <value>]".to_string());
        }
        let split = words.iter().position(|w| *w == "value");
        let name = words[1..split.unwrap_or(words.len())].join(" ");
        let value = split.map(|i| words[i + 1..].join(" ")).unwrap_or_default();
        let spin = |max: usize| -> Result<usize, String> {
            let n: usize = value
                .parse()
                .map_err(|_| format!("option {name} takes a number, not {value:?}"))?;
            if (1..=max).contains(&n) {
                Ok(n)
            } else {
                Err(format!("option {name} value {n} is out of range 1-{max}"))
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let v: Variant = value.parse().map_err(|e| format!("{e}"))?;
                if v != self.variant {
                    self.variant = v;
                    self.rebuild()?;
                }
            }
            "hash" => {
                let mib = spin(HASH_MAX)?;
                self.session.resize(mib)?;
                self.hash = mib;
            }
            "threads" => {
                self.threads = spin(MAX_THREADS)?;
                self.session.set_threads(self.threads);
            }
            "multipv" => self.multipv = spin(MULTIPV_MAX)?,
            "move overhead" => {
                let n: u32 = value
                    .parse()
                    .ok()
                    .filter(|&n| n <= MOVE_OVERHEAD_MAX_MS)
                    .ok_or_else(|| {
                        format!(
                            "option Move Overhead takes milliseconds 0-{MOVE_OVERHEAD_MAX_MS}, not {value:?}"
                        )
                    })?;
                self.move_overhead = n;
            }
            "ponder" => {
                self.ponder = match value.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("option Ponder takes true or false, not {value:?}")),
                }
            }
            "ownbook" => {
                self.book = match value.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("option OwnBook takes true or false, not {value:?}")),
                };
                self.apply_book()?;
            }
            "bookfile" => {
                self.book_file = if value == "<empty>" {
                    String::new()
                } else {
                    value.clone()
                };
                self.apply_book()?;
            }
            "bookmargin" => {
                let max = crate::protocol::hub::BOOK_MARGIN_MAX;
                self.book_margin = value.parse().ok().filter(|&n| n <= max).ok_or_else(|| {
                    format!("option BookMargin takes hundredths of a man 0-{max}, not {value:?}")
                })?;
                self.apply_book()?;
            }
            "clear hash" => self.session.new_game(),
            "evalfile" => crate::eval::choice::set_eval_file(self.variant.name(), &value)?,
            "egdb_path" => {
                let dir = if value == "<empty>" { "" } else { value.as_str() };
                let msg = crate::egdb::registry::set_dir(self.variant, dir, self.egdb_notify())?;
                self.out.line(&format!("info string {msg}"));
            }
            "egdb_pieces" => {
                let n: u32 = value
                    .parse()
                    .map_err(|_| format!("option EGDB_Pieces takes a number, not {value:?}"))?;
                let msg = crate::egdb::registry::set_pieces(self.variant, n, self.egdb_notify())?;
                self.out.line(&format!("info string {msg}"));
            }
            "uci_limitstrength" => {
                self.strength.limited = match value.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "option UCI_LimitStrength takes true or false, not {value:?}"
                        ));
                    }
                };
                self.apply_strength();
            }
            "uci_elo" => {
                let n: u32 = value
                    .parse()
                    .map_err(|_| format!("option UCI_Elo takes a number, not {value:?}"))?;
                if !(ELO_MIN..=ELO_MAX).contains(&n) {
                    return Err(format!(
                        "option UCI_Elo value {n} is out of range {ELO_MIN}-{ELO_MAX}"
                    ));
                }
                self.strength.elo = n;
                self.apply_strength();
            }
            _ => {
                // Option names are not case-sensitive in UCI; the rule options keep their own.
                let name = rule_options()
                    .iter()
                    .find(|o| o.name.eq_ignore_ascii_case(&name))
                    .map(|o| o.name.to_string())
                    .ok_or_else(|| format!("unknown option {name:?}"))?;
                check_rule_option(&name, &value)?;
                self.session.set_rule_option(&name, &value)?;
                self.options.retain(|(n, _)| *n != name);
                self.options.push((name, value));
            }
        }
        Ok(())
    }

    fn rebuild(&mut self) -> Result<(), String> {
        // The old table goes first: a variant change never holds two tables at once.
        let _ = self.session.resize(1);
        let (session, warning) = new_session(
            self.variant,
            self.hash,
            &self.options,
            MoveStyle::Standard,
            self.sender.clone(),
        );
        self.session = session;
        self.session.set_threads(self.threads);
        self.apply_strength();
        // Each setting is carried over on its own: one that fails (no book ships for the new
        // variant) must not keep the others (the new variant's endgame tables) from following.
        super::every_error([
            warning.map_or(Ok(()), Err),
            self.apply_book(),
            crate::egdb::registry::follow_variant(self.variant, self.egdb_notify()).map(drop),
        ])
    }

    /// Gives the session the book of `OwnBook`, `BookFile` and `BookMargin` (read again at each
    /// change).
    ///
    /// A book that cannot be had turns `OwnBook` off (the session has none then), so that a later
    /// variant with a book does not take it up unasked.
    fn apply_book(&mut self) -> Result<(), String> {
        let source = BookSource::of_settings(self.book, &self.book_file);
        self.session
            .set_book(source, self.book_margin as i32)
            .map_err(|e| {
                self.book = false;
                format!("{e}; OwnBook is off")
            })
    }

    /// Gives the session the handicap of `UCI_LimitStrength` and `UCI_Elo`.
    fn apply_strength(&mut self) {
        self.session.set_handicap(self.strength.handicap());
    }

    fn position(&mut self, words: &[&str]) -> Result<(), String> {
        let moves_at = words.iter().position(|w| *w == "moves");
        let head = &words[..moves_at.unwrap_or(words.len())];
        let moves = moves_at.map_or(&[][..], |i| &words[i + 1..]);
        let fen;
        let start = match head.split_first() {
            Some((&"startpos", [])) => Start::Initial,
            Some((&"fen", rest)) if !rest.is_empty() => {
                fen = rest.join(" ");
                Start::Fen(&fen)
            }
            _ => {
                return Err("position needs: position startpos|fen <FEN> [moves <move>...]".to_string());
            }
        };
        self.session
            .set_position(start, moves)
            .map_err(|e| format!("{e}; the position is unchanged"))
    }

    /// [`Uci::position`], remembering a refusal until a valid position arrives.
    fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let set = self.position(words);
        self.refused = set.as_ref().err().cloned();
        set
    }

    /// Starts a search. Every `go` ends in a `bestmove`: values out of range are brought into it
    /// (with an `info string`), and a line that cannot be read is answered with its error and a
    /// search to depth 1.
    fn go(&mut self, words: &[&str]) -> Result<(), String> {
        let go = parse_go(words).unwrap_or_else(|e| {
            self.error(&format!("{e}; searching to depth 1"));
            Go {
                depth: Some(1),
                ..Go::default()
            }
        });
        for note in &go.notes {
            self.out.line(&format!("info string {note}"));
        }
        // After a refused `position` the position kept is not the one the GUI sent: no move
        // for it (protocol.md 3.4).
        if let Some(why) = &self.refused {
            let message = format!(
                "no position to search: the last position was refused ({why}); send a valid position"
            );
            self.error(&message);
            self.out.line("bestmove (none)");
            return Ok(());
        }
        if self.session.is_over() {
            self.error("the game is over in this position: no legal move");
            self.out.line("bestmove (none)");
            return Ok(());
        }
        let side = match self.session.side_to_move() {
            Side::White => 0,
            Side::Black => 1,
        };
        let clock = go.time[side].map(|t| {
            Clock::uci(
                Duration::from_millis(t),
                Duration::from_millis(go.inc[side].unwrap_or(0)),
                go.movestogo,
            )
            .with_overhead(Duration::from_millis(u64::from(self.move_overhead)))
        });
        let movetime = go.movetime.map(Duration::from_millis);
        let bounded = clock.is_some() || movetime.is_some() || go.depth.is_some() || go.nodes.is_some();
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime,
            clock,
            // A bare `go` searches until `stop`, as in chess UCI.
            infinite: go.infinite || !bounded,
            multipv: self.multipv,
            play: clock.is_some() || movetime.is_some(),
        };
        let only: Vec<&str> = go.searchmoves.iter().map(String::as_str).collect();
        if let Err(e) = self.session.go(limits, go.ponder, &only) {
            // A `searchmoves` move that is not legal here: every move is searched instead.
            self.error(&format!("{e}; searching every move"));
            self.session.go(limits, go.ponder, &[])?;
        }
        self.searching = true;
        if let Some(why) = self.session.take_failure() {
            // Its `bestmove` is already on its way: written now, before any later reply.
            self.error(&format!("internal error: {why}"));
            self.wait_search();
        }
        self.ends_after_hit = bounded && !limits.infinite;
        self.ends_alone = self.ends_after_hit && !go.ponder;
        Ok(())
    }
}

impl Face for Uci {
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
    fn go_words_parse_with_ranges() {
        let g = parse_go(&["wtime", "1000", "btime", "-5", "winc", "10", "movestogo", "0"]).unwrap();
        assert_eq!(g.time, [Some(1000), Some(0)]);
        assert_eq!(g.inc, [Some(10), None]);
        assert_eq!(g.movestogo, None);
        let g = parse_go(&["searchmoves", "32-28", "33-29", "depth", "5", "ponder"]).unwrap();
        assert_eq!(g.searchmoves, ["32-28", "33-29"]);
        assert_eq!(g.depth, Some(5));
        assert!(g.ponder);
        let g = parse_go(&["depth", "300", "movetime", "-5"]).unwrap();
        assert_eq!((g.depth, g.movetime), (Some(MAX_DEPTH), Some(0)));
        assert_eq!(g.notes.len(), 2, "{:?}", g.notes);
        assert_eq!(parse_go(&["depth", "0"]).unwrap().depth, Some(1));
        assert!(parse_go(&["depth", "5"]).unwrap().notes.is_empty());
        assert!(parse_go(&["depth"]).is_err());
        assert!(parse_go(&["nodes", "99999999999999999999999"]).is_err());
        assert!(parse_go(&["think"]).is_err());
        assert!(parse_go(&["movetime", "1.5"]).is_err());
    }
}
