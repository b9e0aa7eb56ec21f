//! How the Hub dialect numbers a variant's squares, where that differs from Tempo's numbering.
//!
//! Scan defines Hub for the 10x10 board only. For the other boards the one Hub client that
//! exists is pydraughts (the engine layer of lidraughts-bot), and its convention is the one that
//! matters: the side that moves first is always called White, Black always holds the squares
//! numbered from 1 in the position string, and moves are written in the variant's standard
//! numbering. Against Tempo's numbering (`protocol.md` 4.1) that gives three cases:
//!
//! - the same squares and colours (every 10x10 variant, Italian): nothing to translate;
//! - Russian, Brazilian and Turkish: the position string is Tempo's, but move numbers count the
//!   rows from White's side (`1` = a1 instead of `1` = b8 / a8);
//! - English: move numbers are Tempo's (standard English), but the position string shows the
//!   board turned half a turn with the colours swapped, because Black moves first.
//!
//! A [`HubNotation`] describes one variant's case; [`crate::variant::Variant::hub_notation`] is the
//! table. Translation works on text, so the positions and moves below it keep one numbering.

/// How a Hub position string maps onto Tempo's squares and colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HubBoard {
    /// Character `i` after the side is Tempo's square `i`; `w`/`W` is White.
    Same,
    /// Character `i` is Tempo's square `n + 1 - i` (the board turned half a turn) and the colours
    /// are swapped, the side letter too: `W` is the side that moves first, Black in English.
    TurnedSwapped,
}

/// How Hub move numbers map onto Tempo's square numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HubSquares {
    /// The same numbers.
    Same,
    /// Rows counted from the other edge of the board: the square in row `r` (from the top) and
    /// place `c` of its row is Tempo's `r * per_row + c + 1` and Hub's
    /// `(rows - 1 - r) * per_row + c + 1`.
    RowsFlipped {
        /// Playing squares in a row.
        per_row: u32,
    },
}

/// One variant's Hub numbering, relative to Tempo's (see the module documentation).
///
/// Both maps are their own inverse, but the two directions have their own names so that a caller
/// says which way it translates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HubNotation {
    /// The position string.
    pub board: HubBoard,
    /// Move numbers.
    pub squares: HubSquares,
    /// Playing squares on the board.
    pub count: u32,
}

impl HubNotation {
    /// Tempo's own numbering: nothing to translate.
    pub const SAME: HubNotation = HubNotation {
        board: HubBoard::Same,
        squares: HubSquares::Same,
        count: 0,
    };

    /// Move numbers with the rows counted from the other edge, on a board of `count` squares,
    /// `per_row` to a row; the position string as Tempo's.
    pub const fn rows_flipped(count: u32, per_row: u32) -> HubNotation {
        HubNotation {
            board: HubBoard::Same,
            squares: HubSquares::RowsFlipped { per_row },
            count,
        }
    }

    /// The position string turned half a turn with the colours swapped, on a board of `count`
    /// squares; move numbers as Tempo's.
    pub const fn turned_swapped(count: u32) -> HubNotation {
        HubNotation {
            board: HubBoard::TurnedSwapped,
            squares: HubSquares::Same,
            count,
        }
    }

    /// Whether this numbering is Tempo's own (no translation at all).
    pub fn is_same(&self) -> bool {
        self.board == HubBoard::Same && self.squares == HubSquares::Same
    }

    /// The other numbering's number of square `n`, or `None` when `n` is not a square.
    fn flip(&self, n: u32) -> Option<u32> {
        match self.squares {
            HubSquares::Same => Some(n),
            HubSquares::RowsFlipped { per_row } => {
                if n == 0 || n > self.count || per_row == 0 {
                    return None;
                }
                let rows = self.count / per_row;
                let (row, place) = ((n - 1) / per_row, (n - 1) % per_row);
                Some((rows - 1 - row) * per_row + place + 1)
            }
        }
    }

    /// Tempo's number of the square the Hub calls `n` (`None`: not a square of the board).
    pub fn square_to_tempo(&self, n: u32) -> Option<u32> {
        self.flip(n)
    }

    /// The Hub number of Tempo's square `n` (`None`: not a square of the board).
    pub fn square_from_tempo(&self, n: u32) -> Option<u32> {
        self.flip(n)
    }

    /// Renumbers every number in a move text (`9-13`, `9x18x14`); separators, algebraic names and
    /// numbers that are not squares stay as they are, so that the move reader reports them.
    fn renumber(&self, text: &str, sort_captured: bool) -> String {
        if self.squares == HubSquares::Same {
            return text.to_string();
        }
        // Squares and the separators after them, in order.
        let mut parts: Vec<(String, Option<char>)> = Vec::new();
        let mut current = String::new();
        for c in text.chars() {
            if matches!(c, '-' | 'x' | 'X' | ':') {
                parts.push((std::mem::take(&mut current), Some(c)));
            } else {
                current.push(c);
            }
        }
        parts.push((current, None));
        let mut numbers: Vec<Option<u32>> = parts
            .iter()
            .map(|(p, _)| {
                let digits = !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && p.len() <= 3;
                digits
                    .then(|| p.parse().ok().and_then(|n| self.flip(n)))
                    .flatten()
            })
            .collect();
        // The captured squares of the Hub form come in ascending order of the new numbers.
        if sort_captured && parts.len() > 2 && numbers.iter().all(Option::is_some) {
            numbers[2..].sort_unstable();
        }
        let mut out = String::with_capacity(text.len());
        for ((part, sep), n) in parts.iter().zip(&numbers) {
            match n {
                Some(n) => out.push_str(&n.to_string()),
                None => out.push_str(part),
            }
            if let Some(s) = sep {
                out.push(*s);
            }
        }
        out
    }

    /// A move as the Hub client sent it, in Tempo's numbering.
    pub fn move_to_tempo(&self, text: &str) -> String {
        self.renumber(text, false)
    }

    /// A move Tempo writes in the Hub form, in the client's numbering (captured squares still in
    /// ascending order).
    pub fn move_from_tempo(&self, text: &str) -> String {
        self.renumber(text, true)
    }

    /// Turns and recolours a position string; text that is not a well-formed string of this board
    /// is returned unchanged, for the position reader to report.
    fn turn(&self, text: &str) -> String {
        if self.board == HubBoard::Same {
            return text.to_string();
        }
        let t = text.trim();
        let well_formed = t.len() == self.count as usize + 1
            && t.chars().all(|c| matches!(c, 'w' | 'b' | 'W' | 'B' | 'e' | '.'));
        if !well_formed {
            return text.to_string();
        }
        let swap = |c: char| match c {
            'w' => 'b',
            'b' => 'w',
            'W' => 'B',
            'B' => 'W',
            other => other,
        };
        let mut chars = t.chars();
        let side = chars.next().map(swap);
        side.into_iter().chain(chars.rev().map(swap)).collect()
    }

    /// A position string as the Hub client sent it, as Tempo's Hub string (`protocol.md` 4.2).
    pub fn position_to_tempo(&self, text: &str) -> String {
        self.turn(text)
    }

    /// Tempo's Hub string of a position, as the Hub client writes it.
    pub fn position_from_tempo(&self, text: &str) -> String {
        self.turn(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUSSIAN: HubNotation = HubNotation::rows_flipped(32, 4);
    const TURKISH: HubNotation = HubNotation::rows_flipped(64, 8);
    const ENGLISH: HubNotation = HubNotation::turned_swapped(32);

    #[test]
    fn rows_flipped_squares() {
        // pydraughts' 9 is a3, Tempo's 21; 1 = a1 is Tempo's 29; 32 = h8 is Tempo's 4.
        assert_eq!(RUSSIAN.square_to_tempo(9), Some(21));
        assert_eq!(RUSSIAN.square_to_tempo(1), Some(29));
        assert_eq!(RUSSIAN.square_to_tempo(32), Some(4));
        assert_eq!(RUSSIAN.square_from_tempo(22), Some(10));
        assert_eq!(RUSSIAN.square_to_tempo(0), None);
        assert_eq!(RUSSIAN.square_to_tempo(33), None);
        // Turkish: 1 = a1 is Tempo's 57, 17 = a3 is Tempo's 41, 64 = h8 is Tempo's 8.
        assert_eq!(TURKISH.square_to_tempo(1), Some(57));
        assert_eq!(TURKISH.square_to_tempo(17), Some(41));
        assert_eq!(TURKISH.square_to_tempo(64), Some(8));
        for n in 1..=64 {
            assert_eq!(
                TURKISH.square_from_tempo(TURKISH.square_to_tempo(n).unwrap()),
                Some(n)
            );
        }
    }

    #[test]
    fn moves_are_renumbered_square_by_square() {
        assert_eq!(RUSSIAN.move_to_tempo("9-13"), "21-17");
        assert_eq!(RUSSIAN.move_from_tempo("22-17"), "10-13");
        // Tempo's 18x11x15 (takes 15): Hub 14x23x19, the captured square stays last.
        assert_eq!(RUSSIAN.move_from_tempo("18x11x15"), "14x23x19");
        // Two captured squares come out in ascending order of the new numbers.
        assert_eq!(RUSSIAN.move_from_tempo("1x19x6x15"), "29x15x19x26");
        assert_eq!(TURKISH.move_to_tempo("42-34"), "18-26");
        // Algebraic names, stray text and numbers off the board are left for the reader.
        assert_eq!(RUSSIAN.move_to_tempo("c3:d4"), "c3:d4");
        assert_eq!(RUSSIAN.move_to_tempo("9-99"), "21-99");
        assert_eq!(RUSSIAN.move_to_tempo("9-"), "21-");
        assert_eq!(ENGLISH.move_to_tempo("12-16"), "12-16");
        assert_eq!(HubNotation::SAME.move_from_tempo("33x13x18x28"), "33x13x18x28");
    }

    #[test]
    fn english_strings_are_turned_and_recoloured() {
        // pydraughts' initial English string: the first mover (Black) is `W` on the last squares.
        let pyd = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
        let tempo = "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
        assert_eq!(ENGLISH.position_to_tempo(pyd), tempo);
        assert_eq!(ENGLISH.position_from_tempo(tempo), pyd);
        // A king and one man: White's (Tempo) king on 1 is pydraughts' black king on 32.
        let t = format!("W{}{}", "W", "e".repeat(30) + "b");
        let p = format!("B{}{}", "w", "e".repeat(30) + "B");
        assert_eq!(ENGLISH.position_from_tempo(&t), p);
        assert_eq!(ENGLISH.position_to_tempo(&p), t);
        // Anything else is left for the reader to refuse.
        assert_eq!(ENGLISH.position_to_tempo("Wbbx"), "Wbbx");
        assert_eq!(ENGLISH.position_to_tempo("W:W21-32:B1-12"), "W:W21-32:B1-12");
        assert_eq!(RUSSIAN.position_to_tempo(pyd), pyd);
    }

    #[test]
    fn only_the_identity_is_same() {
        assert!(HubNotation::SAME.is_same());
        assert!(!RUSSIAN.is_same());
        assert!(!ENGLISH.is_same());
    }
}
