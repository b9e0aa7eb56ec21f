//! Tempo: a draughts engine for the whole checkers family.
//!
//! The crate is layered so that rules never depend on search or protocol code:
//! - [`bits`]: bit sets over board squares; [`fsutil`]: reading only regular files, with a bound,
//!   and writing whole-or-nothing;
//! - [`game`]: the [`game::Game`] trait every component is written against, moves lists, errors;
//! - [`draughts`]: the square-board family, one generator compiled per variant from its rules;
//! - [`variant`]: variant names and the runtime-to-type dispatch ([`with_variant!`]);
//! - [`perft`]: move-generator verification; [`pdn`]: game records; [`pdn_tags`]: the variant a
//!   `GameType` names, and the other way; [`verdict`]: where the rules end a game record;
//! - [`output`]: lines to standard output that end a command quietly when the reader has gone;
//! - [`egdb`]: endgame databases, built by retrograde analysis and probed by the search;
//! - [`eval`], [`search`], [`tt`]: evaluation, the search and its transposition table (rules code
//!   never imports them);
//! - [`book`]: the opening book, grown by Tempo's search and probed through a small interface;
//! - [`engine`], [`protocol`]: the search thread's facade and the Hub and UCI-style front-ends;
//! - [`show`], [`analyze`]: the shell commands that draw a position and analyse positions and games;
//! - [`hub_line`], [`dxp_codec`]: the Hub line syntax and the DXP messages, for both ends of a
//!   pipe or socket;
//! - [`engine_client`]: external engines (process, settings, Hub/UCI/DXP clients); [`openings`]:
//!   opening suites from files or random moves (both shared by `tempo match` and `tempo selfplay`);
//! - [`arena`]: `tempo match`, the match manager that plays engines against each other;
//! - [`selfplay`]: `tempo selfplay`, training data from games of Tempo against itself;
//! - [`train`]: `tempo train`, the learned evaluation's weights fitted to self-play data.

// Unsafe code is denied, not forbidden, for one allowed block: the madvise that gives the
// transposition table huge pages (`tt::advise_huge_pages`).
#![deny(unsafe_code)]
#![warn(missing_docs)]

/// Writes a line to standard error as `eprintln!` does, but never panics: when standard error is
/// a pipe whose reader has gone (`tempo ... 2>&1 | head`), `eprintln!` panics and the process ends
/// with exit status 101 instead of its own; here the line is dropped.
#[macro_export]
macro_rules! stderr_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod analyze;
pub mod arena;
pub mod bench;
pub mod bits;
pub mod book;
pub mod bytes;
pub mod draughts;
pub mod dxp_codec;
pub mod egdb;
pub mod engine;
pub mod engine_client;
pub mod eval;
pub mod fsutil;
pub mod game;
pub mod games;
pub mod hub_line;
pub mod meminfo;
pub mod openings;
pub mod output;
pub mod pdn;
pub mod pdn_read;
pub mod pdn_tags;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod selfplay;
pub mod show;
pub mod train;
pub mod tt;
pub mod variant;
pub mod verdict;
pub mod zobrist;
