//! Endgame databases (issue 21): tables built in a temporary directory are checked position by
//! position against a deliberately simple solver written here on top of the independent reference
//! move generator (`tests/reference`, which shares no code with the engine), against endgame
//! theory, against their own files (verify, corruption), and in play (the search converts a won
//! ending; the UCI options load them).
//!
//! The simple solver enumerates every position with up to N pieces by placing pieces on squares,
//! asks the reference generator for every move, and labels positions by plain forward iteration
//! over distance: at pass `n`, a position wins in `n` plies (n odd) if a move reaches a position
//! lost in `n - 1`, and loses in `n` (n even) if every move reaches a position won in fewer than
//! `n` plies and one of them in `n - 1`. What is never labelled is a draw. No retrograde move
//! generation, no indexing, no capture shortcut: slow and obviously right.

use crate::common;
use crate::reference;

use reference::{Piece, RefPos, RefVariant, Side as RefSide};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tempo::draughts::rules::{EnglishRules, InternationalRules, Rules, RussianRules};
use tempo::draughts::{Draughts, English, International, Russian};
use tempo::egdb::cli::{build_all, verify_all};
use tempo::egdb::registry::{self, Tables};
use tempo::egdb::{Material, Probe, Value, best_move, solve};
use tempo::game::{Game, MoveList, Side};

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tempo-egdb-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Builds the tables of `R` up to `pieces` in a fresh directory, with two threads; or, when
/// `TEMPO_EGDB_DIR` is set (for the ignored tests), in that directory, keeping what is built there.
fn built<R: Rules>(tag: &str, pieces: u32) -> (PathBuf, Tables) {
    let dir = match std::env::var_os("TEMPO_EGDB_DIR") {
        Some(d) if pieces >= 4 => PathBuf::from(d),
        _ => temp_dir(tag),
    };
    build_all::<R>(&dir, pieces, 2, 1 << 30, None, &mut |_| {}).unwrap();
    let t = registry::load::<R>(&dir, pieces).unwrap();
    assert_eq!(t.pieces, pieces);
    (dir, t)
}

// ---------------------------------------------------------------------------------------------
// The simple solver
// ---------------------------------------------------------------------------------------------

/// Every position of `v` with 2..=`pieces` pieces, both sides present, men off their promotion
/// rows, both sides to move.
fn all_positions(v: RefVariant, pieces: usize) -> Vec<RefPos> {
    const KINDS: [Piece; 4] = [
        Piece {
            side: RefSide::White,
            king: false,
        },
        Piece {
            side: RefSide::White,
            king: true,
        },
        Piece {
            side: RefSide::Black,
            king: false,
        },
        Piece {
            side: RefSide::Black,
            king: true,
        },
    ];
    // Choose squares in ascending order, a kind for each.
    fn rec(from: u8, left: usize, pos: &mut RefPos, out: &mut Vec<RefPos>) {
        let v = pos.variant;
        let w = pos.count(RefSide::White);
        let b = pos.count(RefSide::Black);
        if w.0 + w.1 > 0 && b.0 + b.1 > 0 {
            for side in [RefSide::White, RefSide::Black] {
                let mut p = pos.clone();
                p.to_move = side;
                out.push(p);
            }
        }
        if left == 0 {
            return;
        }
        for sq in from..=v.squares() {
            let (row, _) = v.square_to_rc(sq);
            for k in KINDS {
                // FMJD 3.5: no man stands on its own promotion row.
                let last = if k.side == RefSide::White {
                    0
                } else {
                    v.size() as i32 - 1
                };
                if !k.king && row == last {
                    continue;
                }
                pos.put(sq, Some(k));
                rec(sq + 1, left - 1, pos, out);
                pos.put(sq, None);
            }
        }
    }
    let mut out = Vec::new();
    rec(1, pieces, &mut RefPos::empty(v), &mut out);
    out
}

/// Codes as the engine stores them (0 draw, plies + 1), by the simple solver, keyed by FEN.
fn simple_solve(v: RefVariant, pieces: usize) -> HashMap<String, u16> {
    let positions = all_positions(v, pieces);
    let id: HashMap<String, usize> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p.to_fen(), i))
        .collect();
    // A child whose side to move has no piece left is the extra node `positions.len()`: it has
    // no move, so it is lost at once.
    let gone = positions.len();
    let children: Vec<Vec<usize>> = positions
        .iter()
        .map(|p| {
            p.moves(false)
                .iter()
                .map(|m| *id.get(&p.play(m).to_fen()).unwrap_or(&gone))
                .collect()
        })
        .collect();
    let mut dist: Vec<Option<u32>> = vec![None; positions.len() + 1];
    dist[gone] = Some(0);
    let mut n = 0u32;
    let mut quiet_passes = 0;
    // Pass 0 labels the positions without a move; the sentinel is labelled already.
    while quiet_passes < 2 {
        let mut changed = false;
        for i in 0..positions.len() {
            if dist[i].is_some() || (n == 0 && !children[i].is_empty()) {
                continue;
            }
            let c = &children[i];
            let label = if n % 2 == 1 {
                c.iter().any(|&k| dist[k] == Some(n - 1))
            } else {
                c.iter().all(|&k| dist[k].is_some_and(|d| d % 2 == 1 && d < n))
                    && (n == 0 || c.iter().any(|&k| dist[k] == Some(n - 1)))
            };
            if label {
                dist[i] = Some(n);
                changed = true;
            }
        }
        quiet_passes = if changed { 0 } else { quiet_passes + 1 };
        n += 1;
    }
    positions
        .iter()
        .zip(dist)
        .map(|(p, d)| (p.to_fen(), d.map_or(0, |d| d as u16 + 1)))
        .collect()
}

/// Compares the engine's tables with the simple solver on every position up to `pieces`.
fn agree<R: Rules>(v: RefVariant, tables: &Tables, pieces: usize) -> usize {
    let simple = simple_solve(v, pieces);
    let mut checked = 0;
    for (fen, &code) in &simple {
        let pos = Draughts::<R>::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let got = solve::<R, Tables>(tables, &pos).unwrap_or_else(|| panic!("{fen}: no value"));
        assert_eq!(
            Value::of(got),
            Value::of(code),
            "{} {fen}: tables say {}, the simple solver {}",
            R::NAME,
            Value::of(got),
            Value::of(code)
        );
        checked += 1;
    }
    assert!(checked > 1000);
    checked
}

#[test]
fn english_agrees_with_the_simple_solver_to_3_pieces() {
    let (_, t) = built::<EnglishRules>("en3", 3);
    agree::<EnglishRules>(RefVariant::English, &t, 3);
}

#[test]
fn russian_agrees_with_the_simple_solver_to_3_pieces() {
    let (_, t) = built::<RussianRules>("ru3", 3);
    agree::<RussianRules>(RefVariant::Russian, &t, 3);
}

#[test]
fn international_agrees_with_the_simple_solver_to_2_pieces() {
    let (_, t) = built::<InternationalRules>("in2", 2);
    agree::<InternationalRules>(RefVariant::International, &t, 2);
}

#[test]
#[ignore = "about a minute: cargo test --release --test integration egdb:: -- --ignored"]
fn international_agrees_with_the_simple_solver_to_3_pieces() {
    let (_, t) = built::<InternationalRules>("in3", 3);
    agree::<InternationalRules>(RefVariant::International, &t, 3);
}

// ---------------------------------------------------------------------------------------------
// Endgame theory
// ---------------------------------------------------------------------------------------------

/// Positions of a slice with White to move and no capture pending for either side.
fn quiet_positions<R: Rules>(m: Material) -> Vec<Draughts<R>> {
    quiet_positions_to_move::<R>(m, Side::White)
}

/// Positions of a slice with `side` to move and no capture pending for either side.
fn quiet_positions_to_move<R: Rules>(m: Material, side: Side) -> Vec<Draughts<R>> {
    let ix = tempo::egdb::SliceIndex::new::<R>(m);
    let first = if side == Side::White { 0 } else { ix.per_side };
    let no_capture = |p: &Draughts<R>| {
        let mut l = MoveList::new();
        p.generate(&mut l);
        !l.is_empty() && !p.is_capture(&l[0])
    };
    (first..first + ix.per_side)
        .filter_map(|i| ix.position::<R>(i))
        .filter(|p| {
            let flip = Draughts::<R>::from_parts(
                p.pieces(Side::White),
                p.pieces(Side::Black),
                p.kings(),
                p.side_to_move().opponent(),
                Default::default(),
            )
            .unwrap();
            no_capture(p) && no_capture(&flip)
        })
        .collect()
}

/// Whether every move of `p` leaves a capture to the opponent.
fn every_move_gives_a_capture<R: Rules>(p: &Draughts<R>) -> bool {
    let mut l = MoveList::new();
    p.generate(&mut l);
    l.iter().all(|m| {
        let c = p.play(m);
        let mut r = MoveList::new();
        c.generate(&mut r);
        r.first().is_some_and(|x| c.is_capture(x))
    })
}

/// International: a king against a king is a draw unless a king can capture at once or must
/// step into a capture (the only exceptions Frisian Art. 21.1 names for the same ending, and the
/// reason FMJD 6.4 limits it to 5 moves: nobody can force anything). Checked from every position
/// with no capture pending for either side.
#[test]
fn international_king_against_king_draws() {
    let (_, t) = built::<InternationalRules>("kk", 2);
    let m = Material {
        wm: 0,
        wk: 1,
        bm: 0,
        bk: 1,
    };
    let ps = quiet_positions::<InternationalRules>(m);
    assert!(ps.len() > 1000);
    let mut trapped = 0;
    for p in ps {
        let v = Value::of(solve::<InternationalRules, Tables>(&t, &p).unwrap());
        if v != Value::Draw {
            assert!(
                v == Value::Loss(2) && every_move_gives_a_capture(&p),
                "{}: {v}",
                p.to_fen()
            );
            trapped += 1;
        }
    }
    // A king in the corner 5 or 46 with the other king on the long diagonal is trapped.
    assert!(trapped > 0);
}

/// English checkers: two kings beat one (the test list; the standard technique drives the
/// lone king out of the double corner). Checked from every position with no capture pending for
/// either side, White to move: more than 99% are won, the rest are forced exchanges near the edge.
#[test]
fn english_two_kings_beat_one() {
    let (_, t) = built::<EnglishRules>("en2k", 3);
    let ps = quiet_positions::<EnglishRules>(Material {
        wm: 0,
        wk: 2,
        bm: 0,
        bk: 1,
    });
    assert!(ps.len() > 1000);
    let mut draws = Vec::new();
    for p in &ps {
        match Value::of(solve::<EnglishRules, Tables>(&t, p).unwrap()) {
            Value::Win(_) => {}
            Value::Draw => draws.push(p.to_fen()),
            v => panic!("{}: {v}", p.to_fen()),
        }
    }
    eprintln!(
        "english 2K v K, White to move, no capture pending: {} of {} won; drawn: {:?}",
        ps.len() - draws.len(),
        ps.len(),
        draws
    );
    assert!(draws.len() * 100 < ps.len());
}

fn on_long_diagonal<R: Rules>(bit: u32) -> bool {
    // The long diagonal runs from White's lower left (square 46 on 10x10, 29 = a1 on 8x8) to the
    // upper right: column + row from the top = width - 1.
    use tempo::draughts::geom::Geometry;
    let (c, r) = <R::Board as Geometry>::coords(bit);
    c + r + 1 == <R::Board as Geometry>::WIDTH
}

/// Three kings against one with no capture pending for either side: (won, of) for White to move
/// when a White king holds the long diagonal and the lone king does not; (lost, of) for Black to
/// move when the lone king holds it alone; and the same for White to move.
fn three_kings_against_one<R: Rules>(t: &Tables) -> [(usize, usize); 3] {
    use tempo::bits::Bits;
    let mut r = [(0, 0); 3];
    for side in [Side::White, Side::Black] {
        for p in &quiet_positions_to_move::<R>(
            Material {
                wm: 0,
                wk: 3,
                bm: 0,
                bk: 1,
            },
            side,
        ) {
            let v = Value::of(solve::<R, Tables>(t, p).unwrap());
            let black = p.pieces(Side::Black).lowest();
            let whites_on = p
                .pieces(Side::White)
                .iter()
                .filter(|&b| on_long_diagonal::<R>(b))
                .count();
            let slot = match (side, on_long_diagonal::<R>(black), whites_on) {
                (Side::White, false, 1..) => 0,
                (Side::Black, true, 0) => 1,
                (Side::White, true, 0) => 2,
                _ => continue,
            };
            let decided = if side == Side::White {
                matches!(v, Value::Win(_))
            } else {
                matches!(v, Value::Loss(_))
            };
            r[slot].0 += usize::from(decided);
            r[slot].1 += 1;
            if slot > 0 && decided && std::env::var_os("TEMPO_EGDB_SHOW").is_some() {
                eprintln!("held but won: {}", p.to_fen());
            }
        }
    }
    r
}

/// Russian draughts: three kings beat one when the stronger side holds the main road (a1-h8),
/// by Petrov's triangle, and the lone king on the main road draws (rules.md §3.4: FMJD-64 7.2.7
/// limits exactly that ending; the "mini course: winning with three kings against one" on
/// boardgamegeek.com, thread 1414778, states it for Brazilian, Pool, Russian and Spanish: "a
/// 3-kings-against-1 situation could be a victory, if the owner of the 3 kings possesses the big
/// diagonal line"). Needs the 4-piece tables.
#[test]
#[ignore = "builds the Russian 4-piece tables (about 20 s): cargo test --release --test integration egdb:: -- --ignored"]
fn russian_three_kings_against_one() {
    let (_, t) = built::<RussianRules>("ru4", 4);
    let [(sw, s), (bw, b), (ww, w)] = three_kings_against_one::<RussianRules>(&t);
    eprintln!(
        "russian 3K v K: strong side on the main road, White to move: {sw}/{s} won; lone king on it, \
         Black to move: {bw}/{b} lost, White to move: {ww}/{w} won"
    );
    assert!(s > 1000 && b > 1000 && w > 1000);
    assert_eq!(sw, s, "three kings holding the main road win");
    // The lone king on the main road holds, but for tactics when the strong side moves first.
    assert_eq!(bw, 0, "a lone king holding the main road, to move, draws");
    assert!(ww * 20 < w, "a lone king holding the main road mostly draws");
}

/// International: one king against three draws when the lone king holds the long diagonal
/// (46-5), the test list; and on 10x10 three kings against one "usually is a draw" even
/// when the strong side holds it, with exceptions won by tricks (FMJD course "The endgame",
/// chapter 3, N. Smeitink; the boardgamegeek mini course above: a draw "unless you are successful
/// with applying some dirty tricks").
#[test]
#[ignore = "builds the International 4-piece tables (minutes): cargo test --release --test integration egdb:: -- --ignored"]
fn international_lone_king_on_the_long_diagonal_draws_against_three() {
    let (_, t) = built::<InternationalRules>("in4", 4);
    let [(sw, s), (bw, b), (ww, w)] = three_kings_against_one::<InternationalRules>(&t);
    eprintln!(
        "international 3K v K: strong side on the long diagonal, White to move: {sw}/{s} won; lone \
         king on it, Black to move: {bw}/{b} lost, White to move: {ww}/{w} won"
    );
    assert!(s > 1000 && b > 1000 && w > 1000);
    assert_eq!(bw, 0, "a lone king holding the long diagonal, to move, draws");
    assert!(ww * 20 < w, "a lone king holding the long diagonal mostly draws");
    assert!(
        sw > 0 && sw * 2 < s,
        "three kings against one on 10x10 is usually a draw"
    );
}

/// Brazilian and Pool: three kings holding the main line beat one (the boardgamegeek mini course
/// cited above names both). Needs their 4-piece tables.
#[test]
#[ignore = "builds the Brazilian and Pool 4-piece tables (about a minute)"]
fn brazilian_and_pool_three_kings_on_the_main_line_win() {
    use tempo::draughts::rules::{BrazilianRules, PoolRules};
    let (_, t) = built::<BrazilianRules>("br4", 4);
    let [(sw, s), (bw, b), _] = three_kings_against_one::<BrazilianRules>(&t);
    eprintln!(
        "brazilian 3K v K: main line held by the kings {sw}/{s} won; by the lone king, to move, {bw}/{b} lost"
    );
    assert!(s > 1000 && sw == s && bw == 0);
    let (_, t) = built::<PoolRules>("po4", 4);
    let [(sw, s), (bw, b), _] = three_kings_against_one::<PoolRules>(&t);
    eprintln!(
        "pool 3K v K: main line held by the kings {sw}/{s} won; by the lone king, to move, {bw}/{b} lost"
    );
    assert!(s > 1000 && sw == s && bw == 0);
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

#[test]
fn verify_passes_resume_keeps_files_and_a_corrupt_file_is_refused() {
    let (dir, _) = built::<RussianRules>("files", 3);
    let n = verify_all::<RussianRules>(&dir, 3, 2, None, &mut |_| {}).unwrap();
    assert!(n > 100_000, "{n}");
    // Slice by slice (`verify --slice`), the same positions are checked.
    let each: u64 = Material::all_up_to(3)
        .into_iter()
        .map(|m| verify_all::<RussianRules>(&dir, 3, 2, Some(m), &mut |_| {}).unwrap())
        .sum();
    assert_eq!(each, n);
    let path = registry::slice_path(
        &dir,
        "russian",
        Material {
            wm: 0,
            wk: 2,
            bm: 0,
            bk: 1,
        },
    );
    let before = std::fs::metadata(&path).unwrap().modified().unwrap();
    // A second build keeps every sound file.
    let lines = build_all::<RussianRules>(&dir, 3, 2, 1 << 30, None, &mut |_| {}).unwrap();
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), before);
    // One flipped bit: loading refuses the file and says why.
    let mut bytes = std::fs::read(&path).unwrap();
    let k = bytes.len() / 2;
    bytes[k] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let err = registry::load::<RussianRules>(&dir, 3)
        .err()
        .expect("a corrupt file must be refused");
    assert!(err.contains("checksum") && err.contains("0201"), "{err}");
    assert!(verify_all::<RussianRules>(&dir, 3, 1, None, &mut |_| {}).is_err());
    // The build notices and rebuilds it.
    let lines = build_all::<RussianRules>(&dir, 3, 2, 1 << 30, None, &mut |_| {}).unwrap();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(registry::load::<RussianRules>(&dir, 3).is_ok());
}

/// A slice mirrored from its colour-swapped twin fills the indices the tables do not decide as a
/// solved slice does (the code before them), so its file is about its twin's size: Russian to 3
/// pieces, the mirrored files' bytes are within a quarter of their twins' (1.10 measured; copying
/// the twin's filler in the twin's order gave 1.41, and 1.62 to 4 pieces).
#[test]
fn mirrored_slices_compress_like_their_twins() {
    let dir = temp_dir("mirror");
    let lines = build_all::<RussianRules>(&dir, 3, 2, 1 << 30, None, &mut |_| {}).unwrap();
    let size = |name: &str| {
        std::fs::metadata(dir.join("russian").join(format!("{name}.egdb")))
            .unwrap()
            .len()
    };
    let (mut mirrored, mut twins) = (0, 0);
    for line in &lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let Some(k) = words.iter().position(|w| *w == "mirrored") {
            mirrored += size(words[1]);
            twins += size(words[k + 2]);
        }
    }
    assert!(twins > 0, "{lines:?}");
    let ratio = mirrored as f64 / twins as f64;
    assert!(
        ratio < 1.25,
        "mirrored {mirrored} bytes, twins {twins}: {ratio:.2}"
    );
}

/// A value changed behind a sound checksum (as a builder bug would write it) is found by `verify`,
/// which names the slice and the position.
#[test]
fn verify_finds_a_wrong_value_behind_a_sound_checksum() {
    let (dir, _) = built::<RussianRules>("wrong", 3);
    let m = Material {
        wm: 0,
        wk: 2,
        bm: 0,
        bk: 1,
    };
    let f = registry::read_slice::<RussianRules>(&dir, m).unwrap();
    assert!(f.is_mapped(), "a table file is mapped, not read");
    let mut codes = f.decode_all().unwrap();
    // The first index that names a position without a pending capture (those are checked).
    let (i, pos) = (0..f.index.len())
        .find_map(|i| {
            let p = f.index.position::<RussianRules>(i)?;
            let mut moves = MoveList::new();
            p.generate(&mut moves);
            (!moves.is_empty() && !p.is_capture(&moves[0])).then_some((i as usize, p))
        })
        .expect("the slice has quiet positions");
    codes[i] = if codes[i] == tempo::egdb::DRAW {
        2
    } else {
        tempo::egdb::DRAW
    };
    let path = registry::slice_path(&dir, "russian", m);
    let bytes = tempo::egdb::file::encode("russian", &f.index, &codes);
    // A mapped file is not rewritten in place while mapped (docs/egdb.md).
    drop(f);
    std::fs::write(&path, bytes).unwrap();
    assert!(
        registry::load::<RussianRules>(&dir, 3).is_ok(),
        "the checksum is sound"
    );
    let err = verify_all::<RussianRules>(&dir, 3, 2, None, &mut |_| {}).unwrap_err();
    assert!(err.contains("slice 0201") && err.contains(&pos.to_fen()), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Play
// ---------------------------------------------------------------------------------------------

/// With the tables loaded, the search (depth 4) converts won English 2K v 1K and 2K v K+M
/// endings against the tables' own best defence (the slowest loss), within the tables' distance.
#[test]
fn search_with_tables_converts_won_endings() {
    use tempo::search::{Limits, Search, Shared};
    use tempo::tt::Tt;
    let (dir, t) = built::<EnglishRules>("play", 3);
    let (done, loaded) = std::sync::mpsc::channel();
    let notify = |tx: std::sync::mpsc::Sender<Result<String, String>>| -> registry::Notify {
        Box::new(move |r| drop(tx.send(r)))
    };
    let _ = registry::set_pieces(tempo::variant::Variant::English, 3, notify(done.clone()));
    registry::set_dir(
        tempo::variant::Variant::English,
        dir.to_str().unwrap(),
        notify(done),
    )
    .unwrap();
    // The second load replaced the first; wait for its end (the first may or may not report).
    while !loaded.recv().unwrap().unwrap().contains("up to 3 pieces loaded") {}
    // A win longer than the counted rule leaves (English: 40 moves each without a capture or man
    // move) is not given to the search: the clocks may draw it first.
    let won = English::from_fen("W:WK1,K2:BK32").unwrap();
    let Value::Win(n) = Value::of(won.egdb_code().unwrap()) else {
        panic!("two kings beat one")
    };
    let short = |left: u32| {
        let h = 80 - left;
        English::from_fen(&format!("W:WK1,K2:BK32:H{h}"))
            .unwrap()
            .egdb_code()
    };
    assert_eq!(
        short(n).map(Value::of),
        Some(Value::Win(n)),
        "exactly enough plies"
    );
    assert_eq!(short(n - 1), None, "one ply short");
    // A draw stays a draw whatever the clocks.
    let drawn = English::from_fen("W:WK1:BK32:H79").unwrap();
    assert_eq!(drawn.egdb_code().map(Value::of), Some(Value::Draw));
    let starts = ["W:WK1,K2:BK32", "W:WK28,K32:BK5", "W:WK10,K11:B24"];
    let tt = Tt::new(16);
    for fen in starts {
        let mut pos = English::from_fen(fen).unwrap();
        let Value::Win(dtw) = Value::of(solve::<EnglishRules, Tables>(&t, &pos).unwrap()) else {
            panic!("{fen} should be won");
        };
        let mut plies = 0;
        let mut history: Vec<u64> = Vec::new();
        while pos.outcome().is_none() && plies < 200 {
            let mv = if pos.side_to_move() == Side::White {
                let shared = Shared::default();
                let limits = Limits {
                    depth: Some(4),
                    ..Limits::default()
                };
                let mut s = Search::new(&tt, &shared, limits, &history, &pos);
                s.run(&pos, |_| {}).best.unwrap()
            } else {
                best_move::<EnglishRules, Tables>(&t, &pos).unwrap().0
            };
            history.push(pos.key());
            pos = pos.play(&mv);
            plies += 1;
        }
        assert_eq!(
            pos.outcome(),
            Some(tempo::game::Outcome::Win(Side::White)),
            "{fen} after {plies} plies"
        );
        assert!(
            plies <= dtw as usize,
            "{fen}: won in {plies} plies, the tables say {dtw}"
        );
    }
    // Only English's tables go (another test loads Italian's into the same registry).
    registry::set_dir(tempo::variant::Variant::English, "", Box::new(|_| {})).unwrap();
}

/// UCI: `EGDB_Path` loads the tables, and the search then reports the win with its distance.
/// Starts `tempo uci` on `variant`, loads the tables of `dir` by `EGDB_Path` (checking the reply
/// that comes at once and the line that says they are in, both up to 3 pieces), searches `fen` to
/// `depth`, and returns the option lines of `uci` and the last `info` line with a score.
fn uci_search_with_tables(variant: &str, dir: &Path, fen: &str, depth: u32) -> (Vec<String>, String) {
    let mut e = common::Engine::start(&["uci"]);
    e.send("uci");
    let (_, opts) = e.until("uciok");
    e.send(&format!("setoption name UCI_Variant value {variant}"));
    e.send(&format!("setoption name EGDB_Path value {}", dir.display()));
    // The reply comes at once; the tables load in the background and say when they are in.
    let (line, _) = e.until("info string egdb");
    assert!(
        line.contains("loading") && line.contains("up to 3 pieces"),
        "{line}"
    );
    let (line, _) = e.until("info string egdb");
    assert!(line.contains("up to 3 pieces loaded"), "{line}");
    e.send(&format!("position fen {fen}"));
    e.send(&format!("go depth {depth}"));
    let (_, info) = e.until("bestmove");
    let last = info.iter().rev().find(|l| l.contains(" score ")).unwrap().clone();
    e.send("quit");
    (opts, last)
}

#[test]
fn uci_option_loads_tables_and_search_sees_the_win() {
    let (dir, t) = built::<EnglishRules>("uci", 3);
    let pos = English::from_fen("W:WK1,K2:BK32").unwrap();
    let Value::Win(n) = Value::of(solve::<EnglishRules, Tables>(&t, &pos).unwrap()) else {
        panic!()
    };
    let (opts, last) = uci_search_with_tables("english", &dir, "W:WK1,K2:BK32", 3);
    assert!(opts.iter().any(|l| l.contains("EGDB_Path")) && opts.iter().any(|l| l.contains("EGDB_Pieces")));
    // Moves, rounded up, as `score win N` reports them.
    let moves = n.div_ceil(2);
    assert!(
        last.contains(&format!("score win {moves}")),
        "{last} (tables: win in {n} plies)"
    );
}

/// The command line: `tempo search --egdb DIR` reads the tables before it searches (a line on
/// standard error says so) and reports the tables' win with its distance, as UCI does; `tempo
/// analyze --egdb` too; a directory without the variant's tables, a variant without tables and a
/// piece count out of range are errors that name the option.
#[test]
fn search_and_analyze_read_tables_from_the_command_line() {
    let (dir, t) = built::<EnglishRules>("cli", 3);
    let fen = "W:WK1,K2:BK32";
    let Value::Win(n) =
        Value::of(solve::<EnglishRules, Tables>(&t, &English::from_fen(fen).unwrap()).unwrap())
    else {
        panic!()
    };
    let d = dir.to_str().unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tempo"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[
        "search", "-v", "english", "--fen", fen, "--depth", "3", "--egdb", d,
    ]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("up to 3 pieces loaded"), "{stderr}");
    let last = stdout.lines().rfind(|l| l.starts_with("depth")).unwrap();
    assert!(
        last.contains(&format!("score win {}", n.div_ceil(2))),
        "{last} (tables: win in {n} plies)"
    );
    // Without the tables the search does not see the win at depth 3.
    let out = run(&["search", "-v", "english", "--fen", fen, "--depth", "3"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().rfind(|l| l.starts_with("depth")).unwrap();
    assert!(!last.contains("score win"), "{last}");
    let out = run(&[
        "analyze", "-v", "english", "--fen", fen, "--depth", "3", "--egdb", d, "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Every JSON line has a "win" key (null without a proved result): the tables' distance is
    // what says they were used.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let moves = format!("\"win\":{}", n.div_ceil(2));
    assert!(
        stdout.lines().any(|l| l.contains(&moves)),
        "{stdout} (tables: win in {n} plies)"
    );
    for (args, says) in [
        (
            &["search", "-v", "russian", "--depth", "1", "--egdb", d][..],
            "no tables for russian",
        ),
        (
            &["search", "-v", "sixteen", "--depth", "1", "--egdb", d][..],
            "has no endgame tables",
        ),
        (
            &["search", "-v", "english", "--depth", "1", "--egdb", " "][..],
            "no directory given",
        ),
    ] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && stderr.contains("--egdb") && stderr.contains(says),
            "{args:?}: {stderr}"
        );
    }
    for (command, pieces) in [("search", "9"), ("analyze", "1")] {
        let out = run(&[
            command,
            "-v",
            "english",
            "--depth",
            "1",
            "--egdb",
            d,
            "--egdb-pieces",
            pieces,
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && stderr.contains("--egdb") && stderr.contains("out of range"),
            "{command} --egdb-pieces {pieces}: {stderr}"
        );
    }
}

/// Frysk! (Frisian's rules from another start, rules.md 2.9) reads Frisian's tables: loaded for
/// Frysk! they are the Frisian files, and every position of slice 1101 (a man and a king against a
/// king, with White's king-move runs) has the same value read as a Frysk! position as read as a
/// Frisian one; over UCI, `EGDB_Path` loads them for `UCI_Variant frysk` and the search scores a
/// drawn ending a draw.
#[test]
fn frysk_reads_the_frisian_tables() {
    use tempo::draughts::rules::{FrisianRules, FryskRules};
    let (dir, frisian) = built::<FrisianRules>("frysk", 3);
    let frysk = registry::load::<FryskRules>(&dir, 3).unwrap();
    assert_eq!(frysk.pieces, 3);
    let m = Material {
        wm: 1,
        wk: 1,
        bm: 0,
        bk: 1,
    };
    let ix = tempo::egdb::SliceIndex::new::<FrisianRules>(m);
    let mut compared = 0;
    for i in 0..ix.len() {
        let Some(p) = ix.position::<FrisianRules>(i) else {
            continue;
        };
        let q = Draughts::<FryskRules>::from_fen(&p.to_fen()).unwrap();
        assert_eq!(
            solve::<FryskRules, Tables>(&frysk, &q),
            solve::<FrisianRules, Tables>(&frisian, &p),
            "{}",
            p.to_fen()
        );
        compared += 1;
    }
    assert!(compared > 100_000, "{compared}");
    // A man and a king against a king, drawn by the tables: without them the evaluation gives
    // White a quarter of a man (`cp 25` at depth 2), with them the search scores it a draw.
    let fen = "W:W40,K44:BK1";
    assert_eq!(
        solve::<FryskRules, Tables>(&frysk, &Draughts::from_fen(fen).unwrap()),
        Some(tempo::egdb::DRAW)
    );
    let (_, last) = uci_search_with_tables("frysk", &dir, fen, 2);
    assert!(last.contains("score cp 0 "), "{last}");
}

/// Hub: `egdb-dir` loads the tables and shows in the parameter list; a corrupt file is refused
/// with an error naming it.
#[test]
fn hub_egdb_dir_parameter() {
    let (dir, _) = built::<EnglishRules>("hub", 2);
    let mut e = common::Engine::start(&["hub"]);
    e.send("hub");
    let (_, params) = e.until("wait");
    assert!(params.iter().any(|l| l.starts_with("param name=egdb-dir ")));
    assert!(
        params
            .iter()
            .any(|l| l.starts_with("param name=egdb-pieces value=6 "))
    );
    e.send("set-param name=variant value=english");
    e.send(&format!("set-param name=egdb-dir value={}", dir.display()));
    e.send("hub");
    let (_, params) = e.until("wait");
    let line = params
        .iter()
        .find(|l| l.starts_with("param name=egdb-dir "))
        .unwrap();
    assert!(line.contains(&dir.display().to_string()), "{line}");
    assert!(params.iter().all(|l| !l.starts_with("error")), "{params:?}");
    // A flipped bit in the blocks: found by the background load's checksum, told as an error,
    // and the engine goes on. (The damage is done in a copy: the load above may still be reading.)
    let bad = temp_dir("hub-bad");
    std::fs::create_dir_all(bad.join("english")).unwrap();
    for f in std::fs::read_dir(dir.join("english")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, bad.join("english").join(f.file_name().unwrap())).unwrap();
    }
    let path = registry::slice_path(
        &bad,
        "english",
        Material {
            wm: 0,
            wk: 1,
            bm: 0,
            bk: 1,
        },
    );
    let mut bytes = std::fs::read(&path).unwrap();
    let k = bytes.len() - 8;
    bytes[k] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    e.send(&format!("set-param name=egdb-dir value={}", bad.display()));
    let (line, _) = e.until("error");
    assert!(line.contains("checksum") && line.contains("0101"), "{line}");
    e.send("ping");
    e.until("pong");
    // A bad header is refused at once, in the reply to the line (the load that found the bad
    // checksum has stopped).
    bytes[20] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    e.send("set-param name=egdb-pieces value=2");
    let (line, _) = e.until("error");
    assert!(line.contains("indexing") && line.contains("0101"), "{line}");
    // A directory without tables is an error too, and the engine goes on.
    e.send("set-param name=egdb-dir value=/nonexistent/tempo-egdb");
    let (line, _) = e.until("error");
    assert!(
        line.contains("no tables for english") && line.contains("not a directory"),
        "{line}"
    );
    e.send("ping");
    e.until("pong");
    e.send("quit");
}

/// A missing directory is an error of every loader (the command line's too).
#[test]
fn a_missing_directory_is_an_error() {
    let dir = temp_dir("missing");
    let err = registry::load::<RussianRules>(&dir, 3)
        .err()
        .expect("no russian/ in the directory");
    assert!(err.contains("no tables for russian"), "{err}");
    let err = registry::load_in_background::<RussianRules>(&dir.join("none"), 3, Box::new(|_| {}))
        .expect_err("no directory at all");
    assert!(err.contains("not a directory"), "{err}");
}

/// While the tables load in the background, a probe answers the tables' value or nothing, never
/// another value: positions of every slice up to 3 pieces (Italian, which no other test loads into
/// the process-wide registry) are probed over and over until the load ends, and once it has, all
/// of them answer.
#[test]
fn probes_during_a_background_load_are_never_wrong() {
    use tempo::draughts::rules::ItalianRules;
    let (dir, t) = built::<ItalianRules>("background", 3);
    let mut positions = Vec::new();
    for m in Material::all_up_to(3) {
        let ix = tempo::egdb::SliceIndex::new::<ItalianRules>(m);
        let step = (ix.len() / 200).max(1);
        positions.extend(
            (0..ix.len())
                .step_by(step as usize)
                .filter_map(|i| ix.position::<ItalianRules>(i)),
        );
    }
    let truth: Vec<_> = positions
        .iter()
        .map(|p| solve::<ItalianRules, Tables>(&t, p))
        .collect();
    assert!(truth.iter().all(Option::is_some));
    let (tx, rx) = std::sync::mpsc::channel();
    let line =
        registry::load_in_background::<ItalianRules>(&dir, 3, Box::new(move |r| drop(tx.send(r)))).unwrap();
    assert!(line.contains("loading"), "{line}");
    let (mut misses, mut hits) = (0, 0);
    let end = loop {
        for (p, want) in positions.iter().zip(&truth) {
            match registry::probe(p) {
                None => misses += 1,
                got => {
                    assert_eq!(got, *want, "{}", p.to_fen());
                    hits += 1;
                }
            }
        }
        if let Ok(end) = rx.try_recv() {
            break end;
        }
    };
    assert!(end.unwrap().contains("loaded"));
    for (p, want) in positions.iter().zip(&truth) {
        assert_eq!(registry::probe(p), *want, "{}", p.to_fen());
    }
    assert!(hits > 0, "{misses} misses");
}

#[allow(dead_code)]
fn unused(_: International, _: Russian) {}

// ---------------------------------------------------------------------------------------------
// Frisian: the king-move runs of Art. 17 in the index
// ---------------------------------------------------------------------------------------------

/// Frisian to 3 pieces: slice 1101 (a White man and king against a Black king, the smallest slice
/// where runs exist: White's run is none or its king at 1, 2 or 3 moves) agrees with a forward
/// solve written here, over every position of the slice and every run (the moves from the
/// engine's generator, which applies the runs; moves out of the slice, and into positions with a
/// capture pending, valued by the tables' smaller slices). And the runs matter as they must: for
/// White to move, no run is at least as good as a run of 1, 2, then 3 moves of the same king (each
/// allows a subset of the moves, into positions no better), strictly better somewhere; for Black
/// to move the other way round.
#[test]
fn frisian_runs_agree_with_a_forward_solve() {
    use tempo::bits::Bits;
    use tempo::draughts::KingRun;
    use tempo::draughts::rules::FrisianRules;
    use tempo::egdb::{SliceIndex, preference};
    type F = Draughts<FrisianRules>;
    let (_, t) = built::<FrisianRules>("frisian", 3);
    let m = Material {
        wm: 1,
        wk: 1,
        bm: 0,
        bk: 1,
    };
    let ix = SliceIndex::new::<FrisianRules>(m);
    let len = ix.len() as usize;
    // Whether a position is decided by the forward solve: in the slice, with a move, no capture.
    let quiet = |p: &F| {
        let mut moves = MoveList::new();
        p.generate(&mut moves);
        Material::of(p) == m && moves.first().is_some_and(|mv| !p.is_capture(mv))
    };
    // Children of every quiet position: in the slice (index), or out of it (its code).
    const EXIT: u32 = 1 << 31;
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); len];
    let mut is_quiet = vec![false; len];
    for i in 0..len {
        let Some(p) = ix.position::<FrisianRules>(i as u64) else {
            continue;
        };
        if !quiet(&p) {
            continue;
        }
        is_quiet[i] = true;
        let mut moves = MoveList::new();
        p.generate(&mut moves);
        children[i] = moves
            .iter()
            .map(|mv| {
                let c = p.play_bare(mv);
                if quiet(&c) {
                    ix.index(&c) as u32
                } else {
                    EXIT + u32::from(solve::<FrisianRules, Tables>(&t, &c).expect("a smaller slice"))
                }
            })
            .collect();
    }
    // Distances by forward iteration (u32::MAX: not known; an exit drawn is never known).
    let dist_of = |dist: &[u32], k: u32| -> u32 {
        if k >= EXIT {
            match k - EXIT {
                0 => u32::MAX - 1,
                c => c - 1,
            }
        } else {
            dist[k as usize]
        }
    };
    let mut dist = vec![u32::MAX; len];
    let mut n = 1u32;
    let mut quiet_passes = 0;
    while quiet_passes < 2 {
        let mut changed = false;
        for i in 0..len {
            if !is_quiet[i] || dist[i] != u32::MAX {
                continue;
            }
            let c = &children[i];
            let label = if n % 2 == 1 {
                c.iter().any(|&k| dist_of(&dist, k) == n - 1)
            } else {
                c.iter().all(|&k| {
                    let d = dist_of(&dist, k);
                    d < n && d % 2 == 1
                }) && c.iter().any(|&k| dist_of(&dist, k) == n - 1)
            };
            if label {
                dist[i] = n;
                changed = true;
            }
        }
        quiet_passes = if changed { 0 } else { quiet_passes + 1 };
        n += 1;
    }
    let mut checked = 0;
    let mut restricted = 0;
    for i in 0..len {
        if !is_quiet[i] {
            continue;
        }
        let p = ix.position::<FrisianRules>(i as u64).unwrap();
        let want = if dist[i] == u32::MAX {
            0
        } else {
            dist[i] as u16 + 1
        };
        let got = solve::<FrisianRules, Tables>(&t, &p).unwrap();
        assert_eq!(Value::of(got), Value::of(want), "{}", p.to_fen());
        checked += 1;
        // The runs of White's king, from none to the limit: each no better for White.
        if p.king_run(Side::White).count != 0 {
            continue;
        }
        let king = (p.pieces(Side::White) & p.kings()).iter().next().unwrap() as u8;
        let w = p.pieces(Side::White);
        let b = p.pieces(Side::Black);
        let mut prev = got;
        for count in 1..=3 {
            let run = KingRun { count, square: king };
            let q = F::from_parts(w, b, p.kings(), p.side_to_move(), [run, KingRun::default()]).unwrap();
            let c = solve::<FrisianRules, Tables>(&t, &q).unwrap();
            let (better, worse) = if p.side_to_move() == Side::White {
                (prev, c)
            } else {
                (c, prev)
            };
            let mover = |code| preference(code);
            assert!(mover(better) >= mover(worse), "{} run {count}", p.to_fen());
            if c != prev {
                restricted += 1;
            }
            prev = c;
        }
    }
    assert!(checked > 100_000, "{checked}");
    assert!(restricted > 0);
}

/// The builder's memory bound: with no memory to plan for, the slices of the top piece count that
/// a slice reads through its promotions are held as their files (a block decoded a look-up) and
/// the others dropped and read again; the files written are byte for byte those of a build that
/// holds everything decoded. Russian to 4 pieces (its 4-piece men slices promote into 4-piece
/// king slices).
#[test]
fn a_build_reading_packed_slices_writes_the_same_files() {
    let roomy = temp_dir("roomy");
    let tight = temp_dir("tight");
    build_all::<RussianRules>(&roomy, 4, 2, 1 << 30, None, &mut |_| {}).unwrap();
    build_all::<RussianRules>(&tight, 4, 2, 0, None, &mut |_| {}).unwrap();
    let mut files = 0;
    for entry in std::fs::read_dir(roomy.join("russian")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        let a = std::fs::read(&path).unwrap();
        let b = std::fs::read(tight.join("russian").join(name)).unwrap();
        assert!(a == b, "{name:?} differs");
        files += 1;
    }
    assert_eq!(files, Material::all_up_to(4).len());
    let _ = std::fs::remove_dir_all(&roomy);
    let _ = std::fs::remove_dir_all(&tight);
}

// ---------------------------------------------------------------------------------------------
// Files that are missing, special or crafted
// ---------------------------------------------------------------------------------------------

/// Runs `tempo ARGS`, killing it and failing after `secs` seconds (a blocked `open` would hang
/// the test otherwise); returns its exit success and standard error.
fn tempo_within(args: &[&str], secs: u64) -> (bool, String) {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed().as_secs() >= secs {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tempo {args:?} still running after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let mut err = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    (status.success(), err)
}

/// A copy of `dir`'s tables of `variant` in a fresh directory.
fn copy_tables(dir: &Path, variant: &str, tag: &str) -> PathBuf {
    let copy = temp_dir(tag);
    std::fs::create_dir_all(copy.join(variant)).unwrap();
    for f in std::fs::read_dir(dir.join(variant)).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, copy.join(variant).join(f.file_name().unwrap())).unwrap();
    }
    copy
}

const KK: Material = Material {
    wm: 0,
    wk: 1,
    bm: 0,
    bk: 1,
};

/// Issue 53 item 3: a table file that is a FIFO is refused at once, never opened for a blocking
/// read: Hub answers `ping` and UCI `isready` after an error naming the file, and `egdb probe`,
/// `search --egdb` and `egdb build` exit with an error.
#[test]
fn a_fifo_table_file_is_refused_at_once() {
    let (dir, _) = built::<EnglishRules>("fifo-src", 2);
    let bad = copy_tables(&dir, "english", "fifo");
    let path = registry::slice_path(&bad, "english", KK);
    std::fs::remove_file(&path).unwrap();
    let Ok(made) = std::process::Command::new("mkfifo").arg(&path).status() else {
        return;
    };
    assert!(made.success());
    let quick = std::time::Duration::from_secs(5);
    let mut e = common::Engine::start(&["hub"]);
    e.send("set-param name=variant value=english");
    e.send(&format!("set-param name=egdb-dir value={}", bad.display()));
    e.send("ping");
    let (_, line, _) = e.until_at(quick, |l| l.starts_with("error"));
    assert!(line.contains("0101") && line.contains("FIFO"), "{line}");
    e.until_at(quick, |l| l == "pong");
    e.send("quit");
    assert_eq!(e.wait_exit(quick).0, Some(0));
    let mut e = common::Engine::start(&["uci"]);
    e.send("setoption name UCI_Variant value english");
    e.send(&format!("setoption name EGDB_Path value {}", bad.display()));
    e.send("isready");
    let (_, line, _) = e.until_at(quick, |l| l.starts_with("info string error"));
    assert!(line.contains("0101") && line.contains("FIFO"), "{line}");
    e.until_at(quick, |l| l == "readyok");
    e.send("quit");
    assert_eq!(e.wait_exit(quick).0, Some(0));
    let d = bad.display().to_string();
    for args in [
        vec!["egdb", "probe", "-v", "english", "--dir", &d, "W:WK1:BK32"],
        vec![
            "search",
            "-v",
            "english",
            "--fen",
            "W:WK1:BK32",
            "--depth",
            "2",
            "--egdb",
            &d,
        ],
        vec![
            "egdb", "build", "-v", "english", "-p", "2", "--dir", &d, "-t", "1",
        ],
        vec![
            "egdb", "verify", "-v", "english", "-p", "2", "--dir", &d, "-t", "1",
        ],
    ] {
        let (ok, err) = tempo_within(&args, 20);
        assert!(!ok, "{args:?}: {err}");
        assert!(err.contains("0101") && err.contains("FIFO"), "{args:?}: {err}");
    }
}

/// Issue 53 item 7: a missing slice file is named: `verify` no longer blames a sound slice whose
/// successors lie in it, `probe` and the loaders say which file keeps the tables from covering
/// more pieces, and a file that is a link to itself is an error naming it.
#[test]
fn a_missing_slice_file_is_named() {
    let (dir, _) = built::<RussianRules>("missing-src", 3);
    let bad = copy_tables(&dir, "russian", "missing");
    let path = registry::slice_path(&bad, "russian", KK);
    std::fs::remove_file(&path).unwrap();
    let err = verify_all::<RussianRules>(&bad, 3, 2, None, &mut |_| {}).unwrap_err();
    assert!(
        err.contains("0101.egdb") && err.contains("missing") && !err.contains("disagree"),
        "{err}"
    );
    let t = registry::load::<RussianRules>(&bad, 3).unwrap();
    assert_eq!(t.pieces, 0);
    assert!(
        t.why_not_more().contains("0101.egdb is missing"),
        "{}",
        t.why_not_more()
    );
    let d = bad.display().to_string();
    let (ok, err) = tempo_within(
        &["egdb", "probe", "-v", "russian", "--dir", &d, "W:WK1,K2:BK32"],
        20,
    );
    assert!(!ok && err.contains("0101.egdb is missing"), "{err}");
    // The engine says why the tables are off.
    let mut e = common::Engine::start(&["hub"]);
    e.send("set-param name=variant value=russian");
    e.send(&format!("set-param name=egdb-dir value={d}"));
    let (line, _) = e.until("error");
    assert!(
        line.contains("0101.egdb is missing") && line.contains("off"),
        "{line}"
    );
    e.send("quit");
    // A link to itself is there but cannot be read: an error naming it.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&path, &path).unwrap();
        let err = registry::load::<RussianRules>(&bad, 3)
            .err()
            .expect("a link loop is refused");
        assert!(err.contains("0101.egdb"), "{err}");
        let err = verify_all::<RussianRules>(&bad, 3, 2, None, &mut |_| {}).unwrap_err();
        assert!(err.contains("0101.egdb") && !err.contains("disagree"), "{err}");
    }
}

/// Issue 53 item 7: a block whose tag was changed from runs to raw, with the checksum recomputed,
/// is an error of `verify` and of decoding, not a panic (index out of bounds in `decode_all`).
#[test]
fn a_crafted_block_is_an_error_not_a_panic() {
    let (dir, _) = built::<RussianRules>("crafted-src", 3);
    let bad = copy_tables(&dir, "russian", "crafted");
    let name = "russian";
    // Header: magic 8, name length 1 + name, material 4, indices 8, width 1, block size 4,
    // block count 4, largest code 2; then the block offsets and the payload.
    let n = name.len();
    let mut crafted = None;
    for m in Material::all_up_to(3) {
        let path = registry::slice_path(&bad, name, m);
        let mut bytes = std::fs::read(&path).unwrap();
        let width = usize::from(bytes[21 + n]);
        let u32_at = |b: &[u8], i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as usize;
        let blocks = u32_at(&bytes, 26 + n);
        let offsets = 32 + n;
        let payload = offsets + 4 * (blocks + 1);
        // A whole block (not the last) stored as runs, shorter than its raw codes.
        let Some(b) = (0..blocks.saturating_sub(1)).find(|&b| {
            let (lo, hi) = (
                u32_at(&bytes, offsets + 4 * b),
                u32_at(&bytes, offsets + 4 * b + 4),
            );
            bytes[payload + lo] == 1 && hi - lo < 1 + 1024 * width
        }) else {
            continue;
        };
        let lo = u32_at(&bytes, offsets + 4 * b);
        bytes[payload + lo] = 0;
        let body = bytes.len() - 4;
        let crc = tempo::egdb::file::crc32(&bytes[..body]);
        bytes[body..].copy_from_slice(&crc.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        crafted = Some(m);
        break;
    }
    let m = crafted.expect("a slice with a block stored as runs");
    let f = registry::read_slice::<RussianRules>(&bad, m).expect("the checksum is sound");
    assert!(f.decode_all().is_err());
    drop(f);
    let err = verify_all::<RussianRules>(&bad, 3, 2, None, &mut |_| {}).unwrap_err();
    assert!(err.contains(&m.name()) && err.contains("block"), "{err}");
}

/// Issue 53 item 10: `egdb build --threads` is capped as `selfplay --threads` is, and `egdb
/// sample --value` takes only the values it knows, naming them.
#[test]
fn egdb_settings_out_of_range_are_refused() {
    let dir = temp_dir("settings");
    let d = dir.display().to_string();
    let (ok, err) = tempo_within(
        &[
            "egdb",
            "build",
            "-v",
            "english",
            "-p",
            "2",
            "--dir",
            &d,
            "--threads",
            "100000",
        ],
        20,
    );
    assert!(!ok && err.contains("--threads") && err.contains("1024"), "{err}");
    let (ok, err) = tempo_within(
        &[
            "egdb", "sample", "-v", "english", "-p", "2", "--dir", &d, "--value", "bogus",
        ],
        20,
    );
    assert!(
        !ok && err.contains("bogus") && err.contains("win") && err.contains("loss"),
        "{err}"
    );
}

/// A variant change whose book cannot be had (`book=true`, and no book ships for Italian) still
/// loads the new variant's tables: the failure of one setting used to skip the others, and the
/// search then played without them. The refused book is off afterwards (`param name=book
/// value=false`), so that a later variant with a book does not take it up unasked. Hub and UCI.
#[test]
fn a_refused_book_on_a_variant_change_keeps_the_tables() {
    use tempo::draughts::Italian;
    use tempo::draughts::rules::ItalianRules;
    use tempo::protocol::hub::parse_line;
    let (dir, t) = built::<ItalianRules>("variant-book", 3);
    build_all::<EnglishRules>(&dir, 2, 2, 1 << 30, None, &mut |_| {}).unwrap();
    // Two kings against one: a win the tables know and a shallow search does not see.
    let fen = "W:WK1,K2:BK32";
    let pos = Italian::from_fen(fen).unwrap();
    assert!(
        matches!(
            Value::of(solve::<ItalianRules, Tables>(&t, &pos).unwrap()),
            Value::Win(_)
        ),
        "{fen} is no table win"
    );

    let mut e = common::Engine::start(&["hub"]);
    e.send("hub");
    e.until("wait");
    e.send("set-param name=variant value=english");
    e.send("set-param name=book value=true");
    e.send(&format!("set-param name=egdb-dir value={}", dir.display()));
    e.send("ping");
    let (_, before) = e.until("pong");
    assert!(before.is_empty(), "{before:?}");
    e.send("set-param name=variant value=italian");
    e.send("ping");
    let (_, before) = e.until("pong");
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("error") && l.contains("no book ships for italian")),
        "{before:?}"
    );
    // The tables load in the background: a few tries while they come in.
    let mut score = String::new();
    for _ in 0..50 {
        e.send(&format!("pos pos={fen}"));
        e.send("level depth=2");
        e.send("go analyze");
        let (_, info) = e.until("done");
        let last = info.iter().rev().find(|l| l.starts_with("info")).unwrap();
        score = parse_line(last).unwrap().get("score").unwrap().to_string();
        if score.parse::<f64>().unwrap() > 99.0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(
        score.parse::<f64>().unwrap() > 99.0,
        "score {score}: searched without the tables"
    );
    e.send("hub");
    let (_, params) = e.until("wait");
    assert!(
        params
            .iter()
            .any(|l| l.starts_with("param name=book value=false ")),
        "{params:?}"
    );
    e.send("set-param name=variant value=english");
    e.send("pos start");
    e.send("level depth=1");
    e.send("go think");
    let (_, info) = e.until("done");
    assert!(!info.iter().any(|l| l.contains("book=true")), "{info:?}");
    e.send("quit");

    let mut u = common::Engine::start(&["uci"]);
    u.send("uci");
    u.until("uciok");
    u.send("setoption name UCI_Variant value english");
    u.send("setoption name OwnBook value true");
    u.send(&format!("setoption name EGDB_Path value {}", dir.display()));
    u.send("isready");
    u.until("readyok");
    u.send("setoption name UCI_Variant value italian");
    let (err, _) = u.until("info string error");
    assert!(err.contains("no book ships for italian"), "{err}");
    // The new variant's tables load in the background and say so when they are in.
    let (line, _) = u.until("info string egdb italian");
    assert!(line.contains("up to 3 pieces loaded"), "{line}");
    u.send("setoption name UCI_Variant value english");
    u.send("position startpos");
    u.send("go depth 1");
    let (_, before) = u.until("bestmove");
    assert!(!before.iter().any(|l| l.contains("book move")), "{before:?}");
    u.send("quit");
}
