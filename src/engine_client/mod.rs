//! External engines as Tempo's commands play them (`tempo match`, `tempo selfplay --opponent`):
//! the engine process ([`process`]: its spec, pipes, log), the settings of an `--engine` value
//! ([`conf`], [`limits`]), and the clients that speak to it ([`client`]: Hub, Hub-1, UCI;
//! [`dxp`]: DXP over TCP).
//!
//! This file holds the interface between a command and an engine, whatever it speaks: the
//! [`EngineClient`] trait that the pipe dialects ([`client::PipeClient`]) and DXP
//! ([`dxp::DxpClient`]) implement, and what goes through it (a move request, the reply). It
//! depends on no client, so that the clients depend on it and not on each other.

pub mod client;
pub mod conf;
pub mod dxp;
pub mod limits;
pub mod process;

use crate::game::{Outcome, Side};
use process::{Failure, Proto};
use std::time::{Duration, Instant};

/// What the mover's clock says, for the engine's time management.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockView {
    /// Time left on the clock of White and of Black (before this move's increment).
    pub left: [Duration; 2],
    /// Increment added after every move.
    pub inc: Duration,
    /// Moves to the next time control (`None`: sudden death or Fischer).
    pub moves_to_go: Option<u32>,
}

/// The limits sent with one `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveLimits {
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
    /// A game clock.
    pub clock: Option<ClockView>,
}

/// One move to ask for: the game from its start position.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The start position as a Hub position string.
    pub start_hub: &'a str,
    /// The start position as PDN FEN.
    pub start_fen: &'a str,
    /// Whether the start position is the variant's initial position (UCI `startpos`).
    pub initial: bool,
    /// Whether the Hub string holds the whole start position. It holds the pieces and the side to
    /// move only: a Frisian king run or a running counted-draw clock (which a FEN carries) makes
    /// this false, and the start goes to Hub engines as the FEN (`protocol.md` 2.4).
    pub hub_exact: bool,
    /// Every move since the start in Hub notation.
    pub moves_hub: &'a [String],
    /// Every move since the start in the variant's standard notation.
    pub moves_std: &'a [String],
    /// The position now (after every move) as a Hub position string.
    pub position_hub: &'a str,
    /// The side to move.
    pub side: Side,
    /// The limits.
    pub limits: MoveLimits,
}

/// An engine's answer to a `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move as the engine wrote it.
    pub mv: String,
    /// The last score the engine reported, hundredths of a man for the mover.
    pub score: Option<i32>,
    /// The depth of the `info` line that gave that score, when the line says it.
    pub depth: Option<u32>,
}

/// An engine that has completed its handshake, as the game runner plays it.
pub trait EngineClient: std::fmt::Debug {
    /// The name the engine gave (Hub/UCI `id`, DXP accept).
    fn id_name(&self) -> Option<&str>;

    /// The dialect spoken on pipes (`None` for an engine not on pipes).
    fn proto(&self) -> Option<Proto> {
        None
    }

    /// Tells the engine that a new game starts.
    ///
    /// # Errors
    /// The engine is gone, or does not confirm in time.
    fn new_game(&mut self) -> Result<(), Failure>;

    /// Asks for a move and waits for it until `deadline`.
    ///
    /// # Errors
    /// [`Failure::Timeout`] at the deadline, [`Failure::Crashed`] when the engine is gone,
    /// [`Failure::Protocol`] for an answer without a move, [`Failure::Ended`] when the engine
    /// ends the game instead of moving.
    fn think(&mut self, req: &Request<'_>, deadline: Instant) -> Result<Reply, Failure>;

    /// The game is over (the manager's verdict; `None`: aborted). Engines that keep no game of
    /// their own need nothing.
    fn end_game(&mut self, _outcome: Option<Outcome>) {}

    /// Ends the engine: `quit`, a short grace, then kill.
    fn quit(self: Box<Self>);

    /// Kills the engine at once (after a failure).
    fn kill(self: Box<Self>);
}
