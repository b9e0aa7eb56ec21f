//! `tempo analyze --chart FILE.svg`: each game's evaluation over its moves, one panel per game, in
//! the manner of `tempo show`'s pictures (white background, sans-serif labels, light and dark as
//! the two sides). The curve is White's score after each move, in men, clipped to ±5 (a proven
//! win is drawn at the edge); White's advantage is up. Moves marked `?` get an orange dot, `??` a
//! red one, labelled with the move.

use super::{Marks, MoveReport};
use crate::game::Side;
use crate::pdn::PdnGame;
use crate::search::win_distance;
use std::fmt::Write as _;

/// The score drawn at the top or bottom edge, in hundredths of a man.
const CLIP: i32 = 500;
const PANEL_W: f64 = 760.0;
const PANEL_H: f64 = 220.0;
const LEFT: f64 = 50.0;
const TOP: f64 = 40.0;
const GAP: f64 = 70.0;

/// One game's curve.
#[derive(Clone, Debug)]
pub struct Chart {
    title: String,
    /// White's score after each move (hundredths of a man, clipped), or `None` when unscored.
    points: Vec<Option<i32>>,
    /// Marked moves: ply index, mark, the move with its number.
    marks: Vec<(usize, &'static str, String)>,
}

impl Chart {
    /// The chart of game `number` from its analysis.
    pub fn of(number: usize, game: &PdnGame, reports: &[MoveReport]) -> Chart {
        let tag = |t| {
            game.tag(t)
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .unwrap_or("?")
        };
        let result = game.result.as_deref().or(game.tag("Result")).unwrap_or("*");
        let points = reports
            .iter()
            .map(|r| {
                r.played_score.map(|s| {
                    let s = match win_distance(s) {
                        Some(d) if d > 0 => CLIP,
                        Some(_) => -CLIP,
                        None => s.clamp(-CLIP, CLIP),
                    };
                    if r.side == Side::White { s } else { -s }
                })
            })
            .collect();
        let marks = reports
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.mark.is_empty())
            .map(|(k, r)| (k, r.mark, format!("{}{}{}", r.number, r.played, r.mark)))
            .collect();
        Chart {
            title: format!("Game {number}: {} - {} ({result})", tag("White"), tag("Black")),
            points,
            marks,
        }
    }
}

/// Text made safe for XML.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG picture of the charts, one panel under the other.
pub fn svg(charts: &[Chart], marks: Marks) -> String {
    let width = LEFT + PANEL_W + 30.0;
    let height = charts.len() as f64 * (PANEL_H + GAP) + 40.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(out, "<title>Game evaluation</title>");
    let _ = writeln!(
        out,
        r#"<rect width="{width:.0}" height="{height:.0}" fill="white"/>"#
    );
    for (k, c) in charts.iter().enumerate() {
        panel(&mut out, c, TOP + k as f64 * (PANEL_H + GAP));
    }
    let _ = writeln!(
        out,
        r##"<text x="{LEFT:.0}" y="{:.0}" font-size="12" fill="#444">White's score in men after each move (clipped to ±5); orange: ? (loss from {:.2}), red: ?? (from {:.2})</text>"##,
        height - 14.0,
        f64::from(marks.mistake) / 100.0,
        f64::from(marks.blunder) / 100.0
    );
    out.push_str("</svg>\n");
    out
}

/// One game's panel with its top at `y0`.
fn panel(out: &mut String, c: &Chart, y0: f64) {
    let n = c.points.len().max(2);
    let x = |ply: usize| LEFT + PANEL_W * ply as f64 / (n - 1) as f64;
    let y = |s: i32| y0 + PANEL_H / 2.0 - PANEL_H / 2.0 * f64::from(s) / f64::from(CLIP);
    let _ = writeln!(
        out,
        r#"<text x="{LEFT:.0}" y="{:.0}" font-size="15">{}</text>"#,
        y0 - 12.0,
        xml(&c.title)
    );
    // White's half light, Black's half dark, as the pieces are drawn.
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT:.0}" y="{y0:.0}" width="{PANEL_W:.0}" height="{:.0}" fill="#f4f1ea"/><rect x="{LEFT:.0}" y="{:.0}" width="{PANEL_W:.0}" height="{:.0}" fill="#d9d4c8"/>"##,
        PANEL_H / 2.0,
        y0 + PANEL_H / 2.0,
        PANEL_H / 2.0
    );
    for men in [-4, -2, 0, 2, 4] {
        let yy = y(men * 100);
        let stroke = if men == 0 { "#777" } else { "#bbb" };
        let label = if men == 0 {
            "0".to_string()
        } else {
            format!("{men:+}")
        };
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT:.0}" y1="{yy:.1}" x2="{:.0}" y2="{yy:.1}" stroke="{stroke}" stroke-width="1"/><text x="{:.0}" y="{:.1}" font-size="11" text-anchor="end" fill="#444">{label}</text>"##,
            LEFT + PANEL_W,
            LEFT - 6.0,
            yy + 4.0
        );
    }
    // Move numbers along the bottom, at a round step that gives at most about ten of them.
    let moves = c.points.len().div_ceil(2).max(1);
    let step = [1, 2, 5, 10, 20, 50, 100]
        .into_iter()
        .find(|&s| moves / s <= 10)
        .unwrap_or(200);
    let mut number = 1;
    while 2 * (number - 1) < c.points.len().max(1) {
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.0}" font-size="11" text-anchor="middle" fill="#444">{number}</text>"##,
            x(2 * (number - 1)),
            y0 + PANEL_H + 14.0
        );
        // 1, then the multiples of the step.
        number = if number == 1 && step > 1 {
            step
        } else {
            number + step
        };
    }
    let _ = writeln!(
        out,
        r##"<text x="{:.0}" y="{:.0}" font-size="11" text-anchor="end" fill="#444">move</text>"##,
        LEFT + PANEL_W,
        y0 + PANEL_H + 28.0
    );
    let mut path = String::new();
    for (k, p) in c.points.iter().enumerate() {
        if let Some(s) = p {
            let cmd = if path.is_empty() { 'M' } else { 'L' };
            let _ = write!(path, "{cmd}{:.1},{:.1} ", x(k), y(*s));
        }
    }
    if !path.is_empty() {
        let _ = writeln!(
            out,
            r##"<path d="{}" fill="none" stroke="#252525" stroke-width="2"/>"##,
            path.trim_end()
        );
    }
    for (k, mark, label) in &c.marks {
        let Some(s) = c.points.get(*k).copied().flatten() else {
            continue;
        };
        let colour = if *mark == "??" { "#d02020" } else { "#e08000" };
        let (cx, cy) = (x(*k), y(s));
        // The label on the side of the dot away from the edge it is near, in a white halo.
        let anchor = if cx > LEFT + PANEL_W - 60.0 {
            "end"
        } else if cx < LEFT + 60.0 {
            "start"
        } else {
            "middle"
        };
        // Away from the zero line, where the curve comes from; inside the panel at its edges.
        let ly = if s > 0 { cy - 10.0 } else { cy + 18.0 };
        let ly = if ly < y0 + 12.0 {
            cy + 18.0
        } else if ly > y0 + PANEL_H - 4.0 {
            cy - 10.0
        } else {
            ly
        };
        let _ = writeln!(
            out,
            r##"<circle class="mark" cx="{cx:.1}" cy="{cy:.1}" r="5" fill="{colour}" stroke="#000" stroke-width="0.8"><title>{}</title></circle><text x="{cx:.1}" y="{ly:.1}" font-size="11" text-anchor="{anchor}" fill="{colour}" stroke="white" stroke-width="3" paint-order="stroke">{}</text>"##,
            xml(label),
            xml(label)
        );
    }
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT:.0}" y="{y0:.0}" width="{PANEL_W:.0}" height="{PANEL_H:.0}" fill="none" stroke="#222" stroke-width="1"/>"##
    );
}
