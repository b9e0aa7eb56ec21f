//! Pictures of a position, for `tempo show`: Unicode text for the terminal and an SVG image.
//!
//! Every game describes itself once as a [`Picture`] (through [`Draw`]): its points in numbering
//! order, each with a label, a place on the board and the piece standing there, and the board's
//! layout: a grid of squares, or a graph of points joined by lines (the two odd boards). The two
//! renderers, [`text`] and [`svg`], know only pictures, so they draw every variant the same way.

use crate::bits::Bits;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::Rules;
use crate::draughts::{BitsOf, Draughts};
use crate::game::{Game, Outcome, Side};
use crate::games::graph::{Graph, NONE};
use crate::games::{MuchAdo, Sixteen, muchado, sixteen};
use std::fmt::Write as _;

/// A piece as drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its owner.
    pub side: Side,
    /// A king (or MuchADo's crowned soldier), drawn with a mark.
    pub king: bool,
}

/// One square or point of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    /// Its name in the game's notation: a square number, or a coordinate (`c3`).
    pub label: String,
    /// Place on the board. Square boards: `(column, row)` with column 0 = file a and row 0 = the
    /// top row. Graph boards: lattice coordinates `(a, b)` with `b` growing upwards (see
    /// [`Layout::Graph`]).
    pub at: (i32, i32),
    /// The piece on it.
    pub piece: Option<Piece>,
}

/// The shape of a board.
#[derive(Clone, Debug, PartialEq)]
pub enum Layout {
    /// A `width` x `height` chequered board with a1 dark, White at the bottom.
    Squares {
        /// Columns.
        width: i32,
        /// Rows.
        height: i32,
        /// Every square is a playing square (Turkish, Armenian); otherwise only the dark ones,
        /// which are then labelled with their numbers.
        full: bool,
    },
    /// Points joined by straight lines. A point at lattice `(a, b)` is drawn in text at column
    /// `a * text_step` (one row of text between two rows of points), and in the SVG image at
    /// `(a * scale.0, b * scale.1)` board units.
    Graph {
        /// The lines between neighbouring points, as point indices.
        edges: Vec<(usize, usize)>,
        /// Text columns per lattice step in `a`.
        text_step: i32,
        /// Board units per lattice step in `a` and in `b`.
        scale: (f64, f64),
    },
}

/// Everything a renderer needs to draw a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// The variant's name.
    pub game: &'static str,
    /// The board.
    pub layout: Layout,
    /// Every square or point, in numbering order.
    pub points: Vec<Point>,
    /// The side to move.
    pub side: Side,
    /// Further state worth showing (MuchADo's reserves), one line each.
    pub notes: Vec<String>,
    /// The position as FEN.
    pub fen: String,
    /// The result, when the position alone ends the game.
    pub outcome: Option<Outcome>,
}

/// A game that can describe its position as a [`Picture`].
pub trait Draw: Game {
    /// The picture of this position.
    fn picture(&self) -> Picture;
}

impl<R: Rules> Draw for Draughts<R> {
    fn picture(&self) -> Picture {
        let white: BitsOf<R> = self.pieces(Side::White);
        let black: BitsOf<R> = self.pieces(Side::Black);
        let kings = self.kings();
        let full = R::Board::FULL;
        let height = R::Board::HEIGHT as i32;
        let points = (1..=R::Board::SQUARES)
            .filter_map(|n| {
                let bit = R::Board::bit_of(n)?;
                let (col, row) = R::Board::coords(bit);
                let side = if white.has(bit) {
                    Some(Side::White)
                } else if black.has(bit) {
                    Some(Side::Black)
                } else {
                    None
                };
                // The full boards write squares algebraically; the others are known by number.
                let label = if full {
                    format!("{}{}", char::from(b'a' + col as u8), height - row as i32)
                } else {
                    n.to_string()
                };
                Some(Point {
                    label,
                    at: (col as i32, row as i32),
                    piece: side.map(|side| Piece {
                        side,
                        king: kings.has(bit),
                    }),
                })
            })
            .collect();
        Picture {
            game: R::NAME,
            layout: Layout::Squares {
                width: R::Board::WIDTH as i32,
                height,
                full,
            },
            points,
            side: self.side_to_move(),
            notes: Vec::new(),
            fen: self.to_fen(),
            outcome: self.outcome(),
        }
    }
}

/// Every line between neighbouring points of a board graph, each once.
fn graph_edges(g: &Graph) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for p in 0..g.len {
        for d in 0..g.dirs {
            let q = g.next[p][d];
            if q != NONE && usize::from(q) > p {
                edges.push((p, usize::from(q)));
            }
        }
    }
    edges
}

/// The piece on bit `p` of the two side sets and the king set.
fn piece_at(p: usize, white: u64, black: u64, kings: u64) -> Option<Piece> {
    let bit = 1u64 << p;
    let side = if white & bit != 0 {
        Side::White
    } else if black & bit != 0 {
        Side::Black
    } else {
        return None;
    };
    Some(Piece {
        side,
        king: kings & bit != 0,
    })
}

impl Draw for Sixteen {
    fn picture(&self) -> Picture {
        let g = &sixteen::BOARD;
        let (white, black) = (self.pieces(Side::White), self.pieces(Side::Black));
        let points = (0..g.len)
            .map(|p| {
                let (x, y) = g.coords[p];
                Point {
                    label: sixteen::point_name(p as u32),
                    at: (i32::from(x), i32::from(y)),
                    piece: piece_at(p, white, black, 0),
                }
            })
            .collect();
        Picture {
            game: Self::NAME,
            // The drawing is a unit grid: the square's points one step apart, the triangles' bases
            // two.
            layout: Layout::Graph {
                edges: graph_edges(g),
                text_step: 4,
                scale: (1.0, 1.0),
            },
            points,
            side: self.side_to_move(),
            notes: Vec::new(),
            fen: self.to_fen(),
            outcome: self.outcome(),
        }
    }
}

impl Draw for MuchAdo {
    fn picture(&self) -> Picture {
        let g = &muchado::BOARD;
        let (white, black) = (self.pieces(Side::White), self.pieces(Side::Black));
        let kings = self.kings();
        let points = (0..g.len)
            .map(|p| {
                // Cell (file f, rank r); each rank sits half a cell left of the one below, so in
                // half-cell units the cell is at a = 2f - r.
                let (f, r) = g.coords[p];
                Point {
                    label: muchado::cell_name(p as u32),
                    at: (2 * i32::from(f) - i32::from(r), i32::from(r)),
                    piece: piece_at(p, white, black, kings),
                }
            })
            .collect();
        Picture {
            game: Self::NAME,
            layout: Layout::Graph {
                edges: graph_edges(g),
                text_step: 2,
                // Half a cell across; rows of a hexagonal grid are sqrt(3)/2 cells apart.
                scale: (0.5, 3f64.sqrt() / 2.0),
            },
            points,
            side: self.side_to_move(),
            notes: vec![format!(
                "Reserve: White {}, Black {}",
                self.reserve(Side::White),
                self.reserve(Side::Black)
            )],
            fen: self.to_fen(),
            outcome: self.outcome(),
        }
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// The status line under a drawing: who is to move, or how the game ended.
fn status(p: &Picture) -> String {
    match p.outcome {
        Some(Outcome::Win(s)) => format!("Game over: {} wins", side_name(s)),
        Some(Outcome::Draw) => "Game over: draw".to_string(),
        None => format!("{} to move", side_name(p.side)),
    }
}

/// The glyph of a piece: men are discs, kings crowned.
fn glyph(piece: Piece) -> char {
    match (piece.side, piece.king) {
        (Side::White, false) => '○',
        (Side::White, true) => '♔',
        (Side::Black, false) => '●',
        (Side::Black, true) => '♚',
    }
}

/// The Unicode drawing of a position: the board with White at the bottom, then who is to move,
/// any further state, the FEN and a key to the glyphs.
///
/// Square boards show each empty dark square's number (or a dot on the full boards, whose squares
/// are named by the coordinates along the edges) and, right of each row, the numbers of its
/// squares. Graph boards show points as dots joined by their lines, the rank left of each row and
/// the names of the row's first and last point right of it.
pub fn text(p: &Picture) -> String {
    let mut out = match &p.layout {
        Layout::Squares { width, height, full } => squares_text(p, *width, *height, *full),
        Layout::Graph { edges, text_step, .. } => graph_text(p, edges, *text_step),
    };
    out.push('\n');
    let _ = writeln!(out, "{}", status(p));
    for n in &p.notes {
        let _ = writeln!(out, "{n}");
    }
    let _ = writeln!(out, "FEN: {}", p.fen);
    let _ = writeln!(out, "○ White man  ♔ White king  ● Black man  ♚ Black king");
    out
}

fn squares_text(p: &Picture, width: i32, height: i32, full: bool) -> String {
    // One text cell of three characters per square.
    let mut grid = vec![vec!["   ".to_string(); width as usize]; height as usize];
    let mut row_labels: Vec<Vec<&str>> = vec![Vec::new(); height as usize];
    for pt in &p.points {
        let (c, r) = (pt.at.0 as usize, pt.at.1 as usize);
        let cell = match pt.piece {
            Some(piece) => format!(" {} ", glyph(piece)),
            None if full => " · ".to_string(),
            None => format!("{:>2} ", pt.label),
        };
        grid[r][c] = cell;
        row_labels[r].push(&pt.label);
    }
    let files: String = (0..width)
        .map(|c| format!(" {} ", char::from(b'a' + c as u8)))
        .collect::<String>()
        .trim_end()
        .to_string();
    let rule = "─".repeat(3 * width as usize);
    let mut out = String::new();
    let _ = writeln!(out, "    {files}");
    let _ = writeln!(out, "   ┌{rule}┐");
    for (r, row) in grid.iter().enumerate() {
        let rank = height - r as i32;
        let key = if full {
            String::new()
        } else {
            match (row_labels[r].first(), row_labels[r].last()) {
                (Some(a), Some(b)) => format!("  {a}-{b}"),
                _ => String::new(),
            }
        };
        let _ = writeln!(out, "{rank:>2} │{}│{key}", row.concat());
    }
    let _ = writeln!(out, "   └{rule}┘");
    let _ = writeln!(out, "    {files}");
    out
}

fn graph_text(p: &Picture, edges: &[(usize, usize)], step: i32) -> String {
    let min_a = p.points.iter().map(|q| q.at.0).min().unwrap_or(0);
    let max_a = p.points.iter().map(|q| q.at.0).max().unwrap_or(0);
    let max_b = p.points.iter().map(|q| q.at.1).max().unwrap_or(0);
    let min_b = p.points.iter().map(|q| q.at.1).min().unwrap_or(0);
    let cols = (step * (max_a - min_a) + 1) as usize;
    let rows = (2 * (max_b - min_b) + 1) as usize;
    let place = |at: (i32, i32)| ((step * (at.0 - min_a)) as usize, (2 * (max_b - at.1)) as usize);
    let mut grid = vec![vec![' '; cols]; rows];
    for &(a, b) in edges {
        let (c1, r1) = place(p.points[a].at);
        let (c2, r2) = place(p.points[b].at);
        let (c1, r1, dc, dr) = (c1 as i32, r1 as i32, c2 as i32 - c1 as i32, r2 as i32 - r1 as i32);
        // Rows and columns fill every character between their points; a diagonal puts one
        // character on each text row between its points' rows.
        let (n, ch) = if dr == 0 {
            (dc.abs(), '─')
        } else if dc == 0 {
            (dr.abs(), '│')
        } else if (dc > 0) == (dr < 0) {
            (dr.abs(), '╱')
        } else {
            (dr.abs(), '╲')
        };
        for k in 1..n {
            let cell = &mut grid[(r1 + dr * k / n) as usize][(c1 + dc * k / n) as usize];
            // Lines cross only between points, where two diagonals meet.
            *cell = match (*cell, ch) {
                ('╱', '╲') | ('╲', '╱') => '╳',
                _ => ch,
            };
        }
    }
    let mut row_points: Vec<Vec<&Point>> = vec![Vec::new(); rows];
    for pt in &p.points {
        let (c, r) = place(pt.at);
        grid[r][c] = pt.piece.map_or('·', glyph);
        row_points[r].push(pt);
    }
    let mut out = String::new();
    for (r, line) in grid.iter().enumerate() {
        let line: String = line.iter().collect();
        let pts = &row_points[r];
        let (rank, key) = match (pts.first(), pts.last()) {
            (Some(a), Some(b)) => (
                a.label.get(1..).unwrap_or("").to_string(),
                format!("   {}-{}", a.label, b.label),
            ),
            _ => (String::new(), String::new()),
        };
        let _ = writeln!(out, "{rank:>2}  {line}{key}");
    }
    out
}

/// The plain ASCII form of a [`text`] drawing, for terminals without the glyphs.
pub fn ascii(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '─' => '-',
            '│' => '|',
            '┌' | '┐' | '└' | '┘' => '+',
            '╱' => '/',
            '╲' => '\\',
            '╳' => 'X',
            '·' => '.',
            '○' => 'w',
            '♔' => 'W',
            '●' => 'b',
            '♚' => 'B',
            c => c,
        })
        .collect()
}

/// Escapes text for XML.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// Pixels per square (square boards) or per board unit (graph boards).
const UNIT: f64 = 48.0;
/// Room around the board for coordinates and the status line.
const MARGIN: f64 = 28.0;
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b07d4f";
const LINE: &str = "#5a3d24";

/// One piece: a disc, with an inner ring when it is a king. Each piece is one `<g>` element of
/// class `piece` (and `white`/`black`, `man`/`king`), so scripts can count them.
fn svg_piece(out: &mut String, piece: Piece, x: f64, y: f64, r: f64) {
    let (class, fill, stroke) = match piece.side {
        Side::White => ("white", "#fbfbf8", "#222"),
        Side::Black => ("black", "#252525", "#000"),
    };
    let kind = if piece.king { "king" } else { "man" };
    let _ = write!(
        out,
        r#"<g class="piece {class} {kind}"><circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#
    );
    if piece.king {
        let ring = if piece.side == Side::White {
            "#c08a20"
        } else {
            "#e0b040"
        };
        let _ = write!(
            out,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="{ring}" stroke-width="3"/>"#,
            r * 0.5
        );
    }
    out.push_str("</g>\n");
}

/// The SVG image of a position: square boards with their dark squares numbered (or, on the full
/// boards, coordinates only), graph boards as points joined by their lines with each point named;
/// pieces as discs, kings with a gold ring; the side to move (or the result) and any further state
/// under the board.
pub fn svg(p: &Picture) -> String {
    let mut body = String::new();
    let (w, h) = match &p.layout {
        Layout::Squares { width, height, full } => svg_squares(&mut body, p, *width, *height, *full),
        Layout::Graph { edges, scale, .. } => svg_graph(&mut body, p, edges, *scale),
    };
    let lines: Vec<String> = std::iter::once(status(p))
        .chain(p.notes.iter().cloned())
        .collect();
    let total_h = h + 2.0 * MARGIN + 18.0 * lines.len() as f64 + 10.0;
    let total_w = w + 2.0 * MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0}" height="{total_h:.0}" viewBox="0 0 {total_w:.0} {total_h:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(out, "<title>{} {}</title>", xml(p.game), xml(&p.fen));
    let _ = writeln!(
        out,
        r#"<rect width="{total_w:.0}" height="{total_h:.0}" fill="white"/>"#
    );
    out.push_str(&body);
    for (i, l) in lines.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text x="{MARGIN:.0}" y="{:.0}" font-size="14">{}</text>"#,
            h + 2.0 * MARGIN + 18.0 * i as f64 + 14.0,
            xml(l)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Draws a square board into `out`; returns the board's size in pixels.
fn svg_squares(out: &mut String, p: &Picture, width: i32, height: i32, full: bool) -> (f64, f64) {
    let (w, h) = (f64::from(width) * UNIT, f64::from(height) * UNIT);
    // The playing squares are the dark ones (on the mirrored boards too, wherever they lie).
    let playing: std::collections::HashSet<(i32, i32)> = p.points.iter().map(|q| q.at).collect();
    for r in 0..height {
        for c in 0..width {
            let fill = if playing.contains(&(c, r)) { DARK } else { LIGHT };
            let _ = writeln!(
                out,
                r#"<rect x="{:.0}" y="{:.0}" width="{UNIT:.0}" height="{UNIT:.0}" fill="{fill}"/>"#,
                MARGIN + f64::from(c) * UNIT,
                MARGIN + f64::from(r) * UNIT
            );
        }
    }
    for pt in &p.points {
        let (x, y) = (
            MARGIN + f64::from(pt.at.0) * UNIT,
            MARGIN + f64::from(pt.at.1) * UNIT,
        );
        if !full {
            let _ = writeln!(
                out,
                r##"<text x="{:.1}" y="{:.1}" font-size="10" fill="#f8f0e0">{}</text>"##,
                x + 3.0,
                y + 11.0,
                xml(&pt.label)
            );
        }
        if let Some(piece) = pt.piece {
            svg_piece(out, piece, x + UNIT / 2.0, y + UNIT / 2.0, UNIT * 0.38);
        }
    }
    let _ = writeln!(
        out,
        r#"<rect x="{MARGIN:.0}" y="{MARGIN:.0}" width="{w:.0}" height="{h:.0}" fill="none" stroke="{LINE}" stroke-width="2"/>"#
    );
    for c in 0..width {
        let x = MARGIN + (f64::from(c) + 0.5) * UNIT;
        for y in [MARGIN - 9.0, MARGIN + h + 19.0] {
            let _ = writeln!(
                out,
                r#"<text x="{x:.1}" y="{y:.1}" font-size="12" text-anchor="middle">{}</text>"#,
                char::from(b'a' + c as u8)
            );
        }
    }
    for r in 0..height {
        let y = MARGIN + (f64::from(r) + 0.5) * UNIT + 4.0;
        for (x, anchor) in [(MARGIN - 6.0, "end"), (MARGIN + w + 6.0, "start")] {
            let _ = writeln!(
                out,
                r#"<text x="{x:.1}" y="{y:.1}" font-size="12" text-anchor="{anchor}">{}</text>"#,
                height - r
            );
        }
    }
    (w, h)
}

/// Draws a graph board into `out`; returns the board's size in pixels.
fn svg_graph(out: &mut String, p: &Picture, edges: &[(usize, usize)], scale: (f64, f64)) -> (f64, f64) {
    let xs = p.points.iter().map(|q| f64::from(q.at.0) * scale.0);
    let ys = p.points.iter().map(|q| f64::from(q.at.1) * scale.1);
    let (min_x, max_x) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let (min_y, max_y) = ys.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
    // Half a unit of room round the outermost points for the pieces.
    let pad = 0.5 * UNIT;
    let place = |at: (i32, i32)| {
        (
            MARGIN + pad + (f64::from(at.0) * scale.0 - min_x) * UNIT,
            MARGIN + pad + (max_y - f64::from(at.1) * scale.1) * UNIT,
        )
    };
    for &(a, b) in edges {
        let ((x1, y1), (x2, y2)) = (place(p.points[a].at), place(p.points[b].at));
        let _ = writeln!(
            out,
            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{LINE}" stroke-width="2"/>"#
        );
    }
    for pt in &p.points {
        let (x, y) = place(pt.at);
        let _ = writeln!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="{LINE}"/>"#);
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" font-size="10" fill="#7a5a3a">{}</text>"##,
            // Up and right of the point, clear of a piece standing on it.
            x + 0.34 * UNIT,
            y - 0.3 * UNIT,
            xml(&pt.label)
        );
        if let Some(piece) = pt.piece {
            svg_piece(out, piece, x, y, UNIT * 0.3);
        }
    }
    (
        (max_x - min_x) * UNIT + 2.0 * pad,
        (max_y - min_y) * UNIT + 2.0 * pad,
    )
}

/// The options of `tempo show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// Variant (see `tempo perft --help` for the names).
    #[arg(long, short, default_value = "international")]
    pub variant: crate::variant::Variant,
    /// Position as PDN FEN (default: the variant's initial position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Also write the position as an SVG image to this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    /// Draw with plain ASCII characters: `w`/`b` men, `W`/`B` kings, `.` empty points.
    #[arg(long)]
    pub ascii: bool,
}

/// Runs `tempo show` for the game `G`: prints the drawing and writes the SVG file if asked.
///
/// # Errors
/// A bad FEN, or an SVG file that cannot be written.
pub fn run<G: Draw>(args: &ShowArgs) -> Result<(), String> {
    let pos = match &args.fen {
        Some(f) => G::from_fen(f).map_err(|e| format!("bad FEN {f:?}: {e}"))?,
        None => G::start(),
    };
    let picture = pos.picture();
    let drawing = text(&picture);
    let drawing = if args.ascii { ascii(&drawing) } else { drawing };
    // A closed output (`| head`) ends the command quietly, as every command does.
    std::io::Write::write_all(&mut std::io::stdout(), drawing.as_bytes())
        .map_err(crate::output::output_error)?;
    if let Some(path) = &args.svg {
        std::fs::write(path, svg(&picture)).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
