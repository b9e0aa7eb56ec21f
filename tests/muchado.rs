//! MuchADo: the hex board graph, rules tests named by their decision (rules.md D-M1..D-M10),
//! comparison with the simple twin (`tests/simple/muchado.rs`) by perft and move for move over
//! random positions, and random games played to their end through the `Game` trait.

#[path = "simple/muchado.rs"]
mod simple;

use std::collections::HashMap;
use tempo::game::{Duplicates, Game, MoveList, MoveStyle, Outcome, Repetition, Side};
use tempo::games::MuchAdo;
use tempo::games::graph::NONE;
use tempo::games::muchado::{BOARD, cell_name};
use tempo::perft::perft;
use tempo::zobrist::splitmix;

fn pos(fen: &str) -> MuchAdo {
    MuchAdo::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(p: &MuchAdo) -> Vec<String> {
    let mut list = MoveList::new();
    p.generate(&mut list);
    let mut v: Vec<String> = list.iter().map(|m| p.format_move(m, MoveStyle::Hub)).collect();
    v.sort();
    v
}

fn play(p: &MuchAdo, mv: &str) -> MuchAdo {
    let m = p
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} in {}: {e}", p.to_fen()));
    p.play(&m)
}

fn fast_moves(p: &MuchAdo, dup: Duplicates) -> Vec<(String, String)> {
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
fn neighbours_and_lines_are_symmetric_and_match_the_rules_text() {
    let mut cells = simple::cells();
    cells.sort();
    let mut ours = BOARD.coords[..BOARD.len].to_vec();
    ours.sort();
    assert_eq!(cells, ours);
    for p in 0..BOARD.len {
        for d in 0..BOARD.dirs {
            let back = BOARD.opposite(d);
            let q = BOARD.next[p][d];
            let (f, r) = BOARD.coords[p];
            let (df, dr) = BOARD.dir_vectors[d];
            assert_eq!(q != NONE, simple::exists((f + df, r + dr)));
            if q != NONE {
                assert_eq!(BOARD.next[q as usize][back] as usize, p);
            }
            let c = BOARD.beyond[p][d];
            if c != NONE {
                assert_eq!(BOARD.beyond[c as usize][back] as usize, p);
                assert_eq!(BOARD.next[q as usize][d], c);
            }
        }
    }
    assert_eq!(BOARD.edges(), 90);
}

#[test]
fn d_m4_start_position_white_on_ranks_1_2_moves_first() {
    let p = MuchAdo::start();
    assert_eq!(p.side_to_move(), Side::White);
    assert_eq!(
        p.to_fen(),
        "W:Wa1,b1,c1,d1,a2,b2,c2,d2,e2:Bc6,d6,e6,f6,g6,d7,e7,f7,g7:R4,4"
    );
    assert_eq!(MuchAdo::from_hub(&p.to_hub()).unwrap(), p);
    assert_eq!(cell_name(0), "a1");
    assert_eq!(cell_name(36), "g7");
    // 10 forward steps from rank 2, 8 pushes from rank 1.
    let ms = moves(&p);
    assert_eq!(ms.len(), 18);
    assert_eq!(ms.iter().filter(|m| m.contains('>')).count(), 8);
    assert_eq!(p.material(), 0);
}

#[test]
fn d_m1_no_swap_on_the_movers_promotion_row_and_soldiers_push_soldiers_only() {
    // d7 is on White's promotion row: no swap with it; the step to e7 stays.
    assert_eq!(moves(&pos("W:Wd6:Bd7,a1:R0,0")), vec!["d6-e7"]);
    // Off that row the swap is legal.
    assert!(moves(&pos("W:Wd5:Bd6,d7,a1:R0,0")).contains(&"d5<>d6".to_string()));
    // A friendly king in front is not pushed forward.
    let ms = moves(&pos("W:Wa1,Ka2:Bg7:R0,0"));
    assert!(!ms.contains(&"a1>a2".to_string()), "{ms:?}");
    // The threesome push needs a friendly soldier, not a king, beyond the enemy soldier.
    assert!(moves(&pos("W:Wa1,a3:Ba2,g7:R0,0")).contains(&"a1>>a2".to_string()));
    assert!(!moves(&pos("W:Wa1,Ka3:Ba2,g7:R0,0")).contains(&"a1>>a2".to_string()));
    let after = play(&pos("W:Wa1,a3:Ba2,g7:R0,0"), "a1>>a2");
    assert_eq!(after.to_fen(), "B:Wa2,a4:Ba3,g7:R0,0");
}

#[test]
fn d_m2_pushes_swaps_threesomes_and_sideways_steps_never_promote() {
    let after = play(&pos("W:Wd5,d6:Bg4:R4,0"), "d5>d6");
    assert_eq!(after.to_fen(), "B:Wd6,d7:Bg4:R4,0");
    let after = play(&pos("W:Wd7:Ba1:R4,0"), "d7-e7");
    assert_eq!(after.kings(), 0);
    // A plain step onto the row promotes with a stone, and stays a soldier without one.
    assert_eq!(play(&pos("W:Wd6:Ba1:R4,0"), "d6-d7").to_fen(), "B:WKd7:Ba1:R3,0");
    assert_eq!(play(&pos("W:Wd6:Ba1:R0,0"), "d6-d7").to_fen(), "B:Wd7:Ba1:R0,0");
}

#[test]
fn d_m3_no_king_capture_with_a_full_reserve() {
    assert!(!moves(&pos("W:Wc3:BKc4,a1:R8,0")).iter().any(|m| m.contains('x')));
    let after = play(&pos("W:Wc3:BKc4,a1:R7,0"), "c3xc5");
    assert_eq!(after.to_fen(), "B:Wc4,c5:Ba1:R8,0");
    assert_eq!(after.reserve(Side::White), 8);
}

#[test]
fn d_m5_promotion_ends_capture() {
    // With a stone the capture onto d7 promotes and ends there (e7 stays black).
    assert_eq!(moves(&pos("W:Wd5:Bd6,e7,a1:R1,0")), vec!["d5xd7xd6"]);
    assert_eq!(
        play(&pos("W:Wd5:Bd6,e7,a1:R1,0"), "d5xd7").to_fen(),
        "B:Wd6,Kd7:Ba1,e7:R0,0"
    );
    // Without a stone the soldier goes on capturing along the row.
    assert_eq!(moves(&pos("W:Wd5:Bd6,e7,a1:R0,0")), vec!["d5xf7xd6xe7"]);
    // Maximal over all pieces: a two-jump sequence elsewhere makes the promoting one illegal.
    assert_eq!(moves(&pos("W:Wd5,a2:Bd6,e7,a3,b4:R1,0")), vec!["a2xc4xa3xb4"]);
}

#[test]
fn d_m6_third_occurrence_loses_for_the_mover_and_reserves_count() {
    let p = MuchAdo::start();
    assert_eq!(p.repetition(), Repetition::LossForMover(3));
    assert_ne!(pos("W:Wa1:Bg7:R1,0").key(), pos("W:Wa1:Bg7:R0,0").key());
    assert_ne!(pos("W:Wa1:Bg7:R0,1").key(), pos("W:Wa1:Bg7:R0,0").key());
    assert_ne!(pos("W:Wa1:Bg7:R0,0").key(), pos("B:Wa1:Bg7:R0,0").key());
}

#[test]
fn d_m7_and_d_m8_same_start_end_and_jumped_cells_are_one_move_and_the_start_is_free() {
    // The king on c3 takes d3, e4, d4 in either order and lands back on its start cell, which it
    // left empty (D-M8); the two paths are one move (D-M7).
    let p = pos("W:WKc3:Bd3,d4,e4,g7:R4,4");
    assert_eq!(moves(&p), vec!["c3xc3xd3xd4xe4"]);
    assert_eq!(p.count_moves(Duplicates::Merge), 1);
    assert_eq!(p.count_moves(Duplicates::Keep), 2);
    assert_eq!(play(&p, "c3xc3").to_fen(), "B:WKc3,d3,d4,e4:Bg7:R4,4");
    // A flipped piece blocks at once: after b4xd4 the king cannot come back over c4.
    let p = pos("W:WKb4:Bc4,g7:R4,4");
    assert_eq!(moves(&p), vec!["b4xd4xc4"]);
}

#[test]
fn d_m9_kings_slide_on_four_lines_and_capture_on_six() {
    let p = pos("W:WKd4:Ba1:R0,0");
    let ms = moves(&p);
    assert_eq!(ms.len(), 11, "{ms:?}"); // d5-d7, e5-g7, d3-d1, c3-b2 (a1 is black)
    assert!(ms.iter().all(|m| !m.ends_with('4')));
    // Sideways capture at a distance, landing right behind.
    assert_eq!(moves(&pos("W:WKa4:Be4:R0,0")), vec!["a4xf4xe4"]);
    // A soldier on its promotion row pushing a friendly soldier sideways: one move.
    let ms = moves(&pos("W:Wd7,e7:Ba1:R0,0"));
    assert_eq!(ms.iter().filter(|m| *m == "d7>e7").count(), 1);
    assert!(moves(&pos("W:Wd7,Ke7:Ba1:R0,0")).contains(&"d7>e7".to_string()));
}

#[test]
fn d_m10_king_capture_onto_the_promotion_row_crowns_whatever_the_reserve() {
    for r in [0, 8] {
        let after = play(&pos(&format!("W:Wd5:BKd6,a1:R{r},0")), "d5xd7");
        assert_eq!(after.to_fen(), format!("B:Wd6,Kd7:Ba1:R{r},0"));
    }
    // A reserve that rose earlier in the sequence counts: 7 + 1 = 8 forbids the second king.
    assert_eq!(moves(&pos("W:Wa2:BKa3,Kb4,g7:R7,0")), vec!["a2xa4xa3"]);
    assert_eq!(moves(&pos("W:Wa2:BKa3,Kb4,g7:R6,0")), vec!["a2xc4xa3xb4"]);
}

#[test]
fn stalemate_loses_and_notation_errors() {
    // White's only soldier is on d7 with nothing to do; Black has a soldier elsewhere.
    // g7 on its promotion row: no stone to promote, f7 cannot be swapped (D-M1) nor jumped.
    let blocked = pos("W:Wg7:Ba1,e7,f7:R0,0");
    assert!(moves(&blocked).is_empty(), "{:?}", moves(&blocked));
    assert_eq!(blocked.outcome(), Some(Outcome::Win(Side::Black)));
    let s = MuchAdo::start();
    assert!(matches!(
        s.parse_move("a1-a9"),
        Err(tempo::game::MoveError::Syntax(_))
    ));
    assert!(matches!(
        s.parse_move("a2-a4"),
        Err(tempo::game::MoveError::Illegal(_))
    ));
    assert!(matches!(
        s.parse_move("a1>>a2"),
        Err(tempo::game::MoveError::Illegal(_))
    ));
    for bad in [
        "",
        "W:Wa1:Bg7",
        "W:Wa1:Ba1:R0,0",
        "W:Wa1:Bg7:R9,0",
        "W:Wa7:Bg7:R0,0",
        "W:Wa1:Bg7:R0",
    ] {
        assert!(MuchAdo::from_fen(bad).is_err(), "{bad}");
    }
    assert!(MuchAdo::from_hub("W").is_err());
}

#[test]
fn perft_agrees_with_the_simple_twin() {
    let start = MuchAdo::start();
    let fen = start.to_fen();
    let mut counts = Vec::new();
    for (dup, keep) in [(Duplicates::Merge, false), (Duplicates::Keep, true)] {
        for d in 1..=5 {
            let fast = perft(&start, d, dup);
            if d <= 4 {
                assert_eq!(fast, simple::perft(&fen, d, keep), "depth {d} {dup:?}");
            }
            counts.push(fast);
        }
    }
    assert_eq!(
        counts,
        [18, 324, 6012, 106554, 1864158, 18, 324, 6012, 106554, 1864158]
    );
}

#[test]
fn perft_depth_5_agrees_with_the_simple_twin() {
    let start = MuchAdo::start();
    for (dup, keep) in [(Duplicates::Merge, false), (Duplicates::Keep, true)] {
        assert_eq!(perft(&start, 5, dup), simple::perft(&start.to_fen(), 5, keep));
    }
}

fn compare_random_positions(target: usize) {
    let mut seed = splitmix(0x3AD0);
    let mut done = 0;
    while done < target {
        let mut p = MuchAdo::start();
        for _ in 0..300 {
            let fen = p.to_fen();
            for (dup, keep) in [(Duplicates::Merge, false), (Duplicates::Keep, true)] {
                assert_eq!(fast_moves(&p, dup), simple::moves(&fen, keep), "{fen}");
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
    compare_random_positions(10_000);
}

/// Plays random games to their end through the `Game` trait; returns the plies played.
fn random_games(games: u64) -> u64 {
    let mut plies = 0;
    let mut list = MoveList::new();
    for g in 0..games {
        let mut seed = splitmix(g ^ 0xADA);
        let mut p = MuchAdo::start();
        let mut seen: HashMap<u64, u32> = HashMap::new();
        let mut ended = false;
        for _ in 0..20_000 {
            assert_eq!(p.key(), p.key_from_scratch(), "{}", p.to_fen());
            let (w, b) = (p.pieces(Side::White), p.pieces(Side::Black));
            // Nothing leaves the board; stones on the board plus reserves stay 26.
            assert_eq!((w | b).count_ones(), 18, "{}", p.to_fen());
            let stones =
                18 + p.kings().count_ones() + u32::from(p.reserve(Side::White) + p.reserve(Side::Black));
            assert_eq!(stones, 26, "{}", p.to_fen());
            let n = seen.entry(p.key()).or_insert(0);
            *n += 1;
            if *n >= 3 {
                ended = true; // D-M6: the player who just moved loses
                break;
            }
            if let Some(o) = p.outcome() {
                assert_eq!(o, Outcome::Win(p.side_to_move().opponent()));
                ended = true;
                break;
            }
            p.generate(&mut list);
            seed = splitmix(seed);
            p = p.play(&list[(seed % list.len() as u64) as usize]);
            plies += 1;
        }
        assert!(ended, "game {g} did not end by a rule");
    }
    plies
}

#[test]
fn random_games_10000_end_by_a_rule_with_consistent_positions() {
    assert!(random_games(10_000) > 100_000);
}

#[test]
fn d_m7_merged_moves_are_distinct_and_kept_paths_are_copies() {
    // Find positions with several paths of one move by random play and check both policies.
    let mut seed = splitmix(7);
    let mut found = 0;
    for _ in 0..200 {
        let mut p = MuchAdo::start();
        for _ in 0..200 {
            let (m, k) = (
                fast_moves(&p, Duplicates::Merge),
                fast_moves(&p, Duplicates::Keep),
            );
            let mut dedup = k.clone();
            dedup.dedup();
            assert_eq!(dedup, m);
            found += usize::from(k.len() > m.len());
            let mut list = MoveList::new();
            p.generate(&mut list);
            if list.is_empty() {
                break;
            }
            seed = splitmix(seed);
            p = p.play(&list[(seed % list.len() as u64) as usize]);
        }
    }
    assert!(found > 0);
}
