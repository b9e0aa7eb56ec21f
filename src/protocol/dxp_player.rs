//! Tempo as a DXP player (`tempo dxp`): the follower waits for connections (`--listen`) and
//! plays every game it is asked for; the initiator (`--connect`) asks for games. International
//! rules only (DXP is a 10x10 protocol).
//!
//! Each connection is served by one thread, one message at a time. Everything the peer may do
//! wrong ends at most the connection, never the process: a message that cannot be read, an
//! illegal move, a message over [`MAX_MESSAGE`] bytes, a message that does not end within
//! `message_timeout` of its first byte, silence beyond the peer's clock, a closed connection.
//! The game in progress is then recorded as unfinished (`*`), the reason is logged, and the
//! follower goes back to listening.

use super::dxp::{
    MAX_MESSAGE, Message, MessageReader, ReadError, move_from_hub, move_to_hub, position_from_hub,
    position_to_hub, send,
};
use crate::draughts::International;
use crate::engine::{Engine, Event};
use crate::game::{Game, MoveList, MoveStyle, Outcome, Repetition, Side};
use crate::pdn::{PdnGame, write_game};
use crate::search::{Clock, Limits, replay};
use std::io::Write;
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

type G = International;
type Mv = <International as Game>::Move;

/// How `tempo dxp` plays.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// The name sent in game requests and accepts.
    pub name: String,
    /// Transposition table, MiB.
    pub tt_mib: usize,
    /// A fixed time per move instead of the DXP clock.
    pub movetime: Option<Duration>,
    /// A depth limit per move.
    pub depth: Option<u32>,
    /// Time per move when the game request gives no time (0 minutes).
    pub default_movetime: Duration,
    /// Initiator: minutes in the game request.
    pub minutes: u32,
    /// Initiator: moves in the game request (0: the whole game).
    pub moves: u32,
    /// Initiator: Tempo's colour in the first game (later games alternate).
    pub colour: Side,
    /// Stop after this many games (any end, unfinished included). `None`: the follower listens
    /// for ever; the initiator plays one game.
    pub games: Option<u32>,
    /// Once a message has begun, the time it may take to end.
    pub message_timeout: Duration,
    /// The longest wait for a message when no clock bounds it (a game request, an accept, a move
    /// in a game without time).
    pub idle_timeout: Duration,
    /// How far beyond its clock the peer may go before Tempo stops waiting for its move.
    pub margin: Duration,
    /// Append each game as PDN here.
    pub pdn: Option<PathBuf>,
    /// Write every message sent and received, and every event, here.
    pub log: Option<PathBuf>,
}

impl Default for PlayerConfig {
    fn default() -> Self {
        PlayerConfig {
            name: format!("Tempo {}", env!("CARGO_PKG_VERSION")),
            tt_mib: 64,
            movetime: None,
            depth: None,
            default_movetime: Duration::from_secs(1),
            minutes: 5,
            moves: 75,
            colour: Side::White,
            games: None,
            message_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(300),
            margin: Duration::from_secs(10),
            pdn: None,
            log: None,
        }
    }
}

/// The log: events to standard error and the `--log` file, messages to the file only.
struct Log {
    file: Option<Mutex<std::fs::File>>,
    began: Instant,
    /// A write to the file failed (said once on standard error; later lines are dropped).
    failed: std::sync::atomic::AtomicBool,
}

impl Log {
    fn event(&self, text: &str) {
        crate::stderr_line!("dxp: {text}");
        self.write(&format!("event {text}"));
    }

    fn message(&self, dir: &str, text: &str) {
        self.write(&format!("{dir} {}", text.escape_debug()));
    }

    fn write(&self, line: &str) {
        if let Some(f) = &self.file
            && let Ok(mut f) = f.lock()
            && !self.failed.load(std::sync::atomic::Ordering::Relaxed)
            && let Err(e) = writeln!(f, "{:10.3} {line}", self.began.elapsed().as_secs_f64())
        {
            self.failed.store(true, std::sync::atomic::Ordering::Relaxed);
            crate::stderr_line!("dxp: --log cannot be written ({e}); the log stops here");
        }
    }
}

/// One game as it stands.
struct GameState {
    start: G,
    moves: Vec<Mv>,
    std_moves: Vec<String>,
    me: Side,
    opponent: String,
    /// Clock per control (`None`: no clock: move time).
    base: Option<Duration>,
    per_control: u32,
    left: [Duration; 2],
    made: [u32; 2],
    began: Instant,
}

impl GameState {
    fn new(start: G, me: Side, opponent: String, minutes: u32, moves: u32) -> Self {
        let base = (minutes > 0).then(|| Duration::from_secs(u64::from(minutes) * 60));
        GameState {
            start,
            moves: Vec::new(),
            std_moves: Vec::new(),
            me,
            opponent,
            base,
            per_control: moves,
            left: [base.unwrap_or_default(); 2],
            made: [0; 2],
            began: Instant::now(),
        }
    }

    fn position(&self) -> (G, Vec<u64>) {
        replay(&self.start, &self.moves)
    }

    fn play(&mut self, mv: Mv, elapsed: Duration) {
        let (pos, _) = self.position();
        let s = pos.side_to_move().index();
        self.std_moves.push(pos.format_move(&mv, MoveStyle::Standard));
        self.moves.push(mv);
        if let Some(base) = self.base {
            self.left[s] = self.left[s].saturating_sub(elapsed);
            self.made[s] += 1;
            if self.per_control > 0 && self.made[s] % self.per_control == 0 {
                self.left[s] += base;
            }
        }
    }

    fn clock(&self, side: Side) -> Option<Clock> {
        self.base.map(|_| Clock {
            time: self.left[side.index()],
            increment: Duration::ZERO,
            moves_to_go: (self.per_control > 0)
                .then(|| self.per_control - self.made[side.index()] % self.per_control),
            ..Clock::default()
        })
    }

    /// The rules' verdict at the current position: the end of the game or a repetition.
    fn verdict(&self) -> Option<(Outcome, String)> {
        let (pos, keys) = self.position();
        if let Some(o) = pos.outcome() {
            let mut list = MoveList::new();
            pos.generate(&mut list);
            let text = match o {
                Outcome::Win(s) if list.is_empty() => {
                    format!(
                        "{} wins: {} has no legal move",
                        side_name(s),
                        side_name(s.opponent())
                    )
                }
                Outcome::Win(s) => format!("{} wins by the rules", side_name(s)),
                Outcome::Draw => "Draw by the rules".to_string(),
            };
            return Some((o, text));
        }
        let seen = keys.iter().filter(|&&k| k == pos.key()).count() + 1;
        if let Repetition::Draw(n) = pos.repetition()
            && seen >= usize::from(n)
        {
            return Some((Outcome::Draw, format!("Draw by {n}-fold repetition")));
        }
        None
    }
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// The DXP reason code for `outcome` from `me`'s side.
fn reason_for(outcome: Option<Outcome>, me: Side) -> char {
    match outcome {
        None => '0',
        Some(Outcome::Draw) => '2',
        Some(Outcome::Win(s)) if s == me => '3',
        Some(Outcome::Win(_)) => '1',
    }
}

fn pdn_result(o: Option<Outcome>) -> &'static str {
    match o {
        Some(Outcome::Win(Side::White)) => "2-0",
        Some(Outcome::Win(Side::Black)) => "0-2",
        Some(Outcome::Draw) => "1-1",
        None => "*",
    }
}

/// How a connection ended.
enum Ended {
    /// The peer asked for no more games, or the initiator played its games.
    Done,
    /// A fault: the reason (logged).
    Fault(String),
}

/// The player: its engine, its log and its count of games.
pub struct Player {
    cfg: PlayerConfig,
    engine: Engine<G>,
    log: Log,
    games: u32,
    /// Why a game's record could not be written; the player stops with it as its error.
    lost_records: Option<String>,
}

impl Player {
    /// A player with `cfg`.
    ///
    /// # Errors
    /// The log file cannot be created, or the table cannot be had.
    pub fn new(cfg: PlayerConfig) -> Result<Player, String> {
        // Both outputs are opened and tried before any game, so that a path that cannot be
        // written (a missing directory, a full device) stops the player at once instead of
        // losing every record of the games it goes on to play.
        let file = match &cfg.log {
            Some(p) => {
                let mut f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| format!("--log {}: {e}", p.display()))?;
                writeln!(f, "# tempo dxp log: seconds, > sent, < received, event")
                    .and_then(|()| f.flush())
                    .map_err(|e| format!("--log {}: cannot be written: {e}", p.display()))?;
                Some(Mutex::new(f))
            }
            None => None,
        };
        if let Some(p) = &cfg.pdn {
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("--pdn {}: {e}", p.display()))?;
            if !f.metadata().is_ok_and(|m| m.is_file()) {
                return Err(format!("--pdn {}: not a regular file", p.display()));
            }
        }
        let mut engine = Engine::<G>::new(1);
        engine.resize(cfg.tt_mib)?;
        Ok(Player {
            cfg,
            engine,
            log: Log {
                file,
                began: Instant::now(),
                failed: std::sync::atomic::AtomicBool::new(false),
            },
            games: 0,
            lost_records: None,
        })
    }

    /// No more games: as many as asked for were played, or their records can no longer be kept.
    fn enough(&self) -> bool {
        self.cfg.games.is_some_and(|n| self.games >= n) || self.lost_records.is_some()
    }

    /// The follower: listens on `addr`, serves one connection at a time, until `games` games are
    /// over (for ever without it). Prints `listening HOST:PORT` first (port 0 picks a free port).
    ///
    /// # Errors
    /// The address cannot be bound.
    pub fn listen(&mut self, addr: &str) -> Result<(), String> {
        let listener = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        // A reader that has gone (`| head`) does not stop the server: its games go on, logged.
        let _ = writeln!(std::io::stdout(), "listening {local}");
        let _ = std::io::stdout().flush();
        self.log.event(&format!("listening on {local}"));
        while !self.enough() {
            let (stream, peer) = match listener.accept() {
                Ok(c) => c,
                Err(e) => {
                    self.log.event(&format!("accept failed: {e}"));
                    std::thread::sleep(Duration::from_millis(100));
                    continue;
                }
            };
            self.log.event(&format!("connection from {peer}"));
            match self.serve(stream, false) {
                Ended::Done => self.log.event(&format!("connection from {peer} ended")),
                Ended::Fault(why) => self.log.event(&format!("connection from {peer} closed: {why}")),
            }
        }
        match self.lost_records.take() {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }

    /// The initiator: connects to `addr` (retrying for `idle_timeout`) and plays `games` games
    /// (one without it), alternating colours.
    ///
    /// # Errors
    /// No connection, or the connection failed.
    pub fn connect(&mut self, addr: &str) -> Result<(), String> {
        let patience = self.cfg.idle_timeout.min(Duration::from_secs(60));
        let until = Instant::now() + patience;
        // A follower started a moment later is found: the connection is retried, and the user
        // is told what the wait is for and, at the end, why it failed.
        self.log.event(&format!(
            "connecting to {addr} (retrying for up to {:.0} s)",
            patience.as_secs_f64()
        ));
        let stream = loop {
            let mut last = String::from("no address");
            let tried = addr
                .to_socket_addrs()
                .map_err(|e| format!("{addr}: {e}"))?
                .find_map(|a| match TcpStream::connect_timeout(&a, Duration::from_secs(5)) {
                    Ok(s) => Some(s),
                    Err(e) => {
                        last = e.to_string();
                        None
                    }
                });
            match tried {
                Some(s) => break s,
                None if Instant::now() < until => std::thread::sleep(Duration::from_millis(200)),
                None => {
                    return Err(format!(
                        "cannot connect to {addr}: {last} (tried for {:.0} s)",
                        patience.as_secs_f64()
                    ));
                }
            }
        };
        self.log.event(&format!("connected to {addr}"));
        if self.cfg.games.is_none() {
            self.cfg.games = Some(1);
        }
        let ended = self.serve(stream, true);
        if let Some(why) = self.lost_records.take() {
            return Err(why);
        }
        match ended {
            Ended::Done => Ok(()),
            Ended::Fault(why) => Err(format!("connection to {addr}: {why}")),
        }
    }

    fn send(&self, stream: &mut TcpStream, msg: &Message) -> Result<(), String> {
        let text = send(stream, msg)?;
        self.log.message(">", &text);
        Ok(())
    }

    /// How Tempo will spend its time in a game of `minutes` for `moves` moves, in words (a game at
    /// the DXP clock can take many minutes, and the user should know it before it starts).
    fn pace(&self, minutes: u32, moves: u32) -> String {
        let clock = if moves == 0 {
            format!("{minutes} min for the game")
        } else {
            format!("{minutes} min for {moves} moves")
        };
        match (self.cfg.movetime, self.cfg.depth) {
            (Some(t), _) => format!("{clock}; Tempo moves in {:.3} s (--movetime)", t.as_secs_f64()),
            (None, Some(d)) if minutes == 0 => format!("no clock; Tempo searches to depth {d}"),
            (None, _) if minutes == 0 => format!(
                "no clock; Tempo moves in {:.3} s",
                self.cfg.default_movetime.as_secs_f64()
            ),
            (None, _) => format!("{clock} on Tempo's clock (no --movetime)"),
        }
    }

    /// Records a game that is over (or abandoned: `outcome` `None`).
    fn finish(&mut self, game: &GameState, outcome: Option<Outcome>, reason: &str) {
        self.games += 1;
        let (white, black) = if game.me == Side::White {
            (self.cfg.name.clone(), game.opponent.clone())
        } else {
            (game.opponent.clone(), self.cfg.name.clone())
        };
        let secs = game.began.elapsed().as_secs_f64();
        let _ = writeln!(
            std::io::stdout(),
            "game {} {white} - {black} {} {{{reason}}} plies {} time {secs:.1}",
            self.games,
            pdn_result(outcome),
            game.moves.len()
        );
        let _ = std::io::stdout().flush();
        self.log.event(&format!(
            "game {} over: {} ({reason}), {} plies, {secs:.1} s",
            self.games,
            pdn_result(outcome),
            game.moves.len()
        ));
        if let Some(path) = &self.cfg.pdn {
            let mut g = PdnGame::default();
            g.set_tag("Event", "DXP");
            g.set_tag("Site", "?");
            g.set_tag("Date", &crate::pdn_tags::pdn_date());
            g.set_tag("Round", &self.games.to_string());
            g.set_tag("White", &white);
            g.set_tag("Black", &black);
            g.set_tag("Result", pdn_result(outcome));
            g.set_tag("GameType", "20");
            if game.start != G::start() {
                g.set_tag("FEN", &game.start.to_fen());
            }
            g.set_tag("Termination", reason);
            g.moves = game.std_moves.clone();
            g.result = Some(pdn_result(outcome).to_string());
            let written = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| f.write_all(write_game(&g).as_bytes()));
            if let Err(e) = written {
                let why = format!("--pdn {}: cannot be written: {e}", path.display());
                self.log.event(&format!("{why}; no further game is played"));
                self.lost_records = Some(why);
            }
        }
    }

    /// Searches and returns the move with the time it took.
    fn think(&mut self, game: &GameState) -> Option<(Mv, Duration)> {
        let (pos, history) = game.position();
        let mut limits = Limits {
            depth: self.cfg.depth,
            play: true,
            ..Limits::default()
        };
        match (self.cfg.movetime, game.clock(game.me)) {
            (Some(t), _) => limits.movetime = Some(t),
            (None, Some(c)) => limits.clock = Some(c),
            (None, None) if self.cfg.depth.is_none() => limits.movetime = Some(self.cfg.default_movetime),
            (None, None) => {}
        }
        let began = Instant::now();
        self.engine.go(pos, history, limits, false);
        let mut best = None;
        for event in self.engine.events().iter() {
            if let Event::Done { best: b, .. } = event {
                best = b;
                break;
            }
        }
        self.engine.wait();
        best.map(|b| (b, began.elapsed()))
    }

    fn request(&self, stream: &mut TcpStream, me: Side) -> Result<(), String> {
        self.send(
            stream,
            &Message::GameRequest {
                version: 1,
                name: self.cfg.name.clone(),
                follower: me.opponent(),
                minutes: self.cfg.minutes,
                moves: self.cfg.moves,
                position: None,
            },
        )
    }

    /// Plays the games of one connection.
    fn serve(&mut self, mut stream: TcpStream, initiator: bool) -> Ended {
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
        let mut reader = MessageReader::new();
        let mut game: Option<GameState> = None;
        // Initiator: the colour of the game requested and not yet accepted.
        let mut asked: Option<Side> = None;
        let mut next_colour = self.cfg.colour;
        let result = loop {
            if game.is_none() && asked.is_none() && initiator {
                if self.enough() {
                    break Ended::Done;
                }
                if let Err(e) = self.request(&mut stream, next_colour) {
                    break Ended::Fault(e);
                }
                asked = Some(next_colour);
                next_colour = next_colour.opponent();
            }
            if let Some(g) = &mut game {
                if let Some((o, why)) = g.verdict() {
                    let reason = reason_for(Some(o), g.me);
                    let g = game.take().expect("a game");
                    self.finish(&g, Some(o), &why);
                    let stop = if self.enough() { '1' } else { '0' };
                    if let Err(e) = self.send(&mut stream, &Message::GameEnd { reason, stop }) {
                        break Ended::Fault(e);
                    }
                    if self.enough() {
                        break Ended::Done;
                    }
                    continue;
                }
                let (pos, _) = g.position();
                if pos.side_to_move() == g.me {
                    let Some((mv, took)) = self.think(g) else {
                        break Ended::Fault("no move to play".into());
                    };
                    let hub = pos.format_move(&mv, MoveStyle::Hub);
                    let (from, to, captured) = match move_from_hub(&hub) {
                        Ok(m) => m,
                        Err(e) => break Ended::Fault(e),
                    };
                    g.play(mv, took);
                    let msg = Message::Move {
                        seconds: took.as_secs_f64().round() as u32,
                        from,
                        to,
                        captured,
                    };
                    if let Err(e) = self.send(&mut stream, &msg) {
                        let g = game.take().expect("a game");
                        self.finish(&g, None, &format!("Unfinished: {e}"));
                        break Ended::Fault(e);
                    }
                    continue;
                }
            }
            // Waiting for the peer: its clock and a margin bound a move; the idle timeout the rest.
            let wait = match &game {
                Some(g) => match g.clock(g.me.opponent()) {
                    Some(c) => c.time + self.cfg.margin,
                    None => self.cfg.idle_timeout,
                },
                None => self.cfg.idle_timeout,
            };
            let bytes = match reader.next(&mut stream, Instant::now() + wait, self.cfg.message_timeout) {
                Ok(b) => b,
                Err(e) => {
                    let why = match &e {
                        ReadError::Timeout if game.is_some() => {
                            format!("no move from the peer in {:.1} s", wait.as_secs_f64())
                        }
                        ReadError::Timeout => format!(
                            "no complete message in time ({:.1} s idle, {:.1} s per message)",
                            wait.as_secs_f64(),
                            self.cfg.message_timeout.as_secs_f64()
                        ),
                        ReadError::TooLong => format!("a message longer than {MAX_MESSAGE} bytes"),
                        ReadError::Closed(_) => e.to_string(),
                    };
                    if let Some(g) = game.take() {
                        self.finish(&g, None, &format!("Unfinished: {why}"));
                    }
                    break Ended::Fault(why);
                }
            };
            self.log.message("<", &String::from_utf8_lossy(&bytes));
            let msg = match Message::parse(&bytes) {
                Ok(m) => m,
                Err(e) => {
                    let shown: String = String::from_utf8_lossy(&bytes).chars().take(60).collect();
                    let why = format!("malformed message {shown:?}: {e}");
                    if let Some(g) = game.take() {
                        self.finish(&g, None, &format!("Unfinished: {why}"));
                    }
                    break Ended::Fault(why);
                }
            };
            match msg {
                Message::GameRequest {
                    version,
                    name,
                    follower,
                    minutes,
                    moves,
                    position,
                } => {
                    if let Some(g) = game.take() {
                        self.finish(&g, None, "Unfinished: the peer asked for a new game");
                    }
                    if version != 1 {
                        self.log
                            .event(&format!("refused a game request of version {version}"));
                        let refuse = Message::GameAccept {
                            name: self.cfg.name.clone(),
                            code: '1',
                        };
                        if let Err(e) = self.send(&mut stream, &refuse) {
                            break Ended::Fault(e);
                        }
                        continue;
                    }
                    let start = match &position {
                        None => Ok(G::start()),
                        Some((side, squares)) => {
                            G::from_hub(&position_to_hub(*side, squares)).map_err(|e| e.to_string())
                        }
                    };
                    let start = match start {
                        Ok(s) => s,
                        Err(e) => {
                            self.log
                                .event(&format!("refused a game from a bad position: {e}"));
                            let refuse = Message::GameAccept {
                                name: self.cfg.name.clone(),
                                code: '2',
                            };
                            if let Err(e) = self.send(&mut stream, &refuse) {
                                break Ended::Fault(e);
                            }
                            continue;
                        }
                    };
                    let accept = Message::GameAccept {
                        name: self.cfg.name.clone(),
                        code: '0',
                    };
                    if let Err(e) = self.send(&mut stream, &accept) {
                        break Ended::Fault(e);
                    }
                    self.log.event(&format!(
                        "game {} starts against {name}: Tempo plays {}, {}",
                        self.games + 1,
                        side_name(follower),
                        self.pace(minutes, moves)
                    ));
                    self.engine.new_game();
                    game = Some(GameState::new(start, follower, name, minutes, moves));
                }
                Message::GameAccept { name, code } => {
                    let Some(me) = asked.take() else {
                        self.log.event("an accept without a request: ignored");
                        continue;
                    };
                    if code != '0' {
                        break Ended::Fault(format!("{name} refused the game (code {code})"));
                    }
                    self.log.event(&format!(
                        "game {} starts against {name}: Tempo plays {}, {}",
                        self.games + 1,
                        side_name(me),
                        self.pace(self.cfg.minutes, self.cfg.moves)
                    ));
                    self.engine.new_game();
                    game = Some(GameState::new(
                        G::start(),
                        me,
                        name,
                        self.cfg.minutes,
                        self.cfg.moves,
                    ));
                }
                Message::Move {
                    seconds,
                    from,
                    to,
                    captured,
                } => {
                    let Some(g) = &mut game else {
                        break Ended::Fault("a move outside a game".into());
                    };
                    let (pos, _) = g.position();
                    let text = move_to_hub(from, to, &captured);
                    let mv = match pos.side_to_move() != g.me {
                        true => pos.parse_move(&text).map_err(|e| e.to_string()),
                        false => Err("not the peer's turn".to_string()),
                    };
                    match mv {
                        Ok(mv) => g.play(mv, Duration::from_secs(u64::from(seconds))),
                        Err(e) => {
                            let why = format!("illegal move {text} in {}: {e}", pos.to_fen());
                            let g = game.take().expect("a game");
                            self.finish(&g, None, &format!("Unfinished: {why}"));
                            let _ = self.send(
                                &mut stream,
                                &Message::GameEnd {
                                    reason: '0',
                                    stop: '1',
                                },
                            );
                            break Ended::Fault(why);
                        }
                    }
                }
                Message::GameEnd { reason, stop } => {
                    if let Some(g) = game.take() {
                        // The rules decide when they can; otherwise the peer's word.
                        let (outcome, why) = match g.verdict() {
                            Some((o, why)) => (Some(o), why),
                            None => match reason {
                                '1' => (Some(Outcome::Win(g.me)), format!("{} resigns", g.opponent)),
                                '2' => (Some(Outcome::Draw), "Draw: the peer ended the game".into()),
                                '3' => (None, "Unfinished: the peer claims a win".into()),
                                _ => (None, "Unfinished: the peer ended the game".into()),
                            },
                        };
                        self.finish(&g, outcome, &why);
                        let mine = reason_for(outcome, g.me);
                        let stop = if self.enough() { '1' } else { stop };
                        if let Err(e) = self.send(&mut stream, &Message::GameEnd { reason: mine, stop }) {
                            break Ended::Fault(e);
                        }
                    }
                    if stop == '1' || self.enough() {
                        break Ended::Done;
                    }
                }
                Message::Chat(text) => self.log.event(&format!("chat: {text}")),
                Message::BackRequest { move_number, side } => {
                    let code = match &mut game {
                        Some(g) => {
                            let first = g.start.side_to_move();
                            let ply =
                                (move_number.max(1) as usize - 1) * 2 + usize::from(side == Side::Black);
                            let ply = ply.checked_sub(usize::from(first == Side::Black));
                            match ply {
                                Some(p) if p <= g.moves.len() => {
                                    g.moves.truncate(p);
                                    g.std_moves.truncate(p);
                                    '0'
                                }
                                _ => '1',
                            }
                        }
                        None => '1',
                    };
                    self.log
                        .event(&format!("back request to move {move_number}: answered {code}"));
                    if let Err(e) = self.send(&mut stream, &Message::BackAccept { code }) {
                        break Ended::Fault(e);
                    }
                }
                Message::BackAccept { .. } => {}
            }
        };
        let _ = stream.shutdown(std::net::Shutdown::Both);
        result
    }
}

/// The DXP position of a 10x10 position (for game requests from a set-up position).
///
/// # Errors
/// Not a 10x10 position.
pub fn dxp_position(pos: &G) -> Result<(Side, String), String> {
    position_from_hub(&pos.to_hub())
}

/// `tempo dxp`: the command line.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("role").required(true).args(["listen", "connect"])))]
pub struct DxpArgs {
    /// Follower: listen on HOST:PORT (port 0: any free port; the first line of output is
    /// `listening HOST:PORT`) and play the games asked for, one connection at a time.
    #[arg(long, value_name = "HOST:PORT", num_args = 0..=1, default_missing_value = "127.0.0.1:27531")]
    pub listen: Option<String>,
    /// Initiator: connect to HOST:PORT and ask for --games games (default 1), alternating colours.
    #[arg(long, value_name = "HOST:PORT", num_args = 0..=1, default_missing_value = "127.0.0.1:27531")]
    pub connect: Option<String>,
    /// Stop after this many games (finished or not). The follower listens for ever without it.
    #[arg(long)]
    pub games: Option<u32>,
    /// Initiator: minutes per time control in the game request.
    #[arg(long, default_value_t = 5)]
    pub minutes: u32,
    /// Initiator: moves per time control in the game request (0: the whole game).
    #[arg(long, default_value_t = 75)]
    pub moves: u32,
    /// Initiator: Tempo's colour in the first game (white or black).
    #[arg(long, default_value = "white")]
    pub colour: String,
    /// Seconds per move instead of the DXP clock (fractions allowed; for fast test games).
    #[arg(long)]
    pub movetime: Option<f64>,
    /// Depth limit per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// The name sent to the peer.
    #[arg(long)]
    pub name: Option<String>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    pub tt: usize,
    /// Seconds a message may take from its first byte to its NUL.
    #[arg(long, default_value_t = 10.0)]
    pub message_timeout: f64,
    /// Seconds to wait for a message when no clock bounds the wait (and to retry --connect).
    #[arg(long, default_value_t = 300.0)]
    pub idle_timeout: f64,
    /// Seconds the peer may overrun its clock before Tempo stops waiting for its move.
    #[arg(long, default_value_t = 10.0)]
    pub margin: f64,
    /// Append every game (unfinished ones with result `*`) to this PDN file.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Write every message and event to this file (events also go to standard error).
    #[arg(long)]
    pub log: Option<PathBuf>,
}

fn secs(name: &str, s: f64) -> Result<Duration, String> {
    if s.is_finite() && s >= 0.0 {
        Ok(Duration::from_secs_f64(s.min(1e7)))
    } else {
        Err(format!("{name} must be a number of seconds, not {s}"))
    }
}

/// Runs `tempo dxp`.
///
/// # Errors
/// Bad options, an address that cannot be bound or reached.
pub fn run(args: &DxpArgs) -> Result<(), String> {
    let colour = match args.colour.to_ascii_lowercase().as_str() {
        "white" | "w" => Side::White,
        "black" | "b" | "z" => Side::Black,
        c => return Err(format!("--colour is white or black, not {c:?}")),
    };
    if args.minutes > 999 || args.moves > 999 {
        return Err("--minutes and --moves have three digits in DXP".into());
    }
    if args.tt == 0 {
        return Err("--tt is the table's size in MiB: 1 or more".into());
    }
    for (name, s) in [
        ("--message-timeout", args.message_timeout),
        ("--idle-timeout", args.idle_timeout),
    ] {
        if s.is_nan() || s <= 0.0 {
            return Err(format!("{name} must be a number of seconds above 0, not {s}"));
        }
    }
    let defaults = PlayerConfig::default();
    let cfg = PlayerConfig {
        name: args.name.clone().unwrap_or(defaults.name),
        tt_mib: args.tt,
        movetime: args.movetime.map(|s| secs("--movetime", s)).transpose()?,
        depth: args.depth,
        minutes: args.minutes,
        moves: args.moves,
        colour,
        games: args.games,
        message_timeout: secs("--message-timeout", args.message_timeout)?,
        idle_timeout: secs("--idle-timeout", args.idle_timeout)?,
        margin: secs("--margin", args.margin)?,
        pdn: args.pdn.clone(),
        log: args.log.clone(),
        ..defaults
    };
    let mut player = Player::new(cfg)?;
    match (&args.listen, &args.connect) {
        (Some(addr), _) => player.listen(addr),
        (None, Some(addr)) => player.connect(addr),
        (None, None) => Err("--listen or --connect".into()),
    }
}
