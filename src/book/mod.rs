//! The opening book: positions of the opening tree with the scores Tempo's own searches gave them,
//! backed up by minimax, and the choice of a move among the book's near-best ones.
//!
//! Layering: this floor sits beside the search and below the engine and the protocols, which reach
//! it only through [`Book::moves`] and [`Book::choose`] (as they reach the endgame tables through
//! their probe). Lookups are by position key, so a position reached by several move orders
//! (a transposition) is one entry.
//!
//! - [`format`](mod@format): the file (header, entries sorted by key, CRC-32), searched in place;
//! - [`build`]: best-first ("drop-out") expansion of the opening tree by Tempo's search;
//! - [`cli`]: `tempo book build | probe | info | verify`;
//! - [`shipped`]: the books compiled into the binary.
//!
//! docs/book.md describes the file and the commands.

pub mod build;
pub mod cli;
pub mod format;
pub mod shipped;

pub use format::{Book, Entry};

use crate::game::{Game, MoveList};
use crate::search::WIN;
use crate::tt::WIN_BOUND;
use rand::Rng;
use std::path::Path;

/// A legal move whose position is in the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove<M> {
    /// The move.
    pub mv: M,
    /// Its score for the player making it, in hundredths of a man ([`parent_score`] of the stored
    /// score of the position it leads to).
    pub score: i32,
    /// Plies of search behind the score.
    pub depth: u32,
}

/// The score for the side to move of a position whose move leads to a position scored `child`
/// (for the other side): negated, and a win or loss one ply further away, so that backed-up
/// scores keep the search's convention (`WIN - n` wins in `n` plies).
pub fn parent_score(child: i32) -> i32 {
    let s = -child;
    if s >= WIN_BOUND {
        (s - 1).max(WIN_BOUND)
    } else if s <= -WIN_BOUND {
        (s + 1).min(-WIN_BOUND)
    } else {
        s
    }
}

/// The score of a position where the game is over, for its side to move.
pub fn outcome_score<G: Game>(pos: &G, outcome: crate::game::Outcome) -> i32 {
    match outcome {
        crate::game::Outcome::Draw => 0,
        crate::game::Outcome::Win(s) if s == pos.side_to_move() => WIN,
        crate::game::Outcome::Win(_) => -WIN,
    }
}

impl Book {
    /// Reads and checks a book file (at most [`format::MAX_BYTES`]; only a regular file).
    ///
    /// # Errors
    /// The file cannot be read, or [`Book::from_bytes`] refuses it; the message names the file.
    pub fn load(path: &Path) -> Result<Book, String> {
        let bytes = crate::fsutil::read_capped(path, format::MAX_BYTES)?;
        Book::from_bytes(bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// As [`Book::load`], and refuses a book of another variant than `G`'s.
    ///
    /// # Errors
    /// As [`Book::load`], or a book of another variant.
    pub fn load_for<G: Game>(path: &Path) -> Result<Book, String> {
        let book = Book::load(path)?;
        book.check_variant::<G>()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(book)
    }

    /// Refuses a book of another variant than `G`'s.
    ///
    /// # Errors
    /// A message naming both variants.
    pub fn check_variant<G: Game>(&self) -> Result<(), String> {
        if self.variant() != G::NAME {
            return Err(format!("a book of {}, not of {}", self.variant(), G::NAME));
        }
        Ok(())
    }

    /// The legal moves of `pos` whose positions are in the book, with their scores for the player
    /// to move, best first (ties in move generation order). Empty when the book is of another
    /// variant.
    pub fn moves<G: Game>(&self, pos: &G) -> Vec<BookMove<G::Move>> {
        if self.check_variant::<G>().is_err() {
            return Vec::new();
        }
        let mut list = MoveList::new();
        pos.generate(&mut list);
        let mut out: Vec<BookMove<G::Move>> = list
            .iter()
            .filter_map(|mv| {
                self.find(pos.play(mv).key()).map(|e| BookMove {
                    mv: *mv,
                    score: parent_score(e.score),
                    depth: e.depth + 1,
                })
            })
            .collect();
        out.sort_by_key(|m| std::cmp::Reverse(m.score));
        out
    }

    /// A book move for `pos`, drawn uniformly by `rng` among those scoring within `margin`
    /// hundredths of a man of the best (Scan's `book-margin`): 0 plays the best. `None` when the
    /// position is not an expanded one of the book, where some legal move might lead outside it
    /// and be better than every move the book knows.
    pub fn choose<G: Game, R: Rng + ?Sized>(
        &self,
        pos: &G,
        margin: i32,
        rng: &mut R,
    ) -> Option<BookMove<G::Move>> {
        if !self.find(pos.key()).is_some_and(|e| e.expanded()) {
            return None;
        }
        let moves = self.moves(pos);
        let best = moves.first()?.score;
        let near = moves
            .iter()
            .take_while(|m| m.score >= best.saturating_sub(margin.max(0)))
            .count();
        Some(moves[rng.random_range(0..near)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_scores_negate_and_move_wins_one_ply_away() {
        assert_eq!(parent_score(35), -35);
        assert_eq!(parent_score(-WIN + 3), WIN - 4);
        assert_eq!(parent_score(WIN - 3), -WIN + 4);
        assert_eq!(parent_score(0), 0);
    }
}
