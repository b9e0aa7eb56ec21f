//! Random games in every variant: after every move the incremental Zobrist key equals the key
//! computed from scratch, FEN and the Hub string read back to the same position, every legal move
//! is written and read back to itself in both notations, and bulk counting agrees with generation.

use tempo::game::{Duplicates, Game, MoveList, MoveStyle};
use tempo::variant::Variant;
use tempo::with_variant;
use tempo::zobrist::splitmix;

/// Plays `games` random games of at most `plies` plies from the start, checking every position.
fn random_games<G: Game>(games: u64, plies: usize) -> usize {
    let mut checked = 0;
    let mut list = MoveList::new();
    for game in 0..games {
        let mut pos = G::start();
        let mut seed = splitmix(game ^ 0xD1CE);
        for _ in 0..plies {
            assert_eq!(pos.key(), pos.key_from_scratch(), "{}", pos.to_fen());
            assert_eq!(G::from_fen(&pos.to_fen()).as_ref(), Ok(&pos), "FEN round trip");
            let hub = G::from_hub(&pos.to_hub()).expect("hub string reads back");
            assert_eq!(hub.to_hub(), pos.to_hub());
            pos.generate(&mut list);
            assert_eq!(
                pos.count_moves(Duplicates::Merge),
                list.len() as u64,
                "{}",
                pos.to_fen()
            );
            let mut keep = MoveList::new();
            pos.generate_with(Duplicates::Keep, &mut keep);
            assert_eq!(pos.count_moves(Duplicates::Keep), keep.len() as u64);
            assert!(keep.len() >= list.len());
            for mv in &list {
                for style in [MoveStyle::Standard, MoveStyle::Hub] {
                    let text = pos.format_move(mv, style);
                    assert_eq!(
                        pos.parse_move(&text).as_ref(),
                        Ok(mv),
                        "{text} in {}",
                        pos.to_fen()
                    );
                }
            }
            checked += 1;
            if list.is_empty() {
                break;
            }
            seed = splitmix(seed);
            let mv = list[(seed % list.len() as u64) as usize];
            pos = pos.play(&mv);
        }
    }
    checked
}

#[test]
fn random_games_keep_keys_and_notation_consistent() {
    for v in Variant::ALL {
        let positions = with_variant!(v, G => random_games::<G>(300, 300));
        eprintln!("{v}: {positions} positions");
        assert!(positions > 10_000, "{v}: only {positions} positions");
    }
}
