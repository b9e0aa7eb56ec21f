//! A DXP engine in `tempo match` (`--engine "dxp://HOST:PORT [cmd=PROGRAM ARGS...] [dir=DIR]"`):
//! the manager is the DXP initiator and the engine the follower. With a command, the manager
//! starts the engine first (its output discarded: DXP engines draw boards on it) and connects
//! when it listens; without one, it connects to an engine already running.
//!
//! One DXP game per manager game. The game request is sent at the engine's first turn, with the
//! position reached then (`A`, the initial position, or `B` and the position) and the clock's
//! time in whole minutes (at least 1) for its moves per control; then each move of the other
//! engine goes out as an `M` message and the engine's `M` comes back as its move. The manager
//! remains the referee: when it ends the game, the engine is sent a game end (`E`, with stop code
//! `0`) and its confirmation is awaited briefly. A game end from the engine in place of a move
//! is [`Failure::Ended`].

use super::process::{EngineSpec, Failure, Log};
use super::{EngineClient, Reply, Request};
use crate::dxp_codec::{
    Message, MessageReader, ReadError, move_from_hub, move_to_hub, position_from_hub, send,
};
use crate::game::{Outcome, Side};
use crate::variant::Variant;
use std::net::{TcpStream, ToSocketAddrs};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the manager tries to connect to a DXP engine (a started engine loads its tables first).
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long an accept or a game end's confirmation may take.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one message may take from its first byte to its NUL.
const MESSAGE_TIMEOUT: Duration = Duration::from_secs(10);
/// Moves per control sent when the match has no clock (a move time, a depth or nodes).
const DEFAULT_MOVES: u32 = 75;

/// The game in progress.
#[derive(Debug)]
struct DxpGame {
    /// The side the engine plays.
    side: Side,
    /// Plies of the manager's game that the engine knows (the start of its game included).
    known: usize,
}

/// A DXP engine, spoken to over TCP.
#[derive(Debug)]
pub struct DxpClient {
    addr: String,
    who: String,
    child: Option<Child>,
    stream: TcpStream,
    reader: MessageReader,
    name: Option<String>,
    game: Option<DxpGame>,
    log: Option<Arc<Log>>,
}

impl DxpClient {
    /// Starts the engine's command when the spec has one, and connects to the spec's address.
    ///
    /// # Errors
    /// Not International draughts, a command that cannot start or exits, no connection in
    /// [`CONNECT_TIMEOUT`].
    pub fn start(
        spec: &EngineSpec,
        label: &str,
        variant: Variant,
        log: Option<Arc<Log>>,
    ) -> Result<DxpClient, String> {
        let addr = spec.dxp.clone().ok_or("not a DXP engine")?;
        if variant != Variant::International {
            return Err(format!("engine {label}: DXP plays International draughts only"));
        }
        let mut child = None;
        if !spec.command.is_empty() {
            let mut cmd = Command::new(&spec.command[0]);
            cmd.args(&spec.command[1..])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            if let Some(d) = &spec.dir {
                cmd.current_dir(d);
            }
            child =
                Some(cmd.spawn().map_err(|e| {
                    format!("engine {label}: cannot start {:?}: {e}", spec.command.join(" "))
                })?);
        }
        let who = match &child {
            Some(c) => format!("{label}#{}", c.id()),
            None => format!("{label}@{addr}"),
        };
        let until = Instant::now() + CONNECT_TIMEOUT;
        let stream = loop {
            if let Some(c) = &mut child
                && let Ok(Some(status)) = c.try_wait()
            {
                return Err(format!(
                    "engine {label}: exited ({status}) before accepting a connection"
                ));
            }
            let found = addr
                .to_socket_addrs()
                .map_err(|e| format!("engine {label}: {addr}: {e}"))?
                .find_map(|a| TcpStream::connect_timeout(&a, Duration::from_secs(2)).ok());
            match found {
                Some(s) => break s,
                None if Instant::now() < until => std::thread::sleep(Duration::from_millis(100)),
                None => {
                    if let Some(mut c) = child {
                        let _ = c.kill();
                        let _ = c.wait();
                    }
                    return Err(format!(
                        "engine {label}: no DXP connection to {addr} in {} s",
                        CONNECT_TIMEOUT.as_secs()
                    ));
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(ANSWER_TIMEOUT));
        if let Some(l) = &log {
            l.line(&who, "=", &format!("connected to {addr}"));
        }
        Ok(DxpClient {
            addr,
            who,
            child,
            stream,
            reader: MessageReader::new(),
            name: None,
            game: None,
            log,
        })
    }

    /// The name the engine gave in its accept.
    pub fn id_name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    fn put(&mut self, msg: &Message) -> Result<(), Failure> {
        let text = send(&mut self.stream, msg).map_err(Failure::Crashed)?;
        if let Some(l) = &self.log {
            l.line(&self.who, ">", &text);
        }
        Ok(())
    }

    fn get(&mut self, deadline: Instant) -> Result<Message, Failure> {
        let bytes = self
            .reader
            .next(&mut self.stream, deadline, MESSAGE_TIMEOUT)
            .map_err(|e| match e {
                ReadError::Timeout => Failure::Timeout,
                ReadError::Closed(s) => {
                    Failure::Crashed(format!("DXP connection to {} closed: {s}", self.addr))
                }
                ReadError::TooLong => Failure::Protocol(e.to_string()),
            })?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Some(l) = &self.log {
            l.line(&self.who, "<", &text);
        }
        Message::parse(&bytes).map_err(|e| Failure::Protocol(format!("DXP message {text:?}: {e}")))
    }

    /// A new game: a game still open is ended first.
    ///
    /// # Errors
    /// The connection is gone.
    pub fn new_game(&mut self) -> Result<(), Failure> {
        if self.game.is_some() {
            self.end_game(None);
        }
        Ok(())
    }

    /// Sends the game request for the engine's side `side` from the position reached.
    fn request(&mut self, req: &Request<'_>) -> Result<(), Failure> {
        let (minutes, moves) = match req.limits.clock {
            Some(c) => {
                let secs = c.left[req.side.index()].as_secs_f64();
                (
                    ((secs / 60.0).round() as u32).clamp(1, 999),
                    c.moves_to_go.unwrap_or(0).min(999),
                )
            }
            None => {
                let per_move = req.limits.movetime.map_or(1.0, |t| t.as_secs_f64());
                (
                    ((per_move * f64::from(DEFAULT_MOVES) / 60.0).ceil() as u32).clamp(1, 999),
                    DEFAULT_MOVES,
                )
            }
        };
        let position = if req.initial && req.moves_hub.is_empty() {
            None
        } else {
            Some(position_from_hub(req.position_hub).map_err(Failure::Protocol)?)
        };
        self.put(&Message::GameRequest {
            version: 1,
            name: "Tempo match".into(),
            follower: req.side,
            minutes,
            moves,
            position,
        })?;
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        loop {
            match self.get(deadline)? {
                Message::GameAccept { name, code: '0' } => {
                    self.name = Some(name);
                    break;
                }
                Message::GameAccept { name, code } => {
                    return Err(Failure::Protocol(format!(
                        "{name} refused the game (code {code})"
                    )));
                }
                // A late confirmation of the last game's end, or chat.
                Message::GameEnd { .. } | Message::Chat(_) => {}
                other => return Err(Failure::Protocol(format!("{other:?} instead of an accept"))),
            }
        }
        self.game = Some(DxpGame {
            side: req.side,
            known: req.moves_hub.len(),
        });
        Ok(())
    }

    /// Sends the moves the engine has not seen and waits for its move until `deadline`.
    ///
    /// # Errors
    /// [`Failure::Timeout`], [`Failure::Crashed`] (the connection is gone), [`Failure::Protocol`]
    /// (a message that is not a move), [`Failure::Ended`] (the engine ended the game).
    pub fn think(&mut self, req: &Request<'_>, deadline: Instant) -> Result<Reply, Failure> {
        if self.game.as_ref().is_some_and(|g| g.side != req.side) {
            return Err(Failure::Protocol("asked to move for the other side".into()));
        }
        if self.game.is_none() {
            self.request(req)?;
        }
        let known = self.game.as_ref().map_or(0, |g| g.known);
        if req.moves_hub.len() < known {
            return Err(Failure::Protocol(
                "the game went back (take-backs are not played)".into(),
            ));
        }
        for m in &req.moves_hub[known..] {
            let (from, to, captured) = move_from_hub(m).map_err(Failure::Protocol)?;
            self.put(&Message::Move {
                seconds: 0,
                from,
                to,
                captured,
            })?;
        }
        if let Some(g) = &mut self.game {
            g.known = req.moves_hub.len();
        }
        loop {
            match self.get(deadline)? {
                Message::Move {
                    from, to, captured, ..
                } => {
                    if let Some(g) = &mut self.game {
                        g.known += 1;
                    }
                    return Ok(Reply {
                        mv: move_to_hub(from, to, &captured),
                        score: None,
                        depth: None,
                    });
                }
                Message::GameEnd { reason, .. } => {
                    // Confirmed at once, from the other player's side.
                    let mine = match reason {
                        '1' => '3',
                        '3' => '1',
                        r => r,
                    };
                    self.game = None;
                    let _ = self.put(&Message::GameEnd {
                        reason: mine,
                        stop: '0',
                    });
                    return Err(Failure::Ended(reason));
                }
                Message::Chat(_) => {}
                Message::BackRequest { .. } => self.put(&Message::BackAccept { code: '1' })?,
                other => return Err(Failure::Protocol(format!("{other:?} instead of a move"))),
            }
        }
    }

    /// The manager ended the game with `outcome` (`None`: aborted): the engine is told, from its
    /// opponent's side, and its confirmation awaited for a moment (moves that cross are dropped).
    pub fn end_game(&mut self, outcome: Option<Outcome>) {
        let Some(g) = self.game.take() else { return };
        let reason = match outcome {
            None => '0',
            Some(Outcome::Draw) => '2',
            Some(Outcome::Win(s)) if s == g.side => '1',
            Some(Outcome::Win(_)) => '3',
        };
        if self.put(&Message::GameEnd { reason, stop: '0' }).is_err() {
            return;
        }
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        while let Ok(m) = self.get(deadline) {
            if matches!(m, Message::GameEnd { .. }) {
                break;
            }
        }
    }

    /// Closes the connection (the engine's turn to leave) and ends a started engine.
    pub fn quit(mut self) {
        if self.game.is_some() {
            self.end_game(None);
        }
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        if let Some(c) = &mut self.child {
            let until = Instant::now() + Duration::from_secs(2);
            while Instant::now() < until {
                if let Ok(Some(_)) = c.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Closes the connection and kills a started engine at once.
    pub fn kill(mut self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        if let Some(c) = &mut self.child {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl EngineClient for DxpClient {
    fn id_name(&self) -> Option<&str> {
        DxpClient::id_name(self)
    }

    fn new_game(&mut self) -> Result<(), Failure> {
        DxpClient::new_game(self)
    }

    fn think(&mut self, req: &Request<'_>, deadline: Instant) -> Result<Reply, Failure> {
        DxpClient::think(self, req, deadline)
    }

    fn end_game(&mut self, outcome: Option<Outcome>) {
        DxpClient::end_game(self, outcome);
    }

    fn quit(self: Box<Self>) {
        DxpClient::quit(*self);
    }

    fn kill(self: Box<Self>) {
        DxpClient::kill(*self);
    }
}

impl Drop for DxpClient {
    fn drop(&mut self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        if let Some(c) = &mut self.child
            && let Ok(None) = c.try_wait()
        {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}
