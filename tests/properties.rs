//! Property tests over seeded random games in every variant: what is printed reads back, and what
//! `play` does is consistent with itself.
//!
//! At every position of every game:
//! - PDN FEN → position → FEN gives the same text, the same position and the same key;
//! - the Hub position string reads back to the same string;
//! - every legal move prints in the standard and the Hub style and reads back to itself;
//! - after every legal move the incremental key equals the key computed from scratch;
//! - piece counts change only by captures and promotions: the mover keeps its number of pieces and
//!   gains at most one king, and only on a man's move; the opponent loses pieces exactly when the
//!   move captures (not checked in MuchADo, where captured soldiers may change colour);
//! - the draw clocks of the rule state (`H`: plies since a capture or man move, `E`: since a capture
//!   or promotion) reset or count on as the move says.
//!
//! `TEMPO_PROPERTY_GAMES` sets the number of games per variant (default 24).

use tempo::game::{Duplicates, Game, MoveList, MoveStyle, Outcome};
use tempo::variant::Variant;
use tempo::with_variant;
use tempo::zobrist::splitmix;

/// Men and kings of each side, from the Hub string; MuchADo's reserves at the end are skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Count {
    men: [u32; 2],
    kings: [u32; 2],
}

impl Count {
    fn of<G: Game>(p: &G) -> Count {
        let mut c = Count {
            men: [0; 2],
            kings: [0; 2],
        };
        for ch in p.to_hub().chars().skip(1) {
            match ch {
                'w' => c.men[0] += 1,
                'b' => c.men[1] += 1,
                'W' => c.kings[0] += 1,
                'B' => c.kings[1] += 1,
                _ => {}
            }
        }
        c
    }

    fn pieces(&self, side: usize) -> u32 {
        self.men[side] + self.kings[side]
    }
}

/// The value of a clock field (`H` or `E`) of a FEN, 0 when it is not written.
fn clock(fen: &str, letter: char) -> u32 {
    fen.split(':')
        .skip(1)
        .find_map(|f| {
            let rest = f.strip_prefix(letter)?;
            rest.parse().ok()
        })
        .unwrap_or(0)
}

fn check_position<G: Game>(v: Variant, p: &G) {
    let fen = p.to_fen();
    let q = G::from_fen(&fen).unwrap_or_else(|e| panic!("{v}: {fen}: {e}"));
    assert_eq!(q.to_fen(), fen, "{v}");
    assert_eq!(q, *p, "{v}: {fen} reads back as another position");
    assert_eq!(q.key(), p.key(), "{v}: {fen}");
    assert_eq!(p.key(), p.key_from_scratch(), "{v}: {fen}");
    let hub = p.to_hub();
    let h = G::from_hub(&hub).unwrap_or_else(|e| panic!("{v}: {hub}: {e}"));
    assert_eq!(h.to_hub(), hub, "{v}");
    assert_eq!(Count::of(&h), Count::of(p), "{v}: {hub}");
    check_counts(v, p);
}

/// The bulk counts perft uses (`count_moves`, `count_two_plies`, `count_three_plies`, `count_plies`) against move
/// lists: the fast paths (moves counted with shifts, single jumps and quiet moves made on the
/// piece sets) on positions of every kind, kings and long captures included.
fn check_counts<G: Game>(v: Variant, p: &G) {
    let mut list = MoveList::new();
    let mut replies = MoveList::new();
    for dup in [Duplicates::Merge, Duplicates::Keep] {
        p.generate_with(dup, &mut list);
        assert_eq!(
            p.count_moves(dup),
            list.len() as u64,
            "{v}: {} ({dup:?})",
            p.to_fen()
        );
        let two: usize = list
            .iter()
            .map(|m| {
                p.play(m).generate_with(dup, &mut replies);
                replies.len()
            })
            .sum();
        assert_eq!(
            p.count_two_plies(dup),
            two as u64,
            "{v}: {} ({dup:?})",
            p.to_fen()
        );
        // Depth 3 as perft's definition states it, from the depth-2 counts checked above.
        let three: u64 = list.iter().map(|m| p.play(m).count_two_plies(dup)).sum();
        assert_eq!(p.count_three_plies(dup), three, "{v}: {} ({dup:?})", p.to_fen());
        // Depth 4 the same way (under one policy: the two differ only in the captures, which the
        // depths above check), and the depths `count_plies` hands on to the methods above.
        if dup == Duplicates::Merge {
            let four: u64 = list.iter().map(|m| p.play(m).count_three_plies(dup)).sum();
            assert_eq!(p.count_plies(4, dup), four, "{v}: {} ({dup:?})", p.to_fen());
        }
        assert_eq!(p.count_plies(3, dup), three, "{v}");
        assert_eq!(p.count_plies(2, dup), two as u64, "{v}");
        assert_eq!(p.count_plies(1, dup), list.len() as u64, "{v}");
        assert_eq!(p.count_plies(0, dup), 1, "{v}");
    }
}

fn check_move<G: Game>(v: Variant, p: &G, m: &G::Move) {
    let fen = p.to_fen();
    for style in [MoveStyle::Standard, MoveStyle::Hub] {
        let text = p.format_move(m, style);
        assert_eq!(
            p.parse_move(&text).as_ref(),
            Ok(m),
            "{v}: {fen}: {text} ({style:?})"
        );
    }
    let next = p.play(m);
    assert_eq!(next.key(), next.key_from_scratch(), "{v}: {fen}: {m:?}");
    assert_eq!(
        next.side_to_move(),
        p.side_to_move().opponent(),
        "{v}: {fen}: {m:?}"
    );
    let (before, after) = (Count::of(p), Count::of(&next));
    let me = p.side_to_move().index();
    let them = 1 - me;
    let what = format!(
        "{v}: {fen}: {} ({before:?} -> {after:?})",
        p.format_move(m, MoveStyle::Hub)
    );
    if v == Variant::MuchAdo {
        // Captured soldiers may change colour and promotions spend reserve stones: no simple
        // count holds; its own rules tests (tests/muchado.rs) check captures.
        return;
    }
    assert_eq!(after.pieces(me), before.pieces(me), "{what}: the mover's pieces");
    let promoted = after.kings[me] - before.kings[me];
    assert!(promoted <= 1, "{what}");
    assert_eq!(after.men[me] + promoted, before.men[me], "{what}");
    if p.is_capture(m) {
        assert!(
            after.pieces(them) < before.pieces(them),
            "{what}: a capture takes a piece"
        );
    } else {
        assert_eq!(
            after.pieces(them),
            before.pieces(them),
            "{what}: no capture, no loss"
        );
        assert_eq!(after.kings[them], before.kings[them], "{what}");
    }
    // The draw clocks of the square-board family and Sixteen Soldiers' `H`.
    let (h0, h1) = (clock(&fen, 'H'), clock(&next.to_fen(), 'H'));
    if p.is_irreversible(m) {
        assert_eq!(h1, 0, "{what}: H after an irreversible move");
    } else {
        assert_eq!(h1, h0 + 1, "{what}: H after a reversible move");
    }
    if v != Variant::SixteenSoldiers {
        let (e0, e1) = (clock(&fen, 'E'), clock(&next.to_fen(), 'E'));
        let expected = if p.is_capture(m) || promoted == 1 {
            0
        } else {
            e0 + 1
        };
        assert_eq!(e1, expected, "{what}: E");
    }
}

/// Plays `games` random games from the start; returns the positions visited.
fn random_games<G: Game>(v: Variant, games: usize, seed: &mut u64) -> usize {
    let mut list = MoveList::new();
    let mut visited = 0;
    for _ in 0..games {
        let mut p = G::start();
        for _ply in 0..240 {
            check_position(v, &p);
            visited += 1;
            p.generate(&mut list);
            for m in list.iter() {
                check_move(v, &p, m);
            }
            if list.is_empty() || matches!(p.outcome(), Some(Outcome::Win(_) | Outcome::Draw)) {
                break;
            }
            *seed = splitmix(*seed);
            p = p.play(&list[(*seed % list.len() as u64) as usize]);
        }
    }
    visited
}

#[test]
fn round_trips_and_play_are_consistent_in_every_variant() {
    let games = std::env::var("TEMPO_PROPERTY_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(24);
    let mut seed = 0x00C0_FFEE;
    for v in Variant::ALL {
        let n = with_variant!(v, G => random_games::<G>(v, games, &mut seed));
        assert!(n > games, "{v}: {n} positions");
    }
}
