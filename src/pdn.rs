//! Portable Draughts Notation: reading and writing game records.
//!
//! The reader ([`crate::pdn_read`], re-exported here) follows PDN 3.0 as the standard and real files
//! write it: tags, move numbers, comments, nested variations, NAGs and move strengths, escape
//! lines, clock commands, moves written with spaces or without separators; a file may hold several
//! games, and a bad one is skipped with its line and column. Moves are kept as text: only the
//! position knows what a move means, so callers match each one with
//! [`crate::game::Game::parse_move`].
//!
//! The writer puts the tags in the standard order (PDN's seven-tag roster, then the others as
//! given), numbers the moves, starting with `1...` when Black moves first in a `FEN` tag, and wraps
//! the move text at [`LINE_WIDTH`] characters.

/// The largest PDN file read, in bytes (64 MiB: hundreds of thousands of games). A larger input,
/// or one without end such as `/dev/zero`, is refused instead of filling the memory.
pub const MAX_PDN_BYTES: u64 = 64 << 20;

/// Reads a PDN (or opening) file of at most [`MAX_PDN_BYTES`] as text.
///
/// # Errors
/// The file cannot be opened or read, is larger than the cap, or is not UTF-8; the message names
/// the file.
pub fn read_file(path: &std::path::Path) -> Result<String, String> {
    // A regular file only: a FIFO would block the open, a device would never end.
    let bytes = crate::fsutil::read_capped(path, MAX_PDN_BYTES)?;
    String::from_utf8(bytes).map_err(|e| format!("cannot read {}: not UTF-8 text ({e})", path.display()))
}

/// Reads a PDN file of at most [`MAX_PDN_BYTES`] as text, as [`read_file`] does, but reads a file
/// that is not UTF-8 byte by byte as Latin-1 (older exports are written in a legacy code page)
/// instead of refusing it; the note then says so.
///
/// # Errors
/// The file cannot be opened or read, or is larger than the cap; the message names the file.
pub fn read_text(path: &std::path::Path) -> Result<(String, Option<String>), String> {
    let bytes = crate::fsutil::read_capped(path, MAX_PDN_BYTES)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok((text, None)),
        Err(e) => {
            let text = e.as_bytes().iter().map(|&b| char::from(b)).collect();
            let note = format!(
                "{}: not UTF-8 ({}): read as Latin-1, so names may show wrongly",
                path.display(),
                e.utf8_error()
            );
            Ok((text, Some(note)))
        }
    }
}

/// The longest line the writer produces in the move text (PGN/PDN export convention: 80).
pub const LINE_WIDTH: usize = 80;

/// PDN's seven-tag roster, written first and in this order (PDN 3.0, after PGN 8.1.1).
pub const TAG_ORDER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Game results a PDN file may carry: 2-0/0-2/1-1 (draughts points), 1-0/0-1/1/2-1/2 (chess-style,
/// also used by draughts programs), and `*` for an unfinished game.
pub const RESULTS: [&str; 7] = ["2-0", "0-2", "1-1", "1-0", "0-1", "1/2-1/2", "*"];

/// One game of a PDN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Moves of the main line as written, without numbers or annotations.
    pub moves: Vec<String>,
    /// The result token that ends the move text, when there is one.
    pub result: Option<String>,
}

impl PdnGame {
    /// The value of the first tag with this name (names compare exactly, as PDN requires).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing the value of an existing one or appending it.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }
}

pub use crate::pdn_read::{PdnError, Place, ReadGame, read_games};

/// Reads every game of a PDN text ([`read_games`]), refusing the text at its first bad game.
///
/// # Errors
/// The [`PdnError`] of the first game that cannot be read: an unterminated tag, comment or
/// variation, a malformed tag, a stray closing bracket, or a token that is not PDN.
pub fn parse_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    read_games(text).into_iter().map(|g| g.map(|g| g.game)).collect()
}

/// Quotes a tag value, escaping `"` and `\`.
pub fn quote(value: &str) -> String {
    let mut s = String::with_capacity(value.len() + 2);
    s.push('"');
    for c in value.chars() {
        if matches!(c, '"' | '\\') {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    s
}

/// Writes one game: tags (roster first, then the rest in their order), a blank line, the numbered
/// move text wrapped at [`LINE_WIDTH`] and ending with the result, and a blank line after it.
///
/// The result written is the game's `result`, else its `Result` tag, else `*`; the `Result` tag,
/// when missing, is written with that value, as PDN requires.
pub fn write_game(game: &PdnGame) -> String {
    write_game_with_comments(game, &[])
}

/// [`write_game`] with a comment after some moves: `comments[i]`, when there is one, follows move
/// `i` in braces (`32-28 {+0.12/9 0.104s}`). A Black move after a comment is not numbered again
/// (`1... 19-23`, as PGN's export format would have it): pydraughts 0.6.7's reader takes a number
/// written twice for a number to delete everywhere after it, and fails on the game. A `}` in a
/// comment, which would end it early, is written as `)`.
pub fn write_game_with_comments(game: &PdnGame, comments: &[Option<String>]) -> String {
    let result = game
        .result
        .as_deref()
        .or(game.tag("Result"))
        .unwrap_or("*")
        .to_string();
    let mut out = String::new();
    for name in TAG_ORDER {
        match game.tag(name) {
            Some(v) => out += &format!("[{name} {}]\n", quote(v)),
            None if name == "Result" => out += &format!("[Result {}]\n", quote(&result)),
            None => {}
        }
    }
    for (name, value) in &game.tags {
        if !TAG_ORDER.contains(&name.as_str()) {
            out += &format!("[{name} {}]\n", quote(value));
        }
    }
    out.push('\n');
    // Black first when a FEN tag says so (PDN FEN begins with the side to move).
    let black_first = game
        .tag("FEN")
        .is_some_and(|f| f.trim_start().starts_with(['B', 'b']));
    let mut tokens = Vec::new();
    for (i, mv) in game.moves.iter().enumerate() {
        let ply = i + usize::from(black_first);
        if ply % 2 == 0 {
            tokens.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 {
            tokens.push(format!("{}...", ply / 2 + 1));
        }
        tokens.push(mv.clone());
        if let Some(Some(c)) = comments.get(i) {
            tokens.push(format!("{{{}}}", c.replace('}', ")")));
        }
    }
    tokens.push(result);
    out += &wrap_move_text(&tokens);
    out
}

/// Move-text tokens (numbers, moves, comments, the result) joined by spaces in lines of at most
/// [`LINE_WIDTH`] characters (a longer token stands alone), with a blank line after them.
pub fn wrap_move_text(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.chars().count() + 1 + t.chars().count() > LINE_WIDTH {
            out += &line;
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += t;
    }
    out += &line;
    out += "\n\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_orders_tags_numbers_moves_and_wraps() {
        let game = PdnGame {
            tags: vec![
                ("GameType".into(), "20".into()),
                ("Black".into(), "Dame".into()),
                ("White".into(), "Tempo".into()),
                ("Event".into(), "Match".into()),
            ],
            moves: (0..40)
                .map(|i| format!("{}-{}", 31 + i % 10, 26 + i % 10))
                .collect(),
            result: Some("1-1".into()),
        };
        let text = write_game(&game);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            &lines[..6],
            [
                "[Event \"Match\"]",
                "[White \"Tempo\"]",
                "[Black \"Dame\"]",
                "[Result \"1-1\"]",
                "[GameType \"20\"]",
                ""
            ]
        );
        assert!(lines[6].starts_with("1. 31-26 32-27 2. 33-28"));
        assert!(lines.iter().all(|l| l.len() <= LINE_WIDTH));
        assert!(lines.len() > 8, "40 moves need several lines");
        assert!(text.trim_end().ends_with("1-1"));
    }

    #[test]
    fn comments_follow_their_moves() {
        let game = PdnGame {
            tags: vec![],
            moves: vec!["32-28".into(), "19-23".into(), "28x19".into()],
            result: Some("*".into()),
        };
        let comments = [None, Some("-0.10/4 0.100s".into()), Some("a}b".into())];
        let text = write_game_with_comments(&game, &comments);
        assert!(
            text.contains("1. 32-28 19-23 {-0.10/4 0.100s} 2. 28x19 {a)b} *"),
            "{text}"
        );
        let c = [Some("x".to_string())];
        assert!(write_game_with_comments(&game, &c).contains("1. 32-28 {x} 19-23 2. 28x19 *"));
        let back = parse_games(&write_game_with_comments(&game, &comments)).unwrap();
        assert_eq!(back[0].moves, game.moves);
    }

    #[test]
    fn black_first_starts_with_an_ellipsis() {
        let game = PdnGame {
            tags: vec![("FEN".into(), "B:W28:B12,19".into())],
            moves: vec!["19-23".into(), "28x19".into(), "12-17".into()],
            result: None,
        };
        let text = write_game(&game);
        assert!(text.contains("[Result \"*\"]"));
        assert!(text.contains("\n1... 19-23 2. 28x19 12-17 *"), "{text}");
    }

    #[test]
    fn round_trip() {
        let game = PdnGame {
            tags: vec![
                ("Event".into(), "A \"quoted\" back\\slash".into()),
                ("Date".into(), "2025.01.31".into()),
                ("White".into(), "Tempo".into()),
                ("Black".into(), "Other".into()),
                ("Result".into(), "0-2".into()),
                ("FEN".into(), "B:W31-50:B1-20".into()),
                ("GameType".into(), "20".into()),
            ],
            moves: (0..75)
                .map(|i| {
                    if i % 3 == 0 {
                        format!("{}x{}", i % 50 + 1, (i + 9) % 50 + 1)
                    } else {
                        format!("{}-{}", i % 50 + 1, (i + 5) % 50 + 1)
                    }
                })
                .collect(),
            result: Some("0-2".into()),
        };
        let text = write_game(&game);
        let twice = format!("{text}{text}");
        let back = parse_games(&twice).unwrap();
        assert_eq!(back, vec![game.clone(), game]);
    }
}
