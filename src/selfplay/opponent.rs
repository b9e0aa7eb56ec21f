//! The opponent of `tempo selfplay --opponent`: another engine that plays one side of every
//! game, through the same engine client as `tempo match` ([`crate::engine_client`]).
//!
//! `engine:ENGINE` is any engine, ENGINE written as a `tempo match --engine` value. `eval:EVAL`
//! is Tempo itself with another evaluation: this very binary as `tempo hub`, its `eval-file`
//! option set to EVAL and its table to --tt, searching at the run's --depth and --nodes. It runs
//! in a process of its own because the evaluation is one setting per process: the worker threads
//! search side by side, and a second evaluation in the same process would have to be switched
//! under their searches. A Hub engine clears its table at every new game and searches on one
//! thread to a fixed depth or node count, so its moves, like Tempo's, depend on the game alone.

use super::SelfplayArgs;
use crate::engine_client::client::Client;
use crate::engine_client::conf::resolve;
use crate::engine_client::process::{EngineSpec, Proto};
use crate::engine_client::{MoveLimits, Request};
use crate::game::{Game, MoveStyle};
use crate::variant::Variant;
use std::time::{Duration, Instant};

/// How long an opponent without `movetime=` may take over one move before it counts as hung.
pub const STALL: Duration = Duration::from_secs(300);

/// A checked `--opponent`: how to start it, and how long it thinks.
#[derive(Debug)]
pub struct Opponent {
    /// The name in messages: `name=`, the program's name, or `eval:EVAL`.
    pub label: String,
    /// What the file's settings line says of it.
    pub header: String,
    spec: EngineSpec,
    limits: MoveLimits,
    /// The longest a move may take.
    allowed: Duration,
}

/// The game so far as an engine is told it: the start position and every move since, in Hub
/// notation and in the variant's own.
#[derive(Clone, Debug)]
pub struct GameText {
    start_hub: String,
    start_fen: String,
    initial: bool,
    hub_exact: bool,
    moves_hub: Vec<String>,
    moves_std: Vec<String>,
}

impl GameText {
    /// The game from `start` after `moves`.
    pub fn new<G: Game>(start: &G, moves: &[G::Move]) -> GameText {
        let start_hub = start.to_hub();
        let start_fen = start.to_fen();
        let mut text = GameText {
            hub_exact: G::from_hub(&start_hub).is_ok_and(|p| p.to_fen() == start_fen),
            initial: *start == G::start(),
            start_hub,
            start_fen,
            moves_hub: Vec::new(),
            moves_std: Vec::new(),
        };
        let mut pos = *start;
        for mv in moves {
            text.push(&pos, mv);
            pos = pos.play(mv);
        }
        text
    }

    /// Adds `mv`, played in `pos`.
    pub fn push<G: Game>(&mut self, pos: &G, mv: &G::Move) {
        self.moves_hub.push(pos.format_move(mv, MoveStyle::Hub));
        self.moves_std.push(pos.format_move(mv, MoveStyle::Standard));
    }
}

impl Opponent {
    /// Reads `--opponent` (`eval:EVAL` or `engine:ENGINE`) for a run with `args`.
    ///
    /// # Errors
    /// Another prefix, a line break in the text, a weight file that cannot be read, an engine
    /// value that `tempo match --engine` would refuse, or a game clock (`tc=`): a data game has
    /// no clocks.
    pub fn parse(text: &str, args: &SelfplayArgs) -> Result<Opponent, String> {
        let text = text.trim();
        let bad = |e: String| format!("--opponent {text:?}: {e}");
        if text.chars().any(char::is_control) {
            return Err(bad("a line break or control character".into()));
        }
        let recipe = args.limits();
        let recipe = MoveLimits {
            depth: recipe.depth,
            nodes: recipe.nodes,
            ..MoveLimits::default()
        };
        if let Some(eval) = text.strip_prefix("eval:") {
            let eval = eval.trim();
            if eval.is_empty() {
                return Err(bad("name an evaluation after eval:".into()));
            }
            let mut header = format!("eval:{eval}");
            if !eval.starts_with('<') {
                // A weight file: its contents are part of the recipe, so that new weights under
                // the old name do not resume the file.
                let bytes = crate::fsutil::read_capped(
                    std::path::Path::new(eval),
                    crate::eval::weights::MAX_FILE_BYTES,
                )
                .map_err(bad)?;
                header.push_str(&format!("@{:08x}", crc32fast::hash(&bytes)));
            }
            let program = std::env::current_exe()
                .map_err(|e| bad(format!("cannot find the tempo program to run: {e}")))?;
            // Scan's tt-size: the base-2 logarithm of 16-byte entries, 2^16 a MiB.
            let tt_size = (16 + args.tt.ilog2()).min(30);
            let spec = EngineSpec {
                name: Some(header.clone()),
                command: vec![program.to_string_lossy().into_owned(), "hub".into()],
                dir: None,
                proto: Some(Proto::Hub),
                options: vec![
                    ("eval-file".into(), eval.into()),
                    ("tt-size".into(), tt_size.to_string()),
                    ("threads".into(), "1".into()),
                    // No default endgame tables: they would arrive in the middle of a run, when
                    // their background build ends, and make the games depend on the machine.
                    ("egdb-pieces".into(), "0".into()),
                ],
                dxp: None,
                restart: false,
            };
            return Ok(Opponent {
                label: header.clone(),
                header,
                spec,
                limits: recipe,
                allowed: STALL,
            });
        }
        let Some(engine) = text.strip_prefix("engine:") else {
            return Err(bad("expected eval:EVAL or engine:ENGINE".into()));
        };
        let (spec_text, own) = resolve(engine, &[], &[]).map_err(bad)?;
        let spec = EngineSpec::parse(&spec_text).map_err(bad)?;
        let (limits, allowed) = match own.tc {
            None => (recipe, STALL),
            Some(tc) if tc.clock.is_some() => {
                return Err(bad(
                    "a data game has no clocks: give the opponent depth=, nodes= or movetime=".into(),
                ));
            }
            Some(tc) => (
                MoveLimits {
                    depth: tc.depth,
                    nodes: tc.nodes,
                    movetime: tc.movetime,
                    clock: None,
                },
                // As `tempo match` allows a move at a fixed move time: twice it and a second.
                tc.movetime.map_or(STALL, |t| t * 2 + Duration::from_secs(1)),
            ),
        };
        let label = match &spec.name {
            Some(n) => n.clone(),
            None if spec.command.is_empty() => "the DXP engine".into(),
            None => spec.program_name(),
        };
        Ok(Opponent {
            label,
            header: format!("engine:{}", engine.trim()),
            spec,
            limits,
            allowed,
        })
    }

    /// Starts the opponent and completes its handshake.
    ///
    /// # Errors
    /// It cannot be started, or its handshake or settings fail (the message names it).
    pub fn start(&self, variant: Variant) -> Result<Client, String> {
        Client::start(&self.spec, &self.label, variant, None)
            .map_err(|e| format!("opponent {}: {e}", self.label))
    }

    /// Asks the opponent for its move in `pos`, the position after `game`.
    ///
    /// # Errors
    /// The opponent crashed, closed its output, answered nothing in time, broke its protocol or
    /// played an illegal move: the message names it, the position and what went wrong.
    pub fn play<G: Game>(&self, client: &mut Client, game: &GameText, pos: &G) -> Result<G::Move, String> {
        let position_hub = pos.to_hub();
        let req = Request {
            start_hub: &game.start_hub,
            start_fen: &game.start_fen,
            initial: game.initial,
            hub_exact: game.hub_exact,
            moves_hub: &game.moves_hub,
            moves_std: &game.moves_std,
            position_hub: &position_hub,
            side: pos.side_to_move(),
            limits: self.limits,
        };
        let fail = |what: String| {
            format!(
                "opponent {} {what} in {} (ply {})",
                self.label,
                pos.to_fen(),
                game.moves_std.len() + 1
            )
        };
        let reply = client
            .think(&req, Instant::now() + self.allowed)
            .map_err(|e| fail(format!("failed: {e}")))?;
        pos.parse_move(&reply.mv)
            .map_err(|e| fail(format!("played an illegal move {:?} ({e})", reply.mv)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: SelfplayArgs,
    }

    fn args(extra: &[&str]) -> SelfplayArgs {
        let mut all = vec!["selfplay", "--games", "1", "--out", "x.txt"];
        all.extend_from_slice(extra);
        Command::parse_from(all).args
    }

    #[test]
    fn specs_parse_with_their_limits_and_header() {
        let a = args(&["--depth", "5"]);
        let o = Opponent::parse(" engine:'my engine' hub name=other nodes=900 ", &a).unwrap();
        assert_eq!(o.label, "other");
        assert_eq!(o.header, "engine:'my engine' hub name=other nodes=900");
        assert_eq!(o.spec.command, ["my engine", "hub"]);
        assert_eq!((o.limits.depth, o.limits.nodes), (None, Some(900)));
        assert_eq!(o.allowed, STALL);
        // Without limits of its own, the recipe's; with movetime=, twice it and a second.
        let o = Opponent::parse("engine:/bin/scan hub", &a).unwrap();
        assert_eq!((o.label.as_str(), o.limits.depth), ("scan", Some(5)));
        let o = Opponent::parse("engine:scan movetime=0.5", &a).unwrap();
        assert_eq!(o.limits.movetime, Some(Duration::from_millis(500)));
        assert_eq!(o.allowed, Duration::from_secs(2));

        let o = Opponent::parse("eval:<network>", &args(&["--nodes", "3000", "--tt", "8"])).unwrap();
        assert_eq!(o.header, "eval:<network>");
        assert_eq!((o.limits.depth, o.limits.nodes), (None, Some(3000)));
        assert_eq!(o.spec.command[1], "hub");
        assert!(o.spec.options.contains(&("eval-file".into(), "<network>".into())));
        assert!(o.spec.options.contains(&("tt-size".into(), "19".into())));

        // A weight file is named with its checksum.
        let path = std::env::temp_dir().join(format!("tempo-opponent-{}.bin", std::process::id()));
        std::fs::write(&path, b"weights").unwrap();
        let o = Opponent::parse(&format!("eval:{}", path.display()), &a).unwrap();
        assert!(
            o.header
                .ends_with(&format!("@{:08x}", crc32fast::hash(b"weights"))),
            "{}",
            o.header
        );
        let _ = std::fs::remove_file(&path);

        for (bad, why) in [
            ("scan", "expected eval:EVAL or engine:ENGINE"),
            ("eval:", "name an evaluation"),
            ("engine:scan tc=10+0.1", "no clocks"),
            ("engine:scan depth=0", "depth"),
            ("engine:scan\nhub", "control character"),
            ("eval:/nonexistent-dir/w.bin", "nonexistent"),
        ] {
            let e = Opponent::parse(bad, &a).unwrap_err();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
    }
}
