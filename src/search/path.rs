//! The search path: the stack of position keys from the game's history through the current line,
//! and the repetition rule applied to it.

use super::{Search, WIN};
use crate::eval::Evaluate;
use crate::game::Repetition;

impl<G: Evaluate> Search<'_, G> {
    /// The score of the position on top of the key stack if it repeats, by the game's rule.
    pub(super) fn repetition(&self, rule: Repetition, ply: usize) -> Option<i32> {
        let top = self.keys.len() - 1;
        let key = self.keys[top];
        let floor = self.floors[top];
        let mut count = 0;
        let mut in_path = false;
        let mut i = top;
        while i >= floor + 2 {
            i -= 2;
            if self.keys[i] == key {
                count += 1;
                in_path |= i >= self.root_index;
            }
        }
        if count == 0 {
            return None;
        }
        match rule {
            // A repetition inside the search is scored as the draw it can be forced into.
            Repetition::Draw(n) => (in_path || count + 1 >= usize::from(n)).then_some(0),
            Repetition::Ignored => in_path.then_some(0),
            // The player who made the n-th occurrence, who is not the side to move, loses.
            Repetition::LossForMover(n) => (count + 1 >= usize::from(n)).then_some(WIN - ply as i32),
        }
    }

    #[inline(always)]
    pub(super) fn push_key(&mut self, parent: &G, mv: &G::Move, child: &G) {
        let top = self.keys.len() - 1;
        let floor = if parent.is_irreversible(mv) {
            top + 1
        } else {
            self.floors[top]
        };
        self.keys.push(child.key());
        self.floors.push(floor);
    }

    #[inline(always)]
    pub(super) fn pop_key(&mut self) {
        self.keys.pop();
        self.floors.pop();
    }
}
