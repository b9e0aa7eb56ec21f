//! A deliberately simple MuchADo, written straight from rules.md §1 and D-M1..D-M10 with maps and
//! vectors, sharing no code with `src/games`: the reference the fast generator is compared with.
//! Positions are read and written in the FEN of `docs/odd-boards.md`; moves in its Hub style.

use std::collections::BTreeMap;

type C = (i8, i8); // (file 0..6, rank 1..7)

pub fn exists(c: C) -> bool {
    (0..=6).contains(&c.0) && (1..=7).contains(&c.1) && (c.0 - (c.1 - 1)).abs() <= 3
}

pub fn cells() -> Vec<C> {
    let mut v = Vec::new();
    for r in 1..=7 {
        for f in 0..=6 {
            if exists((f, r)) {
                v.push((f, r));
            }
        }
    }
    v
}

/// All six directions (§1.2).
pub const ALL: [C; 6] = [(0, 1), (1, 1), (1, 0), (-1, 0), (0, -1), (-1, -1)];

fn forward(side: char) -> [C; 2] {
    if side == 'W' {
        [(0, 1), (1, 1)]
    } else {
        [(0, -1), (-1, -1)]
    }
}
const SIDEWAYS: [C; 2] = [(1, 0), (-1, 0)];

fn promo_rank(side: char) -> i8 {
    if side == 'W' { 7 } else { 1 }
}

fn add(a: C, d: C) -> C {
    (a.0 + d.0, a.1 + d.1)
}

fn name(c: C) -> String {
    format!("{}{}", (b'a' + c.0 as u8) as char, c.1)
}

fn other(s: char) -> char {
    if s == 'W' { 'B' } else { 'W' }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pos {
    pub board: BTreeMap<C, (char, bool)>,
    pub reserve: [u8; 2],
    pub side: char,
}

fn ri(s: char) -> usize {
    usize::from(s == 'B')
}

impl Pos {
    pub fn from_fen(fen: &str) -> Pos {
        let mut f = fen.split(':');
        let side = f.next().unwrap().chars().next().unwrap();
        let mut p = Pos {
            board: BTreeMap::new(),
            reserve: [0, 0],
            side,
        };
        for field in f {
            let (tag, rest) = field.split_at(1);
            match tag {
                "W" | "B" => {
                    for s in rest.split(',').filter(|s| !s.is_empty()) {
                        let (king, s) = match s.strip_prefix('K') {
                            Some(x) => (true, x),
                            None => (false, s),
                        };
                        let b = s.as_bytes();
                        p.board.insert(
                            ((b[0] - b'a') as i8, (b[1] - b'0') as i8),
                            (tag.chars().next().unwrap(), king),
                        );
                    }
                }
                "R" => {
                    let (w, b) = rest.split_once(',').unwrap();
                    p.reserve = [w.parse().unwrap(), b.parse().unwrap()];
                }
                _ => panic!("{field}"),
            }
        }
        p
    }

    pub fn fen(&self) -> String {
        let of = |s: char| {
            let mut v: Vec<(C, bool)> = self
                .board
                .iter()
                .filter(|(_, v)| v.0 == s)
                .map(|(k, v)| (*k, v.1))
                .collect();
            v.sort_by_key(|(c, _)| (c.1, c.0));
            v.iter()
                .map(|(c, k)| format!("{}{}", if *k { "K" } else { "" }, name(*c)))
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{}:W{}:B{}:R{},{}",
            self.side,
            of('W'),
            of('B'),
            self.reserve[0],
            self.reserve[1]
        )
    }
}

/// A finished capture sequence: start, end, jumped cells, the position after.
struct Seq {
    from: C,
    to: C,
    jumped: Vec<C>,
    after: Pos,
}

fn capture(pos: &Pos, from: C, at: C, jumped: &mut Vec<C>, out: &mut Vec<Seq>) {
    let me = pos.side;
    let (_, king) = pos.board[&at];
    let dirs: Vec<C> = if king {
        ALL.to_vec()
    } else {
        [forward(me).to_vec(), SIDEWAYS.to_vec()].concat()
    };
    let mut any = false;
    for d in dirs {
        let mut a = add(at, d);
        if king {
            while exists(a) && !pos.board.contains_key(&a) {
                a = add(a, d);
            }
        }
        let l = add(a, d);
        if !exists(a) || !exists(l) || pos.board.contains_key(&l) {
            continue;
        }
        let Some(&(owner, a_king)) = pos.board.get(&a) else {
            continue;
        };
        if owner == me {
            continue;
        }
        let mut n = pos.clone();
        n.board.remove(&at);
        n.board.insert(a, (me, false)); // the captured piece changes colour; a king is demoted
        n.board.insert(l, (me, king));
        jumped.push(a);
        let r = ri(me);
        if !king && l.1 == promo_rank(me) && (a_king || n.reserve[r] > 0) {
            // Promotion ends the sequence: by the captured king's stone, or by a reserve stone.
            if !a_king {
                n.reserve[r] -= 1;
            }
            n.board.insert(l, (me, true));
            any = true;
            out.push(Seq {
                from,
                to: l,
                jumped: jumped.clone(),
                after: n,
            });
            jumped.pop();
            continue;
        }
        if a_king {
            if n.reserve[r] == 8 {
                jumped.pop();
                continue;
            }
            n.reserve[r] += 1;
        }
        any = true;
        capture(&n, from, l, jumped, out);
        jumped.pop();
    }
    if !any && !jumped.is_empty() {
        out.push(Seq {
            from,
            to: at,
            jumped: jumped.clone(),
            after: pos.clone(),
        });
    }
}

/// Every legal move as (Hub text, FEN after), sorted; merged (D-M7) unless `keep`.
pub fn moves(fen: &str, keep: bool) -> Vec<(String, String)> {
    let pos = Pos::from_fen(fen);
    let me = pos.side;
    let mut out: Vec<(String, String)> = Vec::new();
    let mut seqs = Vec::new();
    for (&c, _) in pos.board.iter().filter(|(_, v)| v.0 == me) {
        capture(&pos, c, c, &mut Vec::new(), &mut seqs);
    }
    let most = seqs.iter().map(|s| s.jumped.len()).max().unwrap_or(0);
    for s in seqs.iter().filter(|s| s.jumped.len() == most) {
        let mut after = s.after.clone();
        after.side = other(me);
        let mut j = s.jumped.clone();
        j.sort_by_key(|c| (c.1, c.0));
        let mut text = format!("{}x{}", name(s.from), name(s.to));
        for c in j {
            text += &format!("x{}", name(c));
        }
        out.push((text, after.fen()));
    }
    if out.is_empty() {
        let r = ri(me);
        let mut push = |text: String, mut n: Pos| {
            n.side = other(me);
            out.push((text, n.fen()));
        };
        for (&c, &(_, king)) in pos.board.iter().filter(|(_, v)| v.0 == me) {
            if king {
                for d in [(0, 1), (1, 1), (0, -1), (-1, -1)] {
                    let mut t = add(c, d);
                    while exists(t) && !pos.board.contains_key(&t) {
                        let mut n = pos.clone();
                        n.board.remove(&c);
                        n.board.insert(t, (me, true));
                        push(format!("{}-{}", name(c), name(t)), n);
                        t = add(t, d);
                    }
                }
                continue;
            }
            let on_last = c.1 == promo_rank(me);
            for d in forward(me) {
                let t = add(c, d);
                if exists(t) && !pos.board.contains_key(&t) {
                    let mut n = pos.clone();
                    n.board.remove(&c);
                    let crown = t.1 == promo_rank(me) && n.reserve[r] > 0;
                    if crown {
                        n.reserve[r] -= 1;
                    }
                    n.board.insert(t, (me, crown));
                    push(format!("{}-{}", name(c), name(t)), n);
                }
            }
            if on_last {
                for d in SIDEWAYS {
                    let t = add(c, d);
                    if exists(t) && !pos.board.contains_key(&t) {
                        let mut n = pos.clone();
                        n.board.remove(&c);
                        n.board.insert(t, (me, false));
                        push(format!("{}-{}", name(c), name(t)), n);
                    }
                }
            }
            for d in [forward(me).to_vec(), SIDEWAYS.to_vec()].concat() {
                let sideways = d.1 == 0;
                let a = add(c, d);
                let b = add(a, d);
                let Some(&(owner, a_king)) = pos.board.get(&a) else {
                    continue;
                };
                if owner == me {
                    // Push: a friendly soldier forward or sideways; a king only sideways from the last row.
                    if exists(b) && !pos.board.contains_key(&b) && (!a_king || (sideways && on_last)) {
                        let mut n = pos.clone();
                        n.board.remove(&c);
                        n.board.insert(b, (me, a_king));
                        n.board.insert(a, (me, false));
                        push(format!("{}>{}", name(c), name(a)), n);
                    }
                    continue;
                }
                if a_king {
                    continue;
                }
                // Swap with an enemy soldier not on my promotion row.
                if a.1 != promo_rank(me) {
                    let mut n = pos.clone();
                    n.board.insert(c, (owner, false));
                    n.board.insert(a, (me, false));
                    push(format!("{}<>{}", name(c), name(a)), n);
                }
                // Threesome: enemy soldier, then my soldier, then an empty cell.
                let e = add(b, d);
                if pos.board.get(&b) == Some(&(me, false)) && exists(e) && !pos.board.contains_key(&e) {
                    let mut n = pos.clone();
                    n.board.remove(&c);
                    n.board.insert(a, (me, false));
                    n.board.insert(b, (owner, false));
                    n.board.insert(e, (me, false));
                    push(format!("{}>>{}", name(c), name(a)), n);
                }
            }
        }
    }
    out.sort();
    if !keep {
        out.dedup();
    }
    out
}

/// Perft from a FEN (last ply counted).
pub fn perft(fen: &str, depth: u32, keep: bool) -> u64 {
    let ms = moves(fen, keep);
    if depth <= 1 {
        return if depth == 0 { 1 } else { ms.len() as u64 };
    }
    ms.iter().map(|(_, f)| perft(f, depth - 1, keep)).sum()
}
