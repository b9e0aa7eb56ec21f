//! The self-play file format: how a game block is written, and how an existing file is read back
//! to resume a run.
//!
//! A file is plain text, one record per line:
//!
//! ```text
//! # tempo selfplay variant=international depth=6 nodes=none random-plies=8 max-plies=400 seed=1 shard=0/1
//! <FEN>\t<score>\t<result>
//! ...
//! # game <k> result <result> plies <p>: <why the game ended>
//! ```
//!
//! The first line (the header) names the settings that decide the games, so that a resumed run
//! cannot silently mix data of other settings. Then come game blocks: the positions of game `k`,
//! each with the search score for the side to move (hundredths of a man) and the game's result
//! for White (`1`, `0.5`, `0`), and a closing `# game k` line. A block is written with one write
//! and counts as finished only with its closing line; anything after the last closing line is a
//! block cut off by a stopped run and is dropped on resume.

use crate::game::{Outcome, Side};
use std::collections::BTreeSet;
use std::io::BufRead;

/// The result of a game for White, as the format writes it.
pub fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Side::White) => "1",
        Outcome::Win(Side::Black) => "0",
        Outcome::Draw => "0.5",
    }
}

/// One recorded position: its FEN and the search score for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position as PDN FEN.
    pub fen: String,
    /// The search score in hundredths of a man for the side to move.
    pub score: i32,
}

/// A game's block: its positions, one line each, then the closing line.
pub fn block(index: u64, samples: &[Sample], outcome: Outcome, plies: usize, why: &str) -> String {
    let result = result_text(outcome);
    let mut text = String::new();
    for s in samples {
        text.push_str(&format!("{}\t{}\t{result}\n", s.fen, s.score));
    }
    text.push_str(&format!("# game {index} result {result} plies {plies}: {why}\n"));
    text
}

/// The longest line of a self-play file: a position line is a FEN (a few hundred bytes on the
/// largest boards), a score and a result, so a longer line is not self-play data (and a file
/// without newlines, such as `/dev/zero`, must not be read whole).
pub const MAX_LINE: usize = 64 << 10;

/// The most games a self-play run plays (`--games`): game indices are below it.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// The game index of a closing line (`# game <k> ...`), if `line` is one.
pub fn game_index(line: &str) -> Option<u64> {
    game_line(line)?.ok()
}

/// The game index of a closing line (`# game <k> ...`): `None` if `line` is not one, an error if
/// it is one whose index is not a whole number below [`MAX_GAMES`] (an edited line: taken for a
/// comment, it would leave its game unfinished, to be played again beside its block).
pub fn game_line(line: &str) -> Option<Result<u64, String>> {
    let rest = line.strip_prefix("# game ")?;
    let word = rest.split_whitespace().next().unwrap_or("");
    Some(match word.parse::<u64>() {
        Ok(k) if k < MAX_GAMES => Ok(k),
        _ => {
            let word = match word.char_indices().nth(80) {
                Some((at, _)) => format!("{:?}...", &word[..at]),
                None => format!("{word:?}"),
            };
            Err(format!(
                "bad game line: game number {word} is not a whole number from 0 to {}",
                MAX_GAMES - 1
            ))
        }
    })
}

/// Checks a position line: three tab-separated fields, an integer score and a result.
fn check_sample(line: &str) -> Result<(), String> {
    let fields: Vec<&str> = line.split('\t').collect();
    match fields.as_slice() {
        [fen, score, result]
            if !fen.is_empty() && score.parse::<i32>().is_ok() && ["1", "0.5", "0"].contains(result) =>
        {
            Ok(())
        }
        _ => Err("not a position line (FEN, score and result separated by tabs)".into()),
    }
}

/// What an existing file already holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Existing {
    /// Indices of the finished games.
    pub done: BTreeSet<u64>,
    /// Position lines in the finished games.
    pub positions: u64,
    /// Length in bytes of the finished part (header and whole blocks); the file is cut there.
    pub keep: u64,
    /// Whether the file has the header (an empty file does not).
    pub has_header: bool,
}

/// Reads a self-play file written with `header` and shard `shard` (index, count).
///
/// # Errors
/// The file was written with other settings (another header), a line is neither a position nor a
/// comment, a game appears twice or belongs to another shard, or the file cannot be read.
pub fn scan(reader: impl BufRead, header: &str, shard: (u64, u64)) -> Result<Existing, String> {
    let mut reader = reader;
    let mut existing = Existing::default();
    let mut offset = 0u64;
    let mut pending = 0u64;
    let mut line = Vec::new();
    let mut number = 0usize;
    loop {
        line.clear();
        let n = crate::fsutil::read_line_bounded(&mut reader, &mut line, MAX_LINE)
            .map_err(|e| format!("line {}: {e}", number + 1))?;
        if n == 0 {
            break;
        }
        number += 1;
        offset += n as u64;
        if line.last() != Some(&b'\n') {
            // The last line was cut off in the middle: part of an unfinished block.
            break;
        }
        let text = std::str::from_utf8(&line[..n - 1])
            .map_err(|_| format!("line {number}: not UTF-8 text"))?
            .trim_end_matches('\r');
        if number == 1 {
            if text != header {
                return Err(format!(
                    "it was written with other settings:\n  file: {text}\n  now:  {header}\n\
                     (resume with the same settings, or write to another file)"
                ));
            }
            existing.has_header = true;
            existing.keep = offset;
            continue;
        }
        if let Some(k) = game_line(text) {
            let k = k.map_err(|e| format!("line {number}: {e}"))?;
            if k % shard.1 != shard.0 {
                return Err(format!(
                    "line {number}: game {k} does not belong to shard {}/{}",
                    shard.0, shard.1
                ));
            }
            if !existing.done.insert(k) {
                return Err(format!("line {number}: game {k} appears twice"));
            }
            existing.positions += pending;
            pending = 0;
            existing.keep = offset;
        } else if text.starts_with('#') {
            // Other comments are left alone.
        } else {
            check_sample(text).map_err(|e| format!("line {number}: {e}"))?;
            pending += 1;
        }
    }
    Ok(existing)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "# tempo selfplay variant=english depth=2";

    fn sample(fen: &str, score: i32) -> Sample {
        Sample {
            fen: fen.into(),
            score,
        }
    }

    #[test]
    fn blocks_are_read_back() {
        let b0 = block(
            0,
            &[sample("W:W21:B1", 12), sample("B:W21:B1", -3)],
            Outcome::Draw,
            9,
            "x",
        );
        let b2 = block(2, &[], Outcome::Win(Side::Black), 4, "y");
        assert!(b0.starts_with("W:W21:B1\t12\t0.5\nB:W21:B1\t-3\t0.5\n# game 0 result 0.5 plies 9"));
        let text = format!("{HEADER}\n{b0}{b2}");
        let e = scan(text.as_bytes(), HEADER, (0, 2)).unwrap();
        assert_eq!(e.done, BTreeSet::from([0, 2]));
        assert_eq!(e.positions, 2);
        assert_eq!(e.keep, text.len() as u64);
        assert!(e.has_header);
    }

    #[test]
    fn an_unfinished_block_is_dropped() {
        let whole = format!(
            "{HEADER}\n{}",
            block(1, &[sample("W:W21:B1", 5)], Outcome::Draw, 3, "z")
        );
        for tail in ["W:W22:B1\t4\t1\n", "W:W22:B1\t4"] {
            let text = format!("{whole}{tail}");
            let e = scan(text.as_bytes(), HEADER, (0, 1)).unwrap();
            assert_eq!(e.keep, whole.len() as u64, "{tail:?}");
            assert_eq!(e.positions, 1);
            assert_eq!(e.done, BTreeSet::from([1]));
        }
        let e = scan(&b""[..], HEADER, (0, 1)).unwrap();
        assert!(!e.has_header && e.done.is_empty() && e.keep == 0);
    }

    #[test]
    fn foreign_files_are_refused() {
        let other = "# tempo selfplay variant=english depth=3\n";
        assert!(
            scan(other.as_bytes(), HEADER, (0, 1))
                .unwrap_err()
                .contains("other settings")
        );
        let wrong_shard = format!("{HEADER}\n{}", block(1, &[], Outcome::Draw, 3, "z"));
        assert!(
            scan(wrong_shard.as_bytes(), HEADER, (0, 2))
                .unwrap_err()
                .contains("shard 0/2")
        );
        let twice = format!("{wrong_shard}{}", block(1, &[], Outcome::Draw, 3, "z"));
        assert!(
            scan(twice.as_bytes(), HEADER, (0, 1))
                .unwrap_err()
                .contains("twice")
        );
        let junk = format!("{HEADER}\nhello\n");
        assert!(
            scan(junk.as_bytes(), HEADER, (0, 1))
                .unwrap_err()
                .contains("line 2")
        );
        let bad_result = format!("{HEADER}\nW:W21:B1\t3\t2\n");
        assert!(scan(bad_result.as_bytes(), HEADER, (0, 1)).is_err());
    }
}
