//! Sixteen Soldiers: the board graph, rules tests named by their decision (rules.md D-S1..D-S5),
//! comparison with the simple twin (`tests/simple/sixteen.rs`) by perft and move for move over
//! random positions, and random games played to their end through the `Game` trait.

#[path = "simple/sixteen.rs"]
mod simple;

use std::collections::HashMap;
use tempo::game::{Duplicates, Game, MoveList, MoveStyle, Outcome, Repetition, Side};
use tempo::games::Sixteen;
use tempo::games::graph::NONE;
use tempo::games::sixteen::{BOARD, point_name};
use tempo::perft::perft;
use tempo::zobrist::splitmix;

fn pos(fen: &str) -> Sixteen {
    Sixteen::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn huffing(mut p: Sixteen) -> Sixteen {
    p.set_option("huffing", "true").unwrap();
    p
}

fn moves(p: &Sixteen) -> Vec<String> {
    let mut list = MoveList::new();
    p.generate(&mut list);
    let mut v: Vec<String> = list.iter().map(|m| p.format_move(m, MoveStyle::Hub)).collect();
    v.sort();
    v
}

fn play(p: &Sixteen, mv: &str) -> Sixteen {
    let m = p
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} in {}: {e}", p.to_fen()));
    p.play(&m)
}

/// The fast generator's moves as (Hub text, FEN after), sorted, for comparison with the twin.
fn fast_moves(p: &Sixteen, dup: Duplicates) -> Vec<(String, String)> {
    let mut list = MoveList::new();
    p.generate_with(dup, &mut list);
    let mut v: Vec<(String, String)> = list
        .iter()
        .map(|m| (p.format_move(m, MoveStyle::Hub), p.play(m).to_fen()))
        .collect();
    v.sort();
    v
}

#[test]
fn board_has_37_points_76_edges_112_leaps() {
    assert_eq!(BOARD.len, 37);
    assert_eq!(BOARD.edges(), 76);
    assert_eq!(BOARD.leaps(), 112);
}

#[test]
fn neighbours_and_lines_are_symmetric_and_match_the_rules_text() {
    let edges = simple::edges();
    let mut pts = simple::points();
    pts.sort();
    let mut ours = BOARD.coords[..BOARD.len].to_vec();
    ours.sort();
    assert_eq!(pts, ours, "the points of the rules text");
    let mut count = 0;
    for p in 0..BOARD.len {
        for d in 0..BOARD.dirs {
            let back = BOARD.opposite(d);
            let q = BOARD.next[p][d];
            if q != NONE {
                assert_eq!(BOARD.next[q as usize][back] as usize, p, "edge {p} {d}");
                assert!(edges.contains(&(BOARD.coords[p], BOARD.coords[q as usize])));
                count += 1;
            }
            let c = BOARD.beyond[p][d];
            if c != NONE {
                assert_eq!(BOARD.beyond[c as usize][back] as usize, p, "line {p} {d}");
                assert_eq!(BOARD.next[c as usize][back], q, "line through the neighbour");
            }
        }
    }
    assert_eq!(count, edges.len(), "every edge of the rules text is in the graph");
}

#[test]
fn start_position_and_names() {
    let p = Sixteen::start();
    assert_eq!(
        p.to_fen(),
        "W:Wa1,c1,e1,b2,c2,d2,a3,b3,c3,d3,e3,a4,b4,c4,d4,e4:Ba6,b6,c6,d6,e6,a7,b7,c7,d7,e7,b8,c8,d8,a9,c9,e9"
    );
    assert_eq!(point_name(0), "a1");
    assert_eq!(point_name(36), "e9");
    assert_eq!(moves(&p).len(), 9);
    assert_eq!(Sixteen::from_hub(&p.to_hub()).unwrap(), p);
    assert_eq!(p.material(), 0);
}

#[test]
fn d_s1_jumped_pieces_leave_at_once_and_the_start_point_is_free() {
    // a3 jumps b3 (to c3), then c4 (to c5), then b4 (to a3, its own start point), which only
    // works because the start point is empty during the sequence.
    let p = pos("W:Wa3:Bb3,b4,c4,e9");
    assert!(
        moves(&p).contains(&"a3xa3xb3xb4xc4".to_string()),
        "{:?}",
        moves(&p)
    );
    // The twin comparison (below) checks landings on points vacated earlier in the turn.
}

#[test]
fn d_s2_south_moves_first() {
    assert_eq!(Sixteen::start().side_to_move(), Side::White);
    let p = Sixteen::start();
    for m in moves(&p) {
        let from = &m[..2];
        assert!(from.ends_with('4'), "{m}");
    }
}

#[test]
fn d_s3_strict_captures_are_compulsory_and_continued_with_free_choice() {
    // c3 can take c4 or b3 (free choice, no majority), and must continue while it can.
    let p = pos("W:Wc3,e1:Bc4,b3,a5,e9");
    assert_eq!(moves(&p), vec!["c3xa3xb3", "c3xc5xc4"]);
    // Continued: after c3xc5 taking c4, a5 is not in line; with b6 beyond... a further capture.
    let p = pos("W:Wc3,e1:Bc4,c6,e9");
    assert_eq!(moves(&p), vec!["c3xc7xc4xc6"]);
}

#[test]
fn d_s3_huffing_allows_quiet_moves_and_the_opponent_huffs() {
    let p = huffing(pos("W:Wc3,e1:Bc4,e9"));
    let ms = moves(&p);
    assert!(ms.contains(&"c3xc5xc4".to_string()));
    assert!(ms.contains(&"e1-d2".to_string()));
    // White ignores the capture: Black begins by huffing c3 (the only piece that could capture).
    let after = play(&p, "e1-d2");
    assert_eq!(after.to_fen(), "B:Wd2,c3:Bc4,e9:H1:Xc3");
    let bm = moves(&after);
    assert!(!bm.is_empty());
    assert!(bm.iter().all(|m| m.starts_with("c3*")), "{bm:?}");
    let huffed = play(&after, "c3*e9-d8");
    assert_eq!(huffed.pieces(Side::White).count_ones(), 1);
    assert_eq!(huffed.quiet_plies(), 0);
    // The piece that could capture and moved is huffed where it now stands.
    let after = play(&p, "c3-b3");
    assert_eq!(after.to_fen(), "B:We1,b3:Bc4,e9:H1:Xb3");
    // Strict play (the default) never offers the quiet move.
    assert_eq!(moves(&pos("W:Wc3,e1:Bc4,e9")), vec!["c3xc5xc4"]);
    // A huff that removes the last enemy piece is the whole move, written `c3*`.
    let last = huffing(pos("B:Wc3:Be9:Xc3"));
    assert_eq!(moves(&last), vec!["c3*"]);
    assert_eq!(play(&last, "c3*").outcome(), Some(Outcome::Win(Side::Black)));
}

#[test]
fn d_s4_no_piece_or_no_move_loses() {
    assert_eq!(pos("W:W:Be9").outcome(), Some(Outcome::Win(Side::Black)));
    // a1 is boxed in: b2 and c1 are black and the points beyond are occupied.
    let p = pos("W:Wa1:Bb2,c1,c3,e1");
    assert!(moves(&p).is_empty());
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::Black)));
    assert_eq!(Sixteen::start().outcome(), None);
}

#[test]
fn d_s5_house_draw_rules_are_switchable() {
    let mut p = pos("W:Wa1:Be9:H100");
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert_eq!(pos("W:Wa1:Be9:H99").outcome(), None);
    p.set_option("no-capture-draw", "false").unwrap();
    assert_eq!(p.outcome(), None);
    assert_eq!(p.repetition(), Repetition::Draw(3));
    p.set_option("repetition-draw", "false").unwrap();
    assert_eq!(p.repetition(), Repetition::Ignored);
    assert!(p.set_option("huffing", "maybe").is_err());
    assert!(p.set_option("colour", "true").is_err());
    // The counter counts plies and is reset by a capture.
    let q = play(&pos("W:Wa1:Be9:H7"), "a1-b2");
    assert_eq!(q.quiet_plies(), 8);
    assert_eq!(play(&pos("W:Wc3:Bc4,e9:H7"), "c3xc5").quiet_plies(), 0);
}

#[test]
fn notation_and_errors() {
    let p = pos("W:Wa3:Bb3,b4,c4,e9");
    // A landing path and the Hub form name the same move.
    let m = p.parse_move("a3xc3xc5xa3").unwrap();
    assert_eq!(p.parse_move("a3xa3xc4xb3xb4").unwrap(), m);
    assert!(matches!(
        p.parse_move("a3-a4"),
        Err(tempo::game::MoveError::Illegal(_))
    ));
    assert!(matches!(
        p.parse_move("z9-a4"),
        Err(tempo::game::MoveError::Syntax(_))
    ));
    assert!(matches!(p.parse_move(""), Err(tempo::game::MoveError::Syntax(_))));
    for bad in [
        "",
        "W",
        "W:Wa1",
        "W:Wa1:Ba1",
        "X:Wa1:Be9",
        "W:Wa1:Bz9",
        "W:Wa1:Be9:Xa1",
        "W:Wa1:Be9:Hx",
    ] {
        assert!(Sixteen::from_fen(bad).is_err(), "{bad}");
    }
    assert!(Sixteen::from_hub("W").is_err());
}

#[test]
fn perft_agrees_with_the_simple_twin() {
    let start = Sixteen::start();
    let fen = start.to_fen();
    let mut counts = Vec::new();
    for (dup, keep) in [(Duplicates::Merge, false), (Duplicates::Keep, true)] {
        for d in 1..=8 {
            let fast = perft(&start, d, dup);
            if d <= 7 {
                assert_eq!(fast, simple::perft(&fen, d, false, keep), "depth {d} {dup:?}");
            }
            counts.push(fast);
        }
    }
    assert_eq!(
        counts,
        [
            9, 21, 65, 323, 1798, 9320, 55774, 349546, 9, 21, 65, 323, 1804, 9406, 56624, 359122
        ]
    );
}

#[test]
fn perft_depth_8_agrees_with_the_simple_twin() {
    let start = Sixteen::start();
    for (dup, keep) in [(Duplicates::Merge, false), (Duplicates::Keep, true)] {
        assert_eq!(
            perft(&start, 8, dup),
            simple::perft(&start.to_fen(), 8, false, keep)
        );
    }
}

/// Compares the generator with the twin at positions reached by random play.
fn compare_random_positions(target: usize, huff: bool) {
    let mut seed = splitmix(0x5117 ^ u64::from(huff));
    let mut done = 0;
    while done < target {
        let mut p = Sixteen::start();
        p.set_option("huffing", if huff { "true" } else { "false" })
            .unwrap();
        for _ in 0..200 {
            let fen = p.to_fen();
            for (dup, keep) in [(Duplicates::Merge, false), (Duplicates::Keep, true)] {
                assert_eq!(fast_moves(&p, dup), simple::moves(&fen, huff, keep), "{fen}");
            }
            done += 1;
            let mut list = MoveList::new();
            p.generate(&mut list);
            if list.is_empty() || done >= target {
                break;
            }
            seed = splitmix(seed);
            p = p.play(&list[(seed % list.len() as u64) as usize]);
        }
    }
}

#[test]
fn moves_agree_with_the_simple_twin_at_10000_random_positions() {
    compare_random_positions(10_000, false);
    compare_random_positions(10_000, true);
}

/// Plays random games to their end through the `Game` trait; returns the plies played.
fn random_games(games: u64, huff: bool) -> u64 {
    let mut plies = 0;
    let mut list = MoveList::new();
    for g in 0..games {
        let mut seed = splitmix(g ^ 0x16 ^ (u64::from(huff) << 40));
        let mut p = Sixteen::start();
        p.set_option("huffing", if huff { "true" } else { "false" })
            .unwrap();
        let mut seen: HashMap<u64, u32> = HashMap::new();
        let mut ended = false;
        for _ in 0..10_000 {
            assert_eq!(p.key(), p.key_from_scratch(), "{}", p.to_fen());
            let (w, b) = (p.pieces(Side::White), p.pieces(Side::Black));
            assert!(w.count_ones() <= 16 && b.count_ones() <= 16 && w & b == 0);
            let n = seen.entry(p.key()).or_insert(0);
            *n += 1;
            if *n >= 3 {
                ended = true; // D-S5: threefold repetition
                break;
            }
            if let Some(o) = p.outcome() {
                if let Outcome::Win(s) = o {
                    let loser = s.opponent();
                    p.generate(&mut list);
                    assert!(p.pieces(loser) == 0 || list.is_empty());
                }
                ended = true;
                break;
            }
            p.generate(&mut list);
            seed = splitmix(seed);
            let m = list[(seed % list.len() as u64) as usize];
            let before = (p.pieces(Side::White) | p.pieces(Side::Black)).count_ones();
            let next = p.play(&m);
            let after = (next.pieces(Side::White) | next.pieces(Side::Black)).count_ones();
            let removed = m.captured.count_ones() + u32::from(m.huff != NONE);
            assert_eq!(before, after + removed, "pieces add up");
            p = next;
            plies += 1;
        }
        assert!(ended, "game {g} did not end by a rule");
    }
    plies
}

#[test]
fn random_games_10000_end_by_a_rule_with_consistent_positions() {
    assert!(random_games(10_000, false) + random_games(10_000, true) > 100_000);
}
