//! Reading PDN as the standard and real files write it.
//!
//! PDN 3.0 move text: tag pairs `[Name "Value"]`, move numbers (`1.`, `1...`, `1. ...`), comments in
//! braces or after `;` to the end of the line, variations in parentheses (nested, skipped), NAGs
//! (`$12`) and move strengths (`!`, `?`, `!?`..., attached or apart), escape lines starting with
//! `%`, commands such as clock tags (`[%clock ...]`), and a game result (`2-0 0-2 1-1 1-0 0-1
//! 1/2-1/2 0-0 *`). Beyond the letter of the standard, as files in the wild are written: moves
//! with spaces after the separator, as column-aligned exports write them (`17. 43-39  1- 6`),
//! alphanumeric moves without a separator (`a3b4`, read as `a3-b4`), `…` for `...`, a byte-order
//! mark, CRLF line ends, and tag values with unescaped inner quotes.
//!
//! A file is read game by game: an error names its line and column, and the reader goes on at the
//! next game, so one bad game does not lose the file ([`read_games`]). Moves are kept as text:
//! only the position knows what a move means.

use crate::pdn::{PdnGame, RESULTS};
use std::fmt;

/// Result tokens read beyond [`RESULTS`]: `0-0` (both lost, as some tournament files write a
/// double forfeit) and `½-½`.
const MORE_RESULTS: [&str; 2] = ["0-0", "½-½"];

/// Where something is in a text: line and column (in characters), both from 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why a PDN text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// The line where the problem was found, from 1.
    pub line: usize,
    /// The column, in characters from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for PdnError {}

/// One game as read, with where each of its moves stands in the text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadGame {
    /// Tags, moves and result.
    pub game: PdnGame,
    /// Where the game begins.
    pub start: Place,
    /// Where each move of `game.moves` is written.
    pub places: Vec<Place>,
    /// The first move is numbered for the second player (`1...` or `1. ...`): the first player's
    /// move is not given.
    pub second_first: bool,
}

/// Reads every game of a PDN text, in file order: each one read, or the error that stopped it
/// (the reader then goes on at the next game: the next tag line after a blank or move-text line).
pub fn read_games(text: &str) -> Vec<Result<ReadGame, PdnError>> {
    // A byte-order mark is not text: the first line's columns count from after it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut r = Reader {
        chars: text.chars().collect(),
        i: 0,
        line: 1,
        column: 1,
    };
    let mut out = Vec::new();
    loop {
        match r.game() {
            Ok(Some(g)) => out.push(Ok(g)),
            Ok(None) => break,
            Err(e) => {
                out.push(Err(e));
                r.skip_to_next_game();
            }
        }
    }
    out
}

/// A character reader that counts lines and columns.
struct Reader {
    chars: Vec<char>,
    i: usize,
    line: usize,
    column: usize,
}

/// Whether a character ends a move-text token.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}' || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | ';' | '$' | '"')
}

/// Whether a character separates the squares of a move.
fn is_separator(c: char) -> bool {
    matches!(c, '-' | 'x' | 'X' | ':' | '×')
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }
    fn next(&mut self) -> Option<char> {
        let c = self.chars.get(self.i).copied()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }
    fn place(&self) -> Place {
        Place {
            line: self.line,
            column: self.column,
        }
    }
    fn error_at<T>(at: Place, message: impl Into<String>) -> Result<T, PdnError> {
        Err(PdnError {
            line: at.line,
            column: at.column,
            message: message.into(),
        })
    }
    fn skip_line(&mut self) {
        while let Some(c) = self.next() {
            if c == '\n' {
                break;
            }
        }
    }
    /// Whether the reader stands at the first character of a line.
    fn at_line_start(&self) -> bool {
        self.column == 1
    }
    /// Whether the rest of the current line, after spaces, starts with `]`.
    fn closes_tag_after(&self, from: usize) -> bool {
        let mut k = from;
        while let Some(&c) = self.chars.get(k) {
            if c == ']' {
                return true;
            }
            if c == '\n' || !c.is_whitespace() {
                return false;
            }
            k += 1;
        }
        false
    }

    /// After an error: on to the start of the next game, the next line beginning with a tag
    /// (`[` and a letter) that follows a blank line or a line of move text.
    fn skip_to_next_game(&mut self) {
        // The rest of the line where the error was found belongs to the bad game; when it is a
        // tag line, so do the tag lines after it.
        let line_start = self.chars[..self.i.min(self.chars.len())]
            .iter()
            .rposition(|&c| c == '\n')
            .map_or(0, |k| k + 1);
        let mut after_text = self.chars[line_start..]
            .iter()
            .find(|c| !c.is_whitespace())
            .is_none_or(|&c| c != '[');
        self.skip_line();
        while self.peek().is_some() {
            let start = self.i;
            let mut k = start;
            while self
                .chars
                .get(k)
                .is_some_and(|&c| c == ' ' || c == '\t' || c == '\u{feff}')
            {
                k += 1;
            }
            let is_tag =
                self.chars.get(k) == Some(&'[') && self.chars.get(k + 1).is_some_and(|c| c.is_alphabetic());
            if is_tag && after_text {
                return;
            }
            let blank = self.chars.get(k).is_none_or(|&c| c == '\n' || c == '\r');
            after_text = !is_tag || blank;
            self.skip_line();
        }
    }

    /// Reads the next game; `None` at the end of the text.
    fn game(&mut self) -> Result<Option<ReadGame>, PdnError> {
        let mut g = ReadGame::default();
        let mut begun = false;
        // The next move follows `N...` or `...`.
        let mut ellipsis = false;
        while let Some(c) = self.peek() {
            let at = self.place();
            match c {
                '%' if self.at_line_start() => self.skip_line(),
                _ if c.is_whitespace() || c == '\u{feff}' => {
                    self.next();
                }
                '[' if self.peek_at(1) == Some('%') => self.skip_command()?,
                '[' => {
                    // A tag after move text starts the next game (a missing result is allowed).
                    if !g.game.moves.is_empty() {
                        return Ok(Some(g));
                    }
                    if !begun {
                        g.start = at;
                        begun = true;
                    }
                    self.next();
                    let tag = self.tag(at)?;
                    g.game.tags.push(tag);
                }
                '{' => self.skip_comment()?,
                ';' => self.skip_line(),
                '(' => self.skip_variation()?,
                ')' | ']' | '}' => {
                    return Reader::error_at(at, format!("unexpected {c:?}"));
                }
                '"' => return Reader::error_at(at, "a quoted string outside a tag"),
                '$' => {
                    self.next();
                    let mut digits = 0;
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.next();
                        digits += 1;
                    }
                    if digits == 0 {
                        return Reader::error_at(at, "'$' without a NAG number");
                    }
                }
                _ => {
                    if !begun {
                        g.start = at;
                        begun = true;
                    }
                    let token = self.token();
                    if RESULTS.contains(&token.as_str()) || MORE_RESULTS.contains(&token.as_str()) {
                        g.game.result = Some(token);
                        return Ok(Some(g));
                    }
                    let (numbered, rest) = strip_number(&token);
                    if rest.is_empty() {
                        ellipsis = numbered.ends_with("..") || numbered == "…";
                        continue;
                    }
                    let mut text = rest.to_string();
                    // `43- 9`: a separator, then spaces, then the square (column-aligned exports).
                    if text.ends_with(is_separator) {
                        self.skip_spaces_on_line();
                        if self.peek().is_some_and(|c| c.is_alphanumeric()) {
                            text += &self.token();
                        }
                    }
                    match move_text(&text) {
                        Some(None) => {} // a move strength standing alone: `32-28 !?`
                        Some(Some(mv)) => {
                            if g.game.moves.is_empty() && ellipsis {
                                g.second_first = true;
                            }
                            ellipsis = false;
                            g.game.moves.push(mv);
                            g.places.push(at);
                        }
                        None => return Reader::error_at(at, format!("not a move: {token:?}")),
                    }
                }
            }
        }
        Ok(begun.then_some(g))
    }

    fn skip_spaces_on_line(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.next();
        }
    }

    /// A move-text token: characters up to the next delimiter.
    fn token(&mut self) -> String {
        let mut token = String::new();
        while let Some(c) = self.peek().filter(|&c| !is_delimiter(c)) {
            token.push(c);
            self.next();
        }
        token
    }

    /// Reads `Name "Value"]` after the opening bracket at `at`.
    fn tag(&mut self, at: Place) -> Result<(String, String), PdnError> {
        self.skip_spaces_on_line();
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|&c| c.is_alphanumeric() || c == '_') {
            name.push(c);
            self.next();
        }
        if name.is_empty() {
            return Reader::error_at(self.place(), "a tag without a name");
        }
        self.skip_spaces_on_line();
        if self.peek() != Some('"') {
            return Reader::error_at(self.place(), format!("tag {name} has no quoted value"));
        }
        self.next();
        let mut value = String::new();
        loop {
            let here = self.place();
            match self.next() {
                None => return Reader::error_at(at, format!("tag {name}: unterminated value")),
                Some('\n') => {
                    return Reader::error_at(here, format!("tag {name}: the value does not end on its line"));
                }
                // A quote ends the value when `]` follows it; otherwise it is a quote inside the
                // value that its writer did not escape, as some files have.
                Some('"') if self.closes_tag_after(self.i) => break,
                Some('\\') => match self.peek() {
                    Some(c @ ('"' | '\\')) => {
                        self.next();
                        value.push(c);
                    }
                    _ => value.push('\\'),
                },
                Some(c) => value.push(c),
            }
        }
        self.skip_spaces_on_line();
        self.next(); // the `]` that `closes_tag_after` found
        Ok((name, value))
    }

    /// Skips a `[%command ...]` (a clock or evaluation tag) outside a comment.
    fn skip_command(&mut self) -> Result<(), PdnError> {
        let start = self.place();
        while let Some(c) = self.next() {
            if c == ']' {
                return Ok(());
            }
        }
        Reader::error_at(start, "unterminated [% command")
    }

    /// Skips a `{...}` comment (comments do not nest).
    fn skip_comment(&mut self) -> Result<(), PdnError> {
        let start = self.place();
        self.next();
        while let Some(c) = self.next() {
            if c == '}' {
                return Ok(());
            }
        }
        Reader::error_at(start, "unterminated comment")
    }

    /// Skips a `(...)` variation with everything nested in it, comments included.
    fn skip_variation(&mut self) -> Result<(), PdnError> {
        let start = self.place();
        self.next();
        let mut depth = 1;
        while depth > 0 {
            match self.peek() {
                None => return Reader::error_at(start, "unterminated variation"),
                Some('{') => self.skip_comment()?,
                Some(';') => self.skip_line(),
                Some(c) => {
                    self.next();
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
}

/// Splits a token into its move number (`12.`, `12...`, or a lone `...`/`…`) and the rest.
fn strip_number(token: &str) -> (&str, &str) {
    if token == "…" || token.chars().all(|c| c == '.') {
        return (token, "");
    }
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && token[digits..].starts_with(['.', '…']) {
        let rest = token[digits..].trim_start_matches(['.', '…']);
        (&token[..token.len() - rest.len()], rest)
    } else {
        ("", token)
    }
}

/// The move in a token once its number is gone: `Some(Some(move))`, `Some(None)` for a move
/// strength alone (`!?`), `None` for what is not a move. Strengths after the move are dropped, a
/// `×` is read as `x`, and an alphanumeric move without separators (`a3b4`, `c3e5g7`) gets `-`
/// between its squares.
fn move_text(token: &str) -> Option<Option<String>> {
    let rest = token.trim_end_matches(['!', '?']);
    if rest.is_empty() {
        return Some(None);
    }
    let rest = rest.replace('×', "x");
    if !rest.chars().all(|c| c.is_ascii_alphanumeric() || is_separator(c))
        || rest.starts_with(is_separator)
        || rest.ends_with(is_separator)
    {
        return None;
    }
    if rest.chars().any(|c| matches!(c, '-' | ':')) || rest.chars().all(|c| c.is_ascii_digit() || c == 'x') {
        // Separated (an `x` between digits separates too), or numeric.
        let numeric_x = rest.contains('x') && rest.chars().all(|c| c.is_ascii_digit() || c == 'x');
        return (numeric_x || rest.chars().any(|c| matches!(c, '-' | ':'))).then_some(Some(rest));
    }
    // Alphanumeric: letter-digits squares, with or without `x` between them.
    let mut squares = Vec::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        if c == 'x' || c == 'X' {
            // `x` between squares, or the file letter x (no board has it).
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return None;
        }
        let mut square = c.to_string();
        while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
            square.push(d);
            chars.next();
        }
        if square.len() < 2 {
            return None;
        }
        squares.push(square);
    }
    let sep = if rest.contains(['x', 'X']) { "x" } else { "-" };
    (squares.len() >= 2).then(|| Some(squares.join(sep)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::parse_games;

    fn games(text: &str) -> Vec<ReadGame> {
        read_games(text)
            .into_iter()
            .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }

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
        for r in RESULTS.iter().chain(&MORE_RESULTS) {
            let games = parse_games(&format!("1. 32-28 19-23 {r} 1. 31-27 {r}")).unwrap();
            assert_eq!(games.len(), 2, "{r}");
            assert_eq!(games[0].result.as_deref(), Some(*r));
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
    fn errors_name_the_line_and_column() {
        let cases = [
            (
                "[Event \"x\"]\n1. 32-28 {never closed",
                2,
                10,
                "unterminated comment",
            ),
            ("\n\n1. 32-28 (19-23", 3, 10, "unterminated variation"),
            ("[Event x]", 1, 8, "no quoted value"),
            ("[Event \"x\"", 1, 1, "unterminated value"),
            ("1. 32-28 )", 1, 10, "unexpected"),
            ("1. 32-28\n  19#23", 2, 3, "not a move"),
            ("1. $ 32-28", 1, 4, "NAG"),
        ];
        for (text, line, column, what) in cases {
            let e = parse_games(text).unwrap_err();
            assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
    }

    #[test]
    fn one_bad_game_is_skipped_and_the_next_ones_read() {
        let text = "[Event \"1\"]\n1. 32-28 19-23 *\n\n[Event \"2\"]\n[Bad x]\n[Round \"2\"]\n\n1. 32-28 #? *\n\n\
                    [Event \"3\"]\n1. 33-28 #? *\n\n[Event \"4\"]\n1. 34-29 *\n";
        let read = read_games(text);
        assert_eq!(read.len(), 4, "{read:?}");
        assert_eq!(read[0].as_ref().unwrap().game.moves, ["32-28", "19-23"]);
        let e = read[1].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (5, 6), "{e}");
        let e = read[2].as_ref().unwrap_err();
        assert_eq!((e.line, e.column), (11, 10), "{e}");
        let last = read[3].as_ref().unwrap();
        assert_eq!(last.game.tag("Event"), Some("4"));
        assert_eq!(last.game.moves, ["34-29"]);
        assert_eq!(last.start, Place { line: 13, column: 1 });
    }

    #[test]
    fn real_file_shapes() {
        // Column-aligned export: a space after the separator, two before a short square.
        let g = &games(" 17. 43-39  1- 6  18. 48-43  6x 17 *")[0];
        assert_eq!(g.game.moves, ["43-39", "1-6", "48-43", "6x17"]);
        assert_eq!(g.places[1], Place { line: 1, column: 13 });
        // A problem book: the first player's move not given.
        let g = &games("[FEN \"B:W40:B35\"]\n1. ... 35-40 2. 40-45 *")[0];
        assert!(g.second_first);
        assert_eq!(g.game.moves, ["35-40", "40-45"]);
        assert!(games("1... 35-40 *")[0].second_first);
        assert!(!games("1. 32-28 *")[0].second_first);
        // Escape lines, a BOM, CRLF, commands and clock comments, strengths apart, unicode.
        let text = "\u{feff}% exported by a program\r\n[White \"Ševčík, Jiří\"]\r\n[Event \"Ch \"Open\" 2019\"]\r\n\
                    1. 32-28 !? {[%clock w0:59:50 b1:00:00]} 19-23 [%eval 0.1] 2. 28×19 ?? 14x23 $1 1-0\r\n";
        let g = &games(text)[0];
        assert_eq!(g.game.tag("White"), Some("Ševčík, Jiří"));
        assert_eq!(g.game.tag("Event"), Some("Ch \"Open\" 2019"));
        assert_eq!(g.game.moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(g.game.result.as_deref(), Some("1-0"));
        assert_eq!(g.start, Place { line: 2, column: 1 });
        // Alphanumeric moves with and without a separator.
        let g = &games("1.a3b4 f6g5 2.b4xf8 h6:f4 3.c3e5g7 *")[0];
        assert_eq!(g.game.moves, ["a3-b4", "f6-g5", "b4xf8", "h6:f4", "c3-e5-g7"]);
    }

    #[test]
    fn the_standards_examples() {
        // PDN 3.0's own example shapes: the seven-tag roster, a GameType with its fields, a
        // setup FEN, nested variations with comments, NAGs and a multi-capture.
        let text = r#"[Event "Wch"]
[Site "Paris"]
[Date "1996.??.??"]
[Round "1"]
[White "Player, A."]
[Black "Player, B."]
[Result "1-1"]
[GameType "20"]

1. 32-28 18-23 2. 37-32 12-18 3. 41-37 (3. 31-27 {or} 7-12 (3... 17-21 $2)) 3... 7-12
4. 46-41 20-24 5. 28x19 14x23 6. 33-28 23x43 7. 48x39 1-1

[Event "Problem"]
[SetUp "1"]
[FEN "W:W27,28,K47:B9,12,13."]
1. 27-22 $1 18x27 2. 47x20x9 2-0
"#;
        let g = games(text);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].game.tag("GameType"), Some("20"));
        assert_eq!(g[0].game.moves.len(), 13);
        assert_eq!(g[0].game.moves[5], "7-12");
        assert_eq!(g[1].game.moves, ["27-22", "18x27", "47x20x9"]);
    }

    #[test]
    fn any_text_reads_without_a_panic_and_errors_point_inside_it() {
        // Texts drawn from PDN's own characters and a few others, by a fixed linear congruential
        // sequence: every one gives games or errors, and every error's place is in the text.
        let alphabet: Vec<char> = "[]{}()\";$%.!?-x:×… \n\r\t\"\\0123456789abcjW?BKEvent\u{feff}é"
            .chars()
            .collect();
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..3000 {
            let mut text = String::new();
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let len = (state >> 33) % 80;
            for _ in 0..len {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                text.push(alphabet[((state >> 33) % alphabet.len() as u64) as usize]);
            }
            let lines = text.lines().count().max(1) + 1;
            for g in read_games(&text) {
                if let Err(e) = g {
                    assert!(e.line >= 1 && e.line <= lines && e.column >= 1, "{text:?}: {e}");
                }
            }
        }
    }

    #[test]
    fn move_tokens() {
        assert_eq!(move_text("32-28!"), Some(Some("32-28".into())));
        assert_eq!(move_text("28x19x10"), Some(Some("28x19x10".into())));
        assert_eq!(move_text("?!"), Some(None));
        assert_eq!(move_text("a3b4"), Some(Some("a3-b4".into())));
        assert_eq!(move_text("c3xe5"), Some(Some("c3xe5".into())));
        assert_eq!(move_text("a10b9"), Some(Some("a10-b9".into())));
        assert_eq!(move_text("3228"), None);
        assert_eq!(move_text("19#23"), None);
        assert_eq!(move_text("-"), None);
        assert_eq!(move_text("ab"), None);
        assert_eq!(strip_number("12...32-28"), ("12...", "32-28"));
        assert_eq!(strip_number("…"), ("…", ""));
        assert_eq!(strip_number("32-28"), ("", "32-28"));
    }
}
