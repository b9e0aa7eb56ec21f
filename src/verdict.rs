//! The rules' verdict on a position of a game record: the game's own end or a repetition. The
//! match referee, self-play and game analysis all stop a game where the rules end it.

use crate::game::{Game, MoveList, Outcome, Repetition, Side};

fn side_name(s: Side) -> &'static str {
    match s {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// The rules' verdict on a position: the game's own end (no move, a goal, a counted draw) or a
/// repetition, found in `keys` (the keys of the earlier positions since the last irreversible move).
pub fn rules_verdict<G: Game>(pos: &G, keys: &[u64]) -> Option<(Outcome, String)> {
    if let Some(o) = pos.outcome() {
        let mut list = MoveList::new();
        pos.generate(&mut list);
        let mover = pos.side_to_move();
        let text = match o {
            Outcome::Win(s) if list.is_empty() => {
                format!("{} wins: {} has no legal move", side_name(s), side_name(mover))
            }
            Outcome::Win(s) => format!("{} wins by the rules of the variant", side_name(s)),
            Outcome::Draw => "Draw by the variant's draw rule".to_string(),
        };
        return Some((o, text));
    }
    let seen = keys.iter().filter(|&&k| k == pos.key()).count() + 1;
    match pos.repetition() {
        Repetition::Draw(n) if seen >= usize::from(n) => {
            Some((Outcome::Draw, format!("Draw by {n}-fold repetition")))
        }
        Repetition::LossForMover(n) if seen >= usize::from(n) => {
            // The player who made the last move produced the repetition and loses.
            let winner = pos.side_to_move();
            Some((
                Outcome::Win(winner),
                format!(
                    "{} wins: {n}-fold repetition by {}",
                    side_name(winner),
                    side_name(winner.opponent())
                ),
            ))
        }
        _ => None,
    }
}
