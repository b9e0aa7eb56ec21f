//! Portable Draughts Notation: reading and writing game records.
//!
//! The reader follows PDN 3.0 as draughts programs write it: tag pairs `[Name "Value"]`, move
//! numbers (`1.`, `1...`), comments in braces or after `;` to the end of the line, variations in
//! parentheses (nested, skipped), NAGs (`$12`) and move annotations (`!`, `?`, `!?`...), and a game
//! result (`2-0 0-2 1-1 1-0 0-1 1/2-1/2 *`). A file may hold several games. Moves are kept as
//! text: only the position knows what a move means, so callers match each one with
//! [`crate::game::Game::parse_move`].
//!
//! The writer puts the tags in the standard order (PDN's seven-tag roster, then the others as
//! given), numbers the moves, starting with `1...` when Black moves first in a `FEN` tag, and wraps
//! the move text at [`LINE_WIDTH`] characters.

use std::fmt;

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

/// Why a PDN text could not be read; `line` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// The line where the problem was found.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PDN line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PdnError {}

/// A character cursor that counts lines for error messages.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }
    fn next(&mut self) -> Option<char> {
        let c = self.chars.next();
        if c == Some('\n') {
            self.line += 1;
        }
        c
    }
    fn error<T>(&self, message: impl Into<String>) -> Result<T, PdnError> {
        Err(PdnError {
            line: self.line,
            message: message.into(),
        })
    }
}

/// Whether a character ends a move-text token.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | ';' | '$' | '"')
}

/// Reads every game of a PDN text.
///
/// # Errors
/// A [`PdnError`] with the line of an unterminated tag, comment or variation, a malformed tag, a
/// stray closing bracket, or a token that is not PDN.
pub fn parse_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut cur = Cursor {
        chars: text.chars().peekable(),
        line: 1,
    };
    let mut games = Vec::new();
    let mut game = PdnGame::default();
    // Whether the current game has begun (a tag, move or result seen).
    let mut started = false;
    while let Some(c) = cur.peek() {
        match c {
            _ if c.is_whitespace() || c == '\u{feff}' => {
                cur.next();
            }
            '[' => {
                // A tag after move text starts the next game (a missing result is allowed).
                if !game.moves.is_empty() || game.result.is_some() {
                    games.push(std::mem::take(&mut game));
                }
                cur.next();
                let (name, value) = read_tag(&mut cur)?;
                game.tags.push((name, value));
                started = true;
            }
            '{' => skip_comment(&mut cur)?,
            ';' => {
                while let Some(c) = cur.next() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => skip_variation(&mut cur)?,
            ')' | ']' | '}' => return cur.error(format!("unexpected {c:?}")),
            '"' => return cur.error("a quoted string outside a tag"),
            '$' => {
                cur.next();
                let mut digits = 0;
                while cur.peek().is_some_and(|c| c.is_ascii_digit()) {
                    cur.next();
                    digits += 1;
                }
                if digits == 0 {
                    return cur.error("'$' without a NAG number");
                }
            }
            _ => {
                let mut token = String::new();
                while let Some(c) = cur.peek().filter(|&c| !is_delimiter(c)) {
                    token.push(c);
                    cur.next();
                }
                started = true;
                if RESULTS.contains(&token.as_str()) {
                    game.result = Some(token);
                    games.push(std::mem::take(&mut game));
                    started = false;
                    continue;
                }
                if let Some(mv) = move_of_token(&token).map_err(|m| PdnError {
                    line: cur.line,
                    message: m,
                })? {
                    game.moves.push(mv);
                }
            }
        }
    }
    if started {
        games.push(game);
    }
    Ok(games)
}

/// Reads `Name "Value"]` after the opening bracket.
fn read_tag(cur: &mut Cursor<'_>) -> Result<(String, String), PdnError> {
    let mut name = String::new();
    while cur.peek().is_some_and(|c| c.is_whitespace()) {
        cur.next();
    }
    while let Some(c) = cur.peek().filter(|&c| c.is_ascii_alphanumeric() || c == '_') {
        name.push(c);
        cur.next();
    }
    if name.is_empty() {
        return cur.error("a tag without a name");
    }
    while cur.peek().is_some_and(|c| c.is_whitespace()) {
        cur.next();
    }
    if cur.next() != Some('"') {
        return cur.error(format!("tag {name} has no quoted value"));
    }
    let mut value = String::new();
    loop {
        match cur.next() {
            None => return cur.error(format!("tag {name}: unterminated value")),
            Some('"') => break,
            Some('\\') => match cur.next() {
                Some(c @ ('"' | '\\')) => value.push(c),
                Some(c) => {
                    value.push('\\');
                    value.push(c);
                }
                None => return cur.error(format!("tag {name}: unterminated value")),
            },
            Some(c) => value.push(c),
        }
    }
    while cur.peek().is_some_and(|c| c.is_whitespace()) {
        cur.next();
    }
    if cur.next() != Some(']') {
        return cur.error(format!("tag {name}: missing ']'"));
    }
    Ok((name, value))
}

/// Skips a `{...}` comment (comments do not nest).
fn skip_comment(cur: &mut Cursor<'_>) -> Result<(), PdnError> {
    let start = cur.line;
    cur.next();
    loop {
        match cur.next() {
            Some('}') => return Ok(()),
            Some(_) => {}
            None => {
                return Err(PdnError {
                    line: start,
                    message: "unterminated comment".into(),
                });
            }
        }
    }
}

/// Skips a `(...)` variation with everything nested in it, comments included.
fn skip_variation(cur: &mut Cursor<'_>) -> Result<(), PdnError> {
    let start = cur.line;
    cur.next();
    let mut depth = 1;
    while depth > 0 {
        match cur.peek() {
            None => {
                return Err(PdnError {
                    line: start,
                    message: "unterminated variation".into(),
                });
            }
            Some('{') => skip_comment(cur)?,
            Some(c) => {
                cur.next();
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

/// The move in a move-text token, once its number and annotations are stripped: `12.32-28!` gives
/// `32-28`, `12.` and `12...` give nothing.
fn move_of_token(token: &str) -> Result<Option<String>, String> {
    let mut rest = token;
    // A move number: digits followed by one or more dots.
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && rest[digits..].starts_with('.') {
        rest = rest[digits..].trim_start_matches('.');
    }
    let rest = rest.trim_end_matches(['!', '?']);
    if rest.is_empty() {
        return Ok(None);
    }
    if rest
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | 'x' | 'X' | ':'))
    {
        Ok(Some(rest.to_string()))
    } else {
        Err(format!("not a move: {token:?}"))
    }
}

/// Quotes a tag value, escaping `"` and `\`.
fn quote(value: &str) -> String {
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
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > LINE_WIDTH {
            out += &line;
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &t;
    }
    out += &line;
    out += "\n\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_numbers_comments_variations_nags_and_results() {
        let text = r#"[Event "Test \"quoted\" event"]
[White "A"] [Black "B"]
[Result "2-0"]
1. 32-28 {opening} 19-23 2. 28x19 $3 14x23! (2... 13x24?! {alt} (2... 9x18)) 3.37-32 ; rest of line
3... 10-14 2-0

[Event "Second"]
[FEN "B:W28,K40:B12"]
1... 12-17 2. 40-45 *
"#;
        let games = parse_games(text).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("Test \"quoted\" event"));
        assert_eq!(g.tag("Black"), Some("B"));
        assert_eq!(g.tag("Round"), None);
        assert_eq!(g.moves, ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"]);
        assert_eq!(g.result.as_deref(), Some("2-0"));
        let g = &games[1];
        assert_eq!(g.tag("FEN"), Some("B:W28,K40:B12"));
        assert_eq!(g.moves, ["12-17", "40-45"]);
        assert_eq!(g.result.as_deref(), Some("*"));
    }

    #[test]
    fn every_result_token_ends_a_game() {
        for r in RESULTS {
            let games = parse_games(&format!("1. 32-28 19-23 {r} 1. 31-27 {r}")).unwrap();
            assert_eq!(games.len(), 2, "{r}");
            assert_eq!(games[0].result.as_deref(), Some(r));
            assert_eq!(games[1].moves, ["31-27"]);
        }
    }

    #[test]
    fn a_game_without_result_ends_at_the_next_tag_or_the_end() {
        let games = parse_games("[Event \"a\"]\n1. c3-d4 f6-g5\n[Event \"b\"]\n1. c3:e5").unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, ["c3-d4", "f6-g5"]);
        assert_eq!(games[0].result, None);
        assert_eq!(games[1].moves, ["c3:e5"]);
        assert!(parse_games("  \n").unwrap().is_empty());
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("[Event \"x\"]\n1. 32-28 {never closed", 2, "unterminated comment"),
            ("\n\n1. 32-28 (19-23", 3, "unterminated variation"),
            ("[Event x]", 1, "no quoted value"),
            ("[Event \"x\"", 1, "missing ']'"),
            ("1. 32-28 )", 1, "unexpected"),
            ("1. 32-28\n19#23", 2, "not a move"),
            ("1. $ 32-28", 1, "NAG"),
        ];
        for (text, line, what) in cases {
            let e = parse_games(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
    }

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
