//! One game type behind an object-safe face: the position a protocol has set up (start position plus
//! the moves since), the rule options, and the engine that searches it. Front-ends hold a
//! `Box<dyn Session>` and build a new one when the variant changes; everything typed stays here.

use crate::engine::{Engine, Event};
use crate::eval::Evaluate;
use crate::game::{Game, MoveList, MoveStyle, Outcome, Side};
use crate::search::{Handicap, Info, Limits, replay};
use crate::variant::Variant;
use crossbeam_channel::Sender;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A search report with its moves already written in the front-end's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// One completed iteration (or one line of MultiPV).
    Info(Info<String>),
    /// The search is over. `best` is `None` only when the position has no legal move.
    Done {
        /// The move to play.
        best: Option<String>,
        /// The expected reply.
        ponder: Option<String>,
    },
    /// A move of the opening book, played without a search; the `Done` report follows.
    Book {
        /// The move, in the session's notation.
        mv: String,
        /// Its book score for the player to move, in hundredths of a man.
        score: i32,
    },
    /// A background load of endgame tables has ended: the line saying so, or the error that
    /// turned the tables off (`crate::egdb::registry`).
    Egdb(Result<String, String>),
}

/// Where a position command starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start<'a> {
    /// The variant's initial position.
    Initial,
    /// A PDN FEN.
    Fen(&'a str),
    /// A Hub position string, or a PDN FEN when it is not one (Hub's `pos=` takes both).
    HubOrFen(&'a str),
}

/// The position was not set: what was wrong. The session keeps its previous position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The start position could not be read.
    Position(String),
    /// Move number `index` (1-based) of the list, `text`, could not be played.
    Move {
        /// 1-based place of the move in the list.
        index: usize,
        /// The move as sent.
        text: String,
        /// Why it was refused.
        reason: String,
    },
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Position(e) => {
                // A syntax error of the position already says "bad position".
                let e = e.strip_prefix("bad position: ").unwrap_or(e);
                write!(f, "bad position: {e}")
            }
            SetupError::Move { index, text, reason } => write!(f, "bad move {index} {text}: {reason}"),
        }
    }
}

/// What the protocol front-ends need of a game, whatever its type.
pub trait Session: Send {
    /// The variant played.
    fn variant(&self) -> Variant;
    /// Sets the position: a start and the moves played from it. On error nothing changes.
    ///
    /// # Errors
    /// The start position or a move that cannot be read or played.
    fn set_position(&mut self, start: Start<'_>, moves: &[&str]) -> Result<(), SetupError>;
    /// Sets a rule option (kept for every later position; options the game does not offer are kept
    /// for when the variant changes and otherwise ignored).
    ///
    /// # Errors
    /// A value the option does not take.
    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<(), String>;
    /// Whether the current position has no legal move.
    fn is_over(&self) -> bool;
    /// The player to move in the current position.
    fn side_to_move(&self) -> Side;
    /// The result of the current position when the rules end the game there.
    fn outcome(&self) -> Option<Outcome>;
    /// The current position as PDN FEN.
    fn fen(&self) -> String;
    /// Starts a search of the current position, reporting to the session's channel. `only` lists
    /// root moves to restrict the search to (UCI `searchmoves`).
    ///
    /// # Errors
    /// A move of `only` that is not legal here (nothing starts).
    fn go(&mut self, limits: Limits, ponder: bool, only: &[&str]) -> Result<(), String>;
    /// Why the search started by the last [`Session::go`] could not run, once: its thread could
    /// not be started and its `Done` report (the first legal move) is already sent. A front-end
    /// reports it as an internal error.
    fn take_failure(&mut self) -> Option<String>;
    /// Asks a running search to stop; its `Done` report follows.
    fn stop(&self);
    /// The opponent played the expected move.
    fn ponder_hit(&self);
    /// Forgets everything learnt (the table).
    fn new_game(&mut self);
    /// Resizes the table.
    ///
    /// # Errors
    /// The memory cannot be had; the old table stays.
    fn resize(&mut self, mib: usize) -> Result<(), String>;
    /// How full the table is, in permille.
    fn hashfull(&self) -> u32;
    /// Plays below full strength from the next search on (`None`: full strength).
    fn set_handicap(&mut self, handicap: Option<Handicap>);
    /// Searches on `threads` threads from the next search on.
    fn set_threads(&mut self, threads: usize);
    /// Plays from the opening book `source`, choosing among the moves within `margin` hundredths
    /// of a man of the best. A game search ([`Limits::play`], not
    /// infinite, not pondering, every root move allowed) in a position the book has expanded then
    /// answers at once with a [`Report::Book`] and its `Done`.
    ///
    /// # Errors
    /// The file cannot be read, is damaged, or is a book of another variant, or no book ships for
    /// the variant; no book is then used.
    fn set_book(&mut self, source: BookSource<'_>, margin: i32) -> Result<(), String>;
}

/// Where the opening book of a session comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookSource<'a> {
    /// No book: every move is searched.
    Off,
    /// The book compiled into the binary for the variant ([`crate::book::shipped`]).
    Shipped,
    /// A book file (`tempo book build`).
    File(&'a str),
}

impl<'a> BookSource<'a> {
    /// The source of the protocols' settings: `on` (Hub `book`, UCI `OwnBook`) and a file name
    /// (Hub `book-file`, UCI `BookFile`), where an empty name means the shipped book.
    pub fn of_settings(on: bool, file: &'a str) -> BookSource<'a> {
        match (on, file.is_empty()) {
            (false, _) => BookSource::Off,
            (true, true) => BookSource::Shipped,
            (true, false) => BookSource::File(file),
        }
    }
}

/// A [`Session`] over one game type.
pub struct GameSession<G: Evaluate> {
    variant: Variant,
    engine: Engine<G>,
    start: G,
    moves: Vec<G::Move>,
    position: G,
    history: Vec<u64>,
    options: Vec<(String, String)>,
    style: MoveStyle,
    reports: Sender<Report>,
    /// The opening book, its margin, and the draw among the moves within it.
    book: Option<crate::book::Book>,
    book_margin: i32,
    book_rng: ChaCha8Rng,
}

impl<G: Evaluate> GameSession<G> {
    fn with_options(&self, mut pos: G) -> G {
        for (name, value) in &self.options {
            if G::options().iter().any(|o| o.name == name) {
                // Values were checked when the option was set.
                let _ = pos.set_option(name, value);
            }
        }
        pos
    }

    fn replay(&mut self) {
        let start = self.with_options(self.start);
        let (position, history) = replay(&start, &self.moves);
        self.position = position;
        self.history = history;
    }
}

/// Writes a line of moves from `pos` in `style`.
fn write_line<G: Game>(mut pos: G, moves: &[G::Move], style: MoveStyle) -> Vec<String> {
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        out.push(pos.format_move(m, style));
        pos = pos.play(m);
    }
    out
}

impl<G: Evaluate> Session for GameSession<G> {
    fn variant(&self) -> Variant {
        self.variant
    }

    fn set_position(&mut self, start: Start<'_>, moves: &[&str]) -> Result<(), SetupError> {
        let origin = match start {
            Start::Initial => G::start(),
            Start::Fen(text) => G::from_fen(text).map_err(|e| SetupError::Position(e.to_string()))?,
            Start::HubOrFen(text) => match G::from_hub(text) {
                Ok(p) => p,
                Err(hub_error) if !text.contains(':') => {
                    return Err(SetupError::Position(hub_error.to_string()));
                }
                Err(_) => G::from_fen(text).map_err(|e| SetupError::Position(e.to_string()))?,
            },
        };
        let mut pos = self.with_options(origin);
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = pos.parse_move(text).map_err(|e| SetupError::Move {
                index: i + 1,
                text: (*text).to_string(),
                reason: e.to_string(),
            })?;
            played.push(mv);
            pos = pos.play(&mv);
        }
        self.start = origin;
        self.moves = played;
        self.replay();
        Ok(())
    }

    fn set_rule_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if let Some(option) = G::options().iter().find(|o| o.name == name) {
            let mut probe = G::start();
            probe.set_option(name, value)?;
            debug_assert!(option.values.contains(&value) || option.values.is_empty());
        }
        self.options.retain(|(n, _)| n != name);
        self.options.push((name.to_string(), value.to_string()));
        self.replay();
        Ok(())
    }

    fn is_over(&self) -> bool {
        let mut moves = MoveList::new();
        self.position.generate(&mut moves);
        moves.is_empty()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    fn side_to_move(&self) -> Side {
        self.position.side_to_move()
    }

    fn fen(&self) -> String {
        self.position.to_fen()
    }

    fn go(&mut self, limits: Limits, ponder: bool, only: &[&str]) -> Result<(), String> {
        let root = self.position;
        // A game move from the book: at once, no search (analysis and pondering search).
        if limits.play
            && !limits.infinite
            && !ponder
            && only.is_empty()
            && let Some(book) = &self.book
            && let Some(m) = book.choose(&root, self.book_margin, &mut self.book_rng)
        {
            self.engine.stop();
            self.engine.wait();
            let mv = root.format_move(&m.mv, self.style);
            let _ = self.reports.send(Report::Book {
                mv: mv.clone(),
                score: m.score,
            });
            let _ = self.reports.send(Report::Done {
                best: Some(mv),
                ponder: None,
            });
            return Ok(());
        }
        let mut restrict = Vec::with_capacity(only.len());
        for text in only {
            let mv = root
                .parse_move(text)
                .map_err(|e| format!("searchmoves {text}: {e}"))?;
            restrict.push(mv);
        }
        let style = self.style;
        let reports = self.reports.clone();
        self.engine.go_with(
            root,
            self.history.clone(),
            limits,
            ponder,
            restrict,
            move |event| {
                let report = match event {
                    Event::Info(info) => Report::Info(Info {
                        depth: info.depth,
                        seldepth: info.seldepth,
                        score: info.score,
                        nodes: info.nodes,
                        time: info.time,
                        pv: write_line(root, &info.pv, style),
                        multipv: info.multipv,
                    }),
                    Event::Done { best, ponder } => Report::Done {
                        best: best.map(|b| root.format_move(&b, style)),
                        ponder: best
                            .zip(ponder)
                            .map(|(b, p)| root.play(&b).format_move(&p, style)),
                    },
                };
                let _ = reports.send(report);
            },
        );
        Ok(())
    }

    fn take_failure(&mut self) -> Option<String> {
        self.engine.take_failure()
    }

    fn stop(&self) {
        self.engine.stop();
    }

    fn ponder_hit(&self) {
        self.engine.ponder_hit();
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn resize(&mut self, mib: usize) -> Result<(), String> {
        self.engine.resize(mib)
    }

    fn hashfull(&self) -> u32 {
        self.engine.hashfull()
    }

    fn set_handicap(&mut self, handicap: Option<Handicap>) {
        self.engine.set_handicap(handicap);
    }

    fn set_threads(&mut self, threads: usize) {
        self.engine.set_threads(threads);
    }

    fn set_book(&mut self, source: BookSource<'_>, margin: i32) -> Result<(), String> {
        self.book = None;
        self.book_margin = margin;
        self.book = match source {
            BookSource::Off => None,
            BookSource::Shipped => Some(crate::book::shipped::load(G::NAME)?),
            BookSource::File(p) => Some(crate::book::Book::load_for::<G>(std::path::Path::new(p))?),
        };
        Ok(())
    }
}

/// A session for `variant` at its initial position, with a table of `tt_mib` MiB (1 MiB when that
/// much memory cannot be had: the second value says why), the rule options `options`, moves written
/// in `style`, and reports sent to `reports`.
pub fn new_session(
    variant: Variant,
    tt_mib: usize,
    options: &[(String, String)],
    style: MoveStyle,
    reports: Sender<Report>,
) -> (Box<dyn Session>, Option<String>) {
    crate::with_variant!(variant, G => {
        let mut engine = Engine::<G>::new(1);
        let warning = engine.resize(tt_mib).err();
        let mut session = GameSession::<G> {
            variant,
            engine,
            start: G::start(),
            moves: Vec::new(),
            position: G::start(),
            history: Vec::new(),
            options: options.to_vec(),
            style,
            reports,
            book: None,
            book_margin: 0,
            // Games from the same position differ from one process to the next.
            book_rng: ChaCha8Rng::from_os_rng(),
        };
        session.replay();
        (Box::new(session) as Box<dyn Session>, warning)
    })
}
