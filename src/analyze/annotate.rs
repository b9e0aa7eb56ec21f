//! `tempo analyze --annotate OUT.pdn`: the games written back as PDN with the analysis, for a
//! player or a GUI to read. Each analysed move gets its score and depth as a comment (`{+0.35/10}`,
//! `{book +0.01}`), a marked move its `?` or `??`, and the better line as a variation after it
//! (`(12. 31-27 {+1.20/10} 22x31 13. 36x27)`). Tags are kept as the file gave them, with an
//! `Annotator` tag, and a `GameType` tag when the file had none, so that a GUI reads the variant
//! analysed; moves after a rule ended the game are kept without analysis. Captures are written
//! with `x`, as PDN writes them (`d4xf6` where Russian notation writes `d4:f6`).

use super::{MoveReport, move_number, score_text};
use crate::game::Game;
use crate::pdn::PdnGame;

/// A comment's text: braces cannot be escaped in PDN, so they become parentheses.
fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('{', "(").replace('}', ")"))
}

/// The score comment of a report: `+0.35/10`, `win in 3/12`, `book +0.01`.
fn score_comment(r: &MoveReport) -> Option<String> {
    let score = r.played_score.map(score_text)?;
    Some(if r.book {
        comment(&format!("book {score}"))
    } else {
        comment(&format!("{score}/{}", r.depth))
    })
}

/// A move as PDN writes it: captures with `x`.
fn pdn_move(text: &str) -> String {
    text.replace(':', "x")
}

/// One game with its analysis as PDN text, ending with a blank line. `start` is the game's start
/// position in the variant analysed (for the move numbers); `reports` the analysis of its first
/// moves (all of them, unless a rule ended the game earlier); `game_type` the variant's `GameType`,
/// written when the game has none.
pub fn game_text<G: Game>(
    game: &PdnGame,
    start: &G,
    reports: &[MoveReport],
    game_type: Option<&str>,
) -> String {
    let mut out = String::new();
    let mut annotated = false;
    for (name, value) in &game.tags {
        if name == "Annotator" {
            annotated = true;
            out += &format!("[Annotator {}]\n", crate::pdn::quote("Tempo"));
        } else {
            out += &format!("[{name} {}]\n", crate::pdn::quote(value));
        }
    }
    if let Some(t) = game_type.filter(|_| game.tag("GameType").is_none()) {
        out += &format!("[GameType {}]\n", crate::pdn::quote(t));
    }
    if !annotated {
        out += &format!("[Annotator {}]\n", crate::pdn::quote("Tempo"));
    }
    out.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    // Whether the next move needs its number: the first move, a move of the player who moves
    // first, or a move after a comment's variation.
    let mut renumber = true;
    for (ply, text) in game.moves.iter().enumerate() {
        let number = move_number(start, ply);
        let first_player = !number.ends_with("...");
        if first_player || renumber {
            tokens.push(number.clone());
        }
        renumber = false;
        let Some(r) = reports.get(ply) else {
            tokens.push(pdn_move(text));
            continue;
        };
        tokens.push(format!("{}{}", pdn_move(&r.played), r.mark));
        if let Some(c) = score_comment(r) {
            tokens.push(c);
        }
        if !r.mark.is_empty() && r.best != r.played {
            tokens.extend(variation(&number, r));
            renumber = true;
        }
    }
    tokens.push(
        game.result
            .clone()
            .or_else(|| game.tag("Result").map(str::to_string))
            .unwrap_or_else(|| "*".to_string()),
    );
    out += &crate::pdn::wrap_move_text(&tokens);
    out
}

/// The better line after a marked move, as a PDN variation numbered from the move's `number`.
fn variation(number: &str, r: &MoveReport) -> Vec<String> {
    let n: usize = number.trim_end_matches('.').parse().unwrap_or(1);
    // The line alternates from the mover: count plies from the move's own half-move.
    let first_half = 2 * (n - 1) + usize::from(number.ends_with("..."));
    let mut tokens = vec![format!("({number}")];
    for (k, mv) in r.best_line.iter().enumerate() {
        let half = first_half + k;
        if k > 0 && half % 2 == 0 {
            tokens.push(format!("{}.", half / 2 + 1));
        }
        tokens.push(pdn_move(mv));
        if k == 0 {
            if let Some(s) = r.best_score {
                tokens.push(comment(&format!("{}/{}", score_text(s), r.depth)));
            }
        }
    }
    if let Some(last) = tokens.last_mut() {
        last.push(')');
    }
    tokens
}
