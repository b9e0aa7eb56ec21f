//! Perft: the number of leaf nodes of the legal-move tree, the proof that a move generator is right.
//!
//! The last ply is bulk counted ([`Game::count_moves`]): leaves are counted, never played; the
//! positions above them are made without what only the search reads ([`Game::play_bare`],
//! [`Game::count_plies`]), on the draughts boards mostly on the piece sets alone, without a move
//! list.

use crate::game::{Duplicates, Game, MoveList, MoveStyle};

/// Leaf nodes of the legal-move tree of `pos` at `depth` plies (1 at depth 0).
pub fn perft<G: Game>(pos: &G, depth: u32, dup: Duplicates) -> u64 {
    pos.count_plies(depth, dup)
}

/// Perft split by root move: each legal move (in the variant's standard notation) with its count.
pub fn divide<G: Game>(pos: &G, depth: u32, dup: Duplicates) -> Vec<(String, u64)> {
    let mut list = MoveList::new();
    pos.generate_with(dup, &mut list);
    list.iter()
        .map(|mv| {
            let count = perft(&pos.play(mv), depth.saturating_sub(1), dup);
            (pos.format_move(mv, MoveStyle::Standard), count)
        })
        .collect()
}
