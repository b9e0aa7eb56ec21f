//! A deliberately simple Sixteen Soldiers, written straight from rules.md §4 and D-S1..D-S5 with
//! maps and vectors, sharing no code with `src/games`: the reference the fast generator is compared
//! with. Positions are read and written in the FEN of `docs/odd-boards.md`; moves are written in the
//! Hub style of that document.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

type P = (i8, i8);

/// The 37 points of §4.2: the 5x5 square, the bottom triangle, the top triangle.
pub fn points() -> Vec<P> {
    let mut v = Vec::new();
    for x in 0..5 {
        for y in 0..5 {
            v.push((x, y));
        }
    }
    v.extend([(1, -1), (2, -1), (3, -1), (0, -2), (2, -2), (4, -2)]);
    v.extend([(1, 5), (2, 5), (3, 5), (0, 6), (2, 6), (4, 6)]);
    v
}

/// The 76 edges of §4.2, as written there.
pub fn edges() -> BTreeSet<(P, P)> {
    let mut e = BTreeSet::new();
    let mut add = |a: P, b: P| {
        e.insert((a, b));
        e.insert((b, a));
    };
    for x in 0..5i8 {
        for y in 0..5i8 {
            if x < 4 {
                add((x, y), (x + 1, y));
            }
            if y < 4 {
                add((x, y), (x, y + 1));
            }
            // Diagonals in each unit cell from the corner with x+y even.
            if (x + y) % 2 == 0 {
                for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                    let (u, v) = (x + dx, y + dy);
                    if (0..5).contains(&u) && (0..5).contains(&v) {
                        add((x, y), (u, v));
                    }
                }
            }
        }
    }
    for s in [1i8, -1] {
        // Bottom triangle (s = 1) and its mirror image, the top one (y -> 4 - y).
        let m = |p: P| if s == 1 { p } else { (p.0, 4 - p.1) };
        for (a, b) in [
            ((2, 0), (1, -1)),
            ((2, 0), (2, -1)),
            ((2, 0), (3, -1)),
            ((1, -1), (2, -1)),
            ((2, -1), (3, -1)),
            ((1, -1), (0, -2)),
            ((2, -1), (2, -2)),
            ((3, -1), (4, -2)),
            ((0, -2), (2, -2)),
            ((2, -2), (4, -2)),
        ] {
            add(m(a), m(b));
        }
    }
    e
}

/// Name of a point: file a-e from x, rank y + 3.
pub fn name(p: P) -> String {
    format!("{}{}", (b'a' + p.0 as u8) as char, p.1 + 3)
}

fn parse_name(s: &str) -> P {
    let b = s.as_bytes();
    ((b[0] - b'a') as i8, (b[1] - b'0') as i8 - 3)
}

/// Points in notation order: by rank, then file.
fn order(p: &P) -> (i8, i8) {
    (p.1, p.0)
}

#[derive(Clone, Debug)]
pub struct Pos {
    pub board: BTreeMap<P, char>,
    pub side: char,
    pub quiet: u32,
    pub huffable: BTreeSet<P>,
    pub huffing: bool,
}

fn list(ps: impl Iterator<Item = P>) -> String {
    let mut v: Vec<P> = ps.collect();
    v.sort_by_key(order);
    v.iter().map(|&p| name(p)).collect::<Vec<_>>().join(",")
}

impl Pos {
    pub fn from_fen(fen: &str, huffing: bool) -> Pos {
        let mut f = fen.split(':');
        let side = f.next().unwrap().chars().next().unwrap();
        let mut p = Pos {
            board: BTreeMap::new(),
            side,
            quiet: 0,
            huffable: BTreeSet::new(),
            huffing,
        };
        for field in f {
            let (tag, rest) = field.split_at(1);
            let pts = rest.split(',').filter(|s| !s.is_empty());
            match tag {
                "W" => pts.for_each(|s| {
                    p.board.insert(parse_name(s), 'W');
                }),
                "B" => pts.for_each(|s| {
                    p.board.insert(parse_name(s), 'B');
                }),
                "H" => p.quiet = rest.parse().unwrap(),
                "X" => p.huffable = pts.map(parse_name).collect(),
                _ => panic!("field {field}"),
            }
        }
        p
    }

    pub fn fen(&self) -> String {
        let of = |c: char| list(self.board.iter().filter(|(_, v)| **v == c).map(|(k, _)| *k));
        let mut s = format!("{}:W{}:B{}", self.side, of('W'), of('B'));
        if self.quiet > 0 {
            s += &format!(":H{}", self.quiet);
        }
        if !self.huffable.is_empty() {
            s += &format!(":X{}", list(self.huffable.iter().copied()));
        }
        s
    }
}

fn other(c: char) -> char {
    if c == 'W' { 'B' } else { 'W' }
}

/// A jump: over `b` from `a` to `c` when A-B and B-C are edges and C-B = B-A.
fn jumps(edges: &BTreeSet<(P, P)>, a: P) -> Vec<(P, P)> {
    let mut out = Vec::new();
    for &(x, b) in edges.iter() {
        if x != a {
            continue;
        }
        let c = (2 * b.0 - a.0, 2 * b.1 - a.1);
        if edges.contains(&(b, c)) {
            out.push((b, c));
        }
    }
    out
}

/// A move: (huff, from, to, captured in order of capture, board after).
struct Mv {
    huff: Option<P>,
    from: Option<P>,
    to: P,
    captured: Vec<P>,
}

fn captures_from(
    edges: &BTreeSet<(P, P)>,
    board: &BTreeMap<P, char>,
    me: char,
    start: P,
    at: P,
    taken: &mut Vec<P>,
    out: &mut Vec<(P, P, Vec<P>)>,
) {
    let mut any = false;
    for (b, c) in jumps(edges, at) {
        if board.get(&b) == Some(&other(me)) && !board.contains_key(&c) {
            any = true;
            let mut nb = board.clone();
            nb.remove(&b); // D-S1: removed at once
            taken.push(b);
            captures_from(edges, &nb, me, start, c, taken, out);
            taken.pop();
        }
    }
    if !any && !taken.is_empty() {
        out.push((start, at, taken.clone()));
    }
}

fn base_moves(
    edges: &BTreeSet<(P, P)>,
    board: &BTreeMap<P, char>,
    me: char,
    huffing: bool,
) -> Vec<(P, P, Vec<P>)> {
    let mut caps = Vec::new();
    for (&p, &c) in board.iter() {
        if c == me {
            let mut b = board.clone();
            b.remove(&p); // D-S1: the start point is empty during the sequence
            captures_from(edges, &b, me, p, p, &mut Vec::new(), &mut caps);
        }
    }
    let mut out = caps.clone();
    if caps.is_empty() || huffing {
        for (&p, &c) in board.iter() {
            if c == me {
                for &(a, b) in edges.iter() {
                    if a == p && !board.contains_key(&b) {
                        out.push((p, b, Vec::new()));
                    }
                }
            }
        }
    }
    out
}

fn all_moves(edges: &BTreeSet<(P, P)>, pos: &Pos) -> Vec<Mv> {
    let me = pos.side;
    let mut out = Vec::new();
    if pos.huffable.is_empty() {
        for (f, t, c) in base_moves(edges, &pos.board, me, pos.huffing) {
            out.push(Mv {
                huff: None,
                from: Some(f),
                to: t,
                captured: c,
            });
        }
        return out;
    }
    for &h in &pos.huffable {
        let mut b = pos.board.clone();
        b.remove(&h);
        if !b.values().any(|&c| c == other(me)) {
            out.push(Mv {
                huff: Some(h),
                from: None,
                to: h,
                captured: Vec::new(),
            });
            continue;
        }
        for (f, t, c) in base_moves(edges, &b, me, pos.huffing) {
            out.push(Mv {
                huff: Some(h),
                from: Some(f),
                to: t,
                captured: c,
            });
        }
    }
    out
}

fn play(edges: &BTreeSet<(P, P)>, pos: &Pos, m: &Mv) -> Pos {
    let me = pos.side;
    let mut n = pos.clone();
    n.huffable.clear();
    if let Some(h) = m.huff {
        n.board.remove(&h);
    }
    if let Some(f) = m.from {
        if pos.huffing && m.captured.is_empty() {
            // Pieces that could have captured (before the move) may be huffed; a moved one is huffed where it stands.
            for (&p, &c) in n.board.iter() {
                if c == me {
                    let mut b = n.board.clone();
                    b.remove(&p);
                    let can = jumps(edges, p)
                        .iter()
                        .any(|(over, land)| b.get(over) == Some(&other(me)) && !b.contains_key(land));
                    if can {
                        n.huffable.insert(if p == f { m.to } else { p });
                    }
                }
            }
        }
        n.board.remove(&f);
        for c in &m.captured {
            n.board.remove(c);
        }
        n.board.insert(m.to, me);
    }
    n.quiet = if m.captured.is_empty() && m.huff.is_none() {
        pos.quiet + 1
    } else {
        0
    };
    n.side = other(me);
    n
}

fn write(m: &Mv) -> String {
    let mut s = String::new();
    if let Some(h) = m.huff {
        s += &format!("{}*", name(h));
    }
    let Some(f) = m.from else { return s };
    if m.captured.is_empty() {
        return s + &format!("{}-{}", name(f), name(m.to));
    }
    s += &format!("{}x{}", name(f), name(m.to));
    let mut c = m.captured.clone();
    c.sort_by_key(order);
    for p in c {
        s += &format!("x{}", name(p));
    }
    s
}

/// Every legal move as (Hub text, FEN after), merged (same huff, start, end and captured set once)
/// or kept (every capture path), sorted.
pub fn moves(fen: &str, huffing: bool, keep: bool) -> Vec<(String, String)> {
    static EDGES: OnceLock<BTreeSet<(P, P)>> = OnceLock::new();
    let edges = EDGES.get_or_init(edges);
    let pos = Pos::from_fen(fen, huffing);
    let mut v: Vec<(String, String)> = all_moves(edges, &pos)
        .iter()
        .map(|m| (write(m), play(edges, &pos, m).fen()))
        .collect();
    v.sort();
    if !keep {
        v.dedup();
    }
    v
}

/// Perft from a FEN (last ply counted).
pub fn perft(fen: &str, depth: u32, huffing: bool, keep: bool) -> u64 {
    let ms = moves(fen, huffing, keep);
    if depth <= 1 {
        return if depth == 0 { 1 } else { ms.len() as u64 };
    }
    ms.iter().map(|(_, f)| perft(f, depth - 1, huffing, keep)).sum()
}
