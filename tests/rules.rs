//! Rules tests: each builds a position where one rule decides the legal moves, and names the article
//! or decision (rules.md) it checks.

use tempo::bits::Bits;
use tempo::draughts::{
    Antidraughts, Brazilian, Breakthrough, Canadian, Czech, English, Frisian, International, Italian, Killer,
    Pool, Portuguese, Russian, Spanish, Thai,
};
use tempo::draughts::{Armenian, Turkish};
use tempo::game::{Duplicates, Game, MoveList, MoveStyle, Outcome, Side};

fn moves<G: Game>(pos: &G) -> Vec<String> {
    let mut list = MoveList::new();
    pos.generate(&mut list);
    let mut v: Vec<String> = list.iter().map(|m| pos.format_move(m, MoveStyle::Hub)).collect();
    v.sort();
    v
}

fn pos<G: Game>(fen: &str) -> G {
    G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play<G: Game>(p: &G, mv: &str) -> G {
    let m = p
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{mv} in {}: {e}", p.to_fen()));
    p.play(&m)
}

#[test]
fn fmjd_4_13_majority_capture_is_compulsory() {
    // The man b2 can take c3 (one piece); the man g3 can take f4 and f6 (two). Only the sequence
    // taking the most pieces is legal.
    let p: International = pos("W:Wb2,g3:Bc3,f4,f6");
    assert_eq!(moves(&p), vec!["39x19x23x33"]);
}

#[test]
fn fmjd_4_14_king_has_no_priority_on_equal_count() {
    // The man c3 (37) can take d4 (32); the king j10 (5) can take i9 (10), landing on h8, g7, f6
    // or e5 (it stops before d4). Equal counts, free choice: the man's capture stays legal.
    let p: International = pos("W:Wc3,Kj10:Bd4,i9");
    assert_eq!(
        moves(&p),
        vec!["37x28x32", "5x14x10", "5x19x10", "5x23x10", "5x28x10"]
    );
}

#[test]
fn fmjd_4_8_capture_may_return_to_its_start_square_and_d_a1_merges_duplicates() {
    // The white man on e1 can take d2, d4, f4, f2 round the diamond in either direction and come
    // back to e1: start = end, the same captured set, so one move (D-A1) made of two paths.
    let p: International = pos("W:We1:Bd2,d4,f2,f4");
    assert_eq!(moves(&p).len(), 1, "{:?}", moves(&p));
    let m = &moves(&p)[0];
    let parts: Vec<&str> = m.split('x').collect();
    assert_eq!(parts[0], parts[1], "ends where it started: {m}");
    assert_eq!(parts.len(), 6);
    assert_eq!(p.count_moves(Duplicates::Merge), 1);
    assert_eq!(p.count_moves(Duplicates::Keep), 2);
}

#[test]
fn fmjd_4_15_man_passing_the_promotion_row_stays_a_man() {
    // White man c7 takes d8? No: it takes b8... Here: the man on 7 (c9) jumps 12 to land on 1?-
    // Built on coordinates: man c7 takes d8 to e9 (row 9), then e9 takes f8? That lands on g7.
    // Simpler: man on b8 jumps c9 to d10 (promotion row), then d10 jumps e9 back down to f8:
    // the move ends on f8, so the man is not crowned.
    let p: International = pos("W:Wb8:Bc9,e9");
    let m = moves(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    let after = play(&p, &m[0]);
    assert!(
        after.kings().is_empty(),
        "the man ended off the promotion row and stays a man"
    );
    // Ending on the row crowns it.
    let q: International = pos("W:Wb8:Bc9");
    let after = play(&q, &moves(&q)[0]);
    assert_eq!(after.kings().count(), 1);
}

#[test]
fn fsr_1_5_15_russian_man_crowned_during_capture_goes_on_as_king() {
    // White man e7 takes d8?? no: man c7 jumps d8? Build: man on b6 jumps c7 to d8 (promotion row),
    // is crowned there and, as a flying king, goes on to take the man on f6 (landing g5 or h4).
    let p: Russian = pos("W:Wb6:Bc7,f6");
    let m = moves(&p);
    assert!(!m.is_empty());
    for mv in &m {
        assert_eq!(mv.split('x').count() - 2, 2, "both pieces are taken: {mv}");
        let after = play(&p, mv);
        assert_eq!(after.kings().count(), 1, "crowned: {mv}");
    }
    // Two landing squares behind f6: g5 and h4.
    assert_eq!(m.len(), 2, "{m:?}");
    // In Brazilian (international rules) the man passing the row stays a man and cannot go on.
    let b: Brazilian = pos("W:Wb6:Bc7,f6");
    let m = moves(&b);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].split('x').count() - 2, 1);
}

#[test]
fn russian_3_3_turkish_strike_captured_pieces_block_until_the_move_ends() {
    // The king on b2 takes c3, e5, g5 and g3 and reaches e1 or f2. From e1 the line back to a5
    // passes c3, already taken but still on the board: it blocks, so b4 cannot be taken.
    let p: Russian = pos("W:WKb2:Bc3,e5,g5,g3,b4");
    let m = moves(&p);
    assert_eq!(m.len(), 2, "{m:?}");
    let b4 = "17";
    for mv in &m {
        assert_eq!(mv.split('x').count() - 2, 4, "{mv}");
        assert!(!mv.split('x').skip(2).any(|s| s == b4), "{mv}");
    }
}

#[test]
fn russian_3_3_free_choice_among_sequences() {
    // b2 can take c3 (one piece), g3 can take f4 and f6 (two): Russian rules leave the choice free
    // (no majority rule), so both are legal; Brazilian applies FMJD 4.13 to the same position.
    let p: Russian = pos("W:Wb2,g3:Bc3,f4,f6");
    assert_eq!(moves(&p), vec!["24x8x11x19", "25x18x22"]);
    let b: Brazilian = pos("W:Wb2,g3:Bc3,f4,f6");
    assert_eq!(moves(&b), vec!["24x8x11x19"]);
}

#[test]
fn russian_3_3_king_must_land_where_the_capture_goes_on() {
    // King a1 takes c3; of the squares behind it (d4 to h8) only e5 lets it go on, over f4 to g3
    // or h2, so it may not stop on d4, f6, g7 or h8: two legal moves, both taking two pieces.
    let p: Russian = pos("W:WKa1:Bc3,f4");
    let m = moves(&p);
    assert_eq!(m.len(), 2, "{m:?}");
    assert!(m.iter().all(|s| s.split('x').count() - 2 == 2), "{m:?}");
    let g3 = p.parse_move("a1:g3").unwrap();
    assert_eq!(p.format_move(&g3, MoveStyle::Standard), "a1:g3");
}

#[test]
fn english_men_capture_forward_only_and_kings_one_step() {
    // usacheckers: men capture forward only. White man 22 (c3) with a black man behind it on 26
    // (d2) and an empty square beyond has no capture.
    let p: English = pos("W:W22:B26,1");
    assert!(moves(&p).iter().all(|s| s.contains('-')), "{:?}", moves(&p));
    // A king captures one step away only: king 22 and a black man two squares away on the line.
    let k: English = pos("W:WK22:B15,1");
    assert!(moves(&k).iter().all(|s| s.contains('-')));
    let k: English = pos("W:WK22:B18,1");
    assert_eq!(moves(&k), vec!["22x15x18"]);
}

#[test]
fn english_man_reaching_the_king_row_ends_the_move() {
    // The man f6 takes e7 and lands on d8, the king row: it is crowned and the move ends, although
    // as a king it could now take c7.
    let p: English = pos("W:Wf6:Be7,c7");
    let m = moves(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].split('x').count() - 2, 1);
    assert_eq!(play(&p, &m[0]).kings().count(), 1);
}

#[test]
fn frisian_art_11_value_precedence() {
    // One king is worth more than one man (Art. 11): man 33 can take the man on 28 or the king on
    // 29 (via 34? no: 29 is diagonal from 34). White men 33 and 34; black man 28 and black king 30.
    let p: Frisian = pos("W:W33,35:B28,K30");
    let m = moves(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].ends_with("x30"), "{m:?}");
    // Two men are worth more than one king.
    let p: Frisian = pos("W:W33,35:B28,19,K30");
    let m = moves(&p);
    assert!(m.iter().all(|s| s.split('x').count() - 2 == 2), "{m:?}");
}

#[test]
fn frisian_art_12_king_priority_on_equal_value() {
    // The position of fmjd_4_14: man and king can each take one man. In Frisian the capture must
    // be made with the king.
    let p: Frisian = pos("W:Wc3,Kj10:Bd4,i9");
    assert_eq!(moves(&p), vec!["5x14x10", "5x19x10", "5x23x10", "5x28x10"]);
}

#[test]
fn frisian_art_7_men_capture_orthogonally() {
    // White man 33 takes the black man on 34 along the row (landing on 35), a capture along an
    // orthogonal line of dark squares, and the man on 23 along the column (landing on 13).
    let p: Frisian = pos("W:W33:B34");
    assert_eq!(moves(&p), vec!["33x35x34"]);
    let p: Frisian = pos("W:W33:B23");
    assert_eq!(moves(&p), vec!["33x13x23"]);
}

#[test]
fn frisian_art_7_a_man_capture_may_close_a_triangle_onto_its_start_square() {
    // Frisian Art. 7 (orthogonal captures) with FMJD 4.8 (the start square is empty during the
    // capture): three jumps can close a triangle, two diagonal and one vertical (e3 over f4, f6,
    // e5) or diagonal, horizontal, diagonal (e3 over d4, e5, f4), ending where the man started.
    // The bulk count must see the third jump although the start square looked occupied when the
    // jumps were found with shifts: it agrees with the move list, both ways of counting paths.
    for fen in ["W:We3:Bf4,f6,e5,a9", "W:We3:Bd4,e5,f4,a9"] {
        let p: Frisian = pos(fen);
        let m = moves(&p);
        assert!(
            m.iter().any(|mv| mv.starts_with("38x38x")),
            "{fen}: no capture back to e3 (38) in {m:?}"
        );
        assert!(
            m.iter().all(|mv| mv.split('x').count() == 5),
            "{fen}: three pieces each: {m:?}"
        );
        for dup in [Duplicates::Merge, Duplicates::Keep] {
            let mut list = MoveList::new();
            p.generate_with(dup, &mut list);
            assert_eq!(p.count_moves(dup), list.len() as u64, "{fen} {dup:?}");
        }
    }
}

#[test]
fn frisian_art_17_three_king_moves_then_the_king_must_rest() {
    // White has a king on 46 and a man on 50; Black only kings (so Black is never restricted).
    let mut p: Frisian = pos("W:WK46,50:BK1,K2");
    for (w, b) in [("46-41", "1-7"), ("41-46", "7-1"), ("46-41", "1-7")] {
        p = play(&p, w);
        p = play(&p, b);
    }
    // Three consecutive non-capturing moves with the king now on 41: it may not move again.
    let m = moves(&p);
    assert!(!m.iter().any(|s| s.starts_with("41-")), "{m:?}");
    assert!(m.iter().any(|s| s.starts_with("50-")), "{m:?}");
    // FEN carries the run (D-F3) and reads it back.
    assert!(p.to_fen().contains(":RW41=3"), "{}", p.to_fen());
    assert_eq!(Frisian::from_fen(&p.to_fen()).unwrap(), p);
    // A man move lifts the ban.
    p = play(&p, "50-45");
    p = play(&p, "7-1");
    assert!(moves(&p).iter().any(|s| s.starts_with("41-")));
}

#[test]
fn frisian_art_17_does_not_apply_with_kings_only() {
    let mut p: Frisian = pos("W:WK46:BK1,K2");
    for (w, b) in [
        ("46-41", "1-7"),
        ("41-46", "7-1"),
        ("46-41", "1-7"),
        ("41-46", "7-1"),
    ] {
        p = play(&p, w);
        p = play(&p, b);
    }
    assert!(moves(&p).iter().any(|s| s.starts_with("46-")));
}

#[test]
fn d_f3_positions_differ_by_king_run_in_key() {
    let a: Frisian = pos("W:WK46,50:BK1,K2");
    let b = play(&play(&play(&play(&a, "46-41"), "1-7"), "41-46"), "7-1");
    assert_eq!(a.to_hub(), b.to_hub(), "same pieces");
    assert_ne!(a.key(), b.key(), "but the king run differs");
}

// Italian, Spanish and Portuguese are played on the mirrored board: the dark squares are those with
// an even file + rank sum (b1, d1, ..., a2, c2, ...).

#[test]
fn italian_men_may_not_capture_kings() {
    // FID RegTec (dctl italian.hpp): a man never captures a king. The man c2 faces a king on d3
    // with e4 empty: no capture, so it simply moves.
    let p: Italian = pos("W:Wc2:BKd3");
    assert!(moves(&p).iter().all(|m| m.contains('-')), "{:?}", moves(&p));
    // The same square held by a man is taken.
    let p: Italian = pos("W:Wc2:Bd3");
    assert_eq!(moves(&p).len(), 1);
    assert!(moves(&p)[0].contains('x'));
}

#[test]
fn italian_precedence_capture_with_the_king_first() {
    // FID: equal numbers of pieces, so the capture must be made with the king: h3 (24) takes g4
    // (20) landing on f5 (15); the man c2 may not take d3.
    let p: Italian = pos("W:Wc2,Kh3:Bd3,g4");
    assert_eq!(moves(&p), vec!["24x15x20"]);
}

#[test]
fn italian_precedence_most_kings() {
    // FID: the king c4 can take the king b5 or the man d5 (one piece either way): it must take
    // the king.
    let p: Italian = pos("W:WKc4:BKb5,d5");
    let m = moves(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(play(&p, &m[0]).kings().count(), 1, "the black king is gone");
}

#[test]
fn spanish_precedence_most_pieces_then_most_kings() {
    // dctl spanish.hpp: one piece either way; taking the king (c2 over d3) beats taking the man
    // (g2 over f3).
    let p: Spanish = pos("W:Wc2,g2:BKd3,f3");
    let m = moves(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(play(&p, &m[0]).kings().is_empty());
    let q: Portuguese = pos("W:Wc2,g2:BKd3,f3");
    assert_eq!(moves(&q), m, "Portuguese rules are the Spanish rules");
}

#[test]
fn czech_a_king_capture_goes_first() {
    // dctl czech.hpp: the man a3 can take b4; the king h2 can take g3 (landing f4 .. b8). When a
    // king can capture, a king must: only the five king captures are legal.
    let p: Czech = pos("W:Wa3,Kh2:Bb4,g3");
    let m = moves(&p);
    assert_eq!(m.len(), 5, "{m:?}");
    // Russian rules, free choice: the man's capture is legal too.
    let r: Russian = pos("W:Wa3,Kh2:Bb4,g3");
    assert_eq!(moves(&r).len(), 6);
}

#[test]
fn pool_man_passing_the_king_row_stays_a_man() {
    // APCA (dctl pool.hpp): men capture backwards; a man is crowned only when its move ends on the
    // king row. b6 takes c7 to d8, then e7 backwards to f6: it ends as a man.
    let p: Pool = pos("W:Wb6:Bc7,e7");
    let m = moves(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].split('x').count() - 2, 2);
    assert!(play(&p, &m[0]).kings().is_empty());
    // Russian: crowned on d8, it goes on as a king.
    let r: Russian = pos("W:Wb6:Bc7,e7");
    assert!(moves(&r).iter().all(|mv| play(&r, mv).kings().count() == 1));
}

#[test]
fn thai_king_lands_right_behind_the_captured_piece() {
    // Mindsports Thai: the king a1 takes c3 and lands on d4, not further.
    let p: Thai = pos("W:WKa1:Bc3,h8");
    assert_eq!(moves(&p).len(), 1, "{:?}", moves(&p));
    let r: Russian = pos("W:WKa1:Bc3,h8");
    assert_eq!(
        moves(&r).len(),
        4,
        "a flying king elsewhere may land on d4, e5, f6 or g7"
    );
}

#[test]
fn thai_captured_pieces_leave_at_once() {
    // dctl is_passing_capture: pieces are removed as they are jumped. The king a1 takes c3 (d4),
    // c5 (b6), c7 (d8), f6 (g5), e3 (d2), and then, over the square c3 has left, b4 (a5): six
    // pieces. Under the Turkish strike (Russian) c3 still stands there and b4 stays out of reach.
    let b4 = "17";
    let taken = |m: &String| m.split('x').skip(2).map(str::to_string).collect::<Vec<_>>();
    let p: Thai = pos("W:WKa1:Bc3,c5,c7,f6,e3,b4");
    let m = moves(&p);
    assert!(
        m.iter()
            .any(|mv| taken(mv).len() == 6 && taken(mv).contains(&b4.to_string())),
        "{m:?}"
    );
    let r: Russian = pos("W:WKa1:Bc3,c5,c7,f6,e3,b4");
    assert!(
        moves(&r).iter().all(|mv| !taken(mv).contains(&b4.to_string())),
        "{:?}",
        moves(&r)
    );
}

#[test]
fn killer_king_halts_behind_a_captured_king() {
    // Killer draughts (mindsports, dctl killer.hpp): a king whose last captured piece is a king
    // must land right behind it. King a1 (46) takes the king c3 (37): only d4 (32).
    let k: Killer = pos("W:WKa1:BKc3,a9");
    assert_eq!(moves(&k), vec!["46x32x37"]);
    let i: International = pos("W:WKa1:BKc3,a9");
    assert_eq!(moves(&i).len(), 7, "international: any square behind");
    // Capturing a man, the killer king lands anywhere behind.
    let k: Killer = pos("W:WKa1:Bc3,a9");
    assert_eq!(moves(&k).len(), 7);
}

#[test]
fn breakthrough_first_king_wins() {
    // lidraughts Breakthrough: the first player to crown a king wins.
    let p: Breakthrough = pos("W:W6:B45");
    assert_eq!(p.outcome(), None);
    let after = play(&p, "6-1");
    assert_eq!(after.outcome(), Some(Outcome::Win(Side::White)));
    let i: International = pos("W:W6:B45");
    assert_eq!(play(&i, "6-1").outcome(), None);
}

#[test]
fn antidraughts_no_move_wins() {
    // lidraughts Antidraughts: a player who cannot move (here: no pieces left) wins.
    let p: Antidraughts = pos("W:W33:B28");
    let after = play(&p, "33x22");
    assert_eq!(after.outcome(), Some(Outcome::Win(Side::Black)));
    let i: International = pos("W:W33:B28");
    assert_eq!(play(&i, "33x22").outcome(), Some(Outcome::Win(Side::White)));
}

#[test]
fn canadian_board_is_12x12_with_30_men_a_side() {
    let p = Canadian::start();
    assert_eq!(p.pieces(Side::White).count(), 30);
    assert_eq!(p.pieces(Side::Black).count(), 30);
    assert_eq!(moves(&p).len(), 11, "PDN GameType 27, perft d1");
    assert_eq!(p.to_fen(), Canadian::from_fen("W:W43-72:B1-30").unwrap().to_fen());
}

// Turkish and Armenian use every square: 1 = a8 .. 64 = h1, written algebraically.

#[test]
fn turkish_men_step_forward_or_sideways_never_diagonally() {
    // rules.md §6 (Turkish): a lone man on d4 may go to d5, c4 or e4.
    let p: Turkish = pos("W:Wd4:Ba8");
    let m: Vec<String> = moves(&p);
    assert_eq!(m.len(), 3, "{m:?}");
    let names: Vec<String> = {
        let mut list = MoveList::new();
        p.generate(&mut list);
        let mut v: Vec<String> = list
            .iter()
            .map(|mv| p.format_move(mv, MoveStyle::Standard))
            .collect();
        v.sort();
        v
    };
    assert_eq!(names, vec!["d4-c4", "d4-d5", "d4-e4"]);
}

#[test]
fn turkish_majority_capture_and_no_turning_back() {
    // rules.md §6 (Turkish): the man d4 can take c4 (landing b4) or e4 (landing f4) and then d5
    // is out of reach; from b4 it may not turn back over c4's emptied square towards d4. With e4,
    // e5 and e7 placed, the sequence d4xf4 then f5... The most pieces must be taken.
    let p: Turkish = pos("W:Wd4:Bc4,e4,f5,f7,a8");
    let m = moves(&p);
    let most = m.iter().map(|s| s.split('x').count() - 2).max().unwrap();
    assert_eq!(most, 3, "{m:?}");
    assert!(m.iter().all(|s| s.split('x').count() - 2 == most), "{m:?}");
    // A king may not turn back 180 degrees: e4 takes d4 (landing c4, b4 or a4) or g4 (landing h4),
    // but never both, which would need the king to reverse over the square it has just emptied.
    let q: Turkish = pos("W:WKe4:Bd4,g4,a8");
    let m = moves(&q);
    assert_eq!(m.len(), 4, "{m:?}");
    assert!(m.iter().all(|s| s.split('x').count() - 2 == 1), "{m:?}");
}

#[test]
fn turkish_king_moves_and_captures_along_ranks_and_files() {
    // rules.md §6 (Turkish): flying orthogonal king. King d4 on an empty board: 14 moves.
    let p: Turkish = pos("W:WKd4:Ba8");
    assert_eq!(moves(&p).len(), 14);
    // It captures at a distance along the file (d7), landing on d8.
    let q: Turkish = pos("W:WKd4:Bd7,a8");
    assert_eq!(moves(&q).len(), 1);
}

#[test]
fn armenian_men_step_diagonally_forward_but_capture_orthogonally() {
    // rules.md §6 (Armenian, Tama): a man steps forward, diagonally forward or sideways.
    let p: Armenian = pos("W:Wd4:Ba8");
    assert_eq!(moves(&p).len(), 5);
    // A black piece diagonally in front (e5) cannot be captured; one straight ahead (d5) can.
    let q: Armenian = pos("W:Wd4:Be5,a8");
    assert!(moves(&q).iter().all(|m| m.contains('-')), "{:?}", moves(&q));
    let r: Armenian = pos("W:Wd4:Bd5,a8");
    assert_eq!(moves(&r).len(), 1);
}

#[test]
fn armenian_king_moves_along_eight_lines_and_captures_orthogonally() {
    // King d4 on an empty board: 14 orthogonal + 13 diagonal moves.
    let p: Armenian = pos("W:WKd4:Ba8");
    assert_eq!(moves(&p).len(), 27);
    // A piece on a diagonal is not captured (f6 with g7 empty).
    let q: Armenian = pos("W:WKd4:Bf6,a8");
    assert!(moves(&q).iter().all(|m| m.contains('-')));
}

#[test]
fn armenian_man_crowned_during_a_capture_goes_on_as_a_king() {
    // rules.md §6 (Armenian): promotion in the middle of a capture; the new king goes on, here
    // along the last rank: d6 takes d7 to d8, then as a king takes f8 sideways (landing g8/h8).
    let p: Armenian = pos("W:Wd6:Bd7,f8");
    let m = moves(&p);
    assert!(
        !m.is_empty() && m.iter().all(|s| s.split('x').count() - 2 == 2),
        "{m:?}"
    );
    assert!(m.iter().all(|mv| play(&p, mv).kings().count() == 1));
}

// Counted draw rules: the clocks travel in FEN (`H`: plies since a capture or man move, `E`: plies
// since the material balance arose), so each test starts one ply short and plays the last one.

/// `fen` is not drawn; after `mv` it is.
fn draw_after<G: Game>(fen: &str, mv: &str) {
    let p: G = pos(fen);
    assert_eq!(p.outcome(), None, "{fen}");
    assert_eq!(play(&p, mv).outcome(), Some(Outcome::Draw), "{fen} then {mv}");
}

#[test]
fn fmjd_6_2_twenty_five_king_moves_each() {
    draw_after::<International>("W:WK46,K47,36:BK5,K4,15:H49", "46-41");
    // A man move resets the count.
    let p: International = pos("W:WK46,K47,36:BK5,K4,15:H49");
    assert_eq!(play(&p, "36-31").outcome(), None);
}

#[test]
fn fmjd_6_3_and_6_4_endgames_against_a_lone_king() {
    // 6.4: king and man against a king, 5 moves each (10 plies).
    draw_after::<International>("W:WK46,36:BK5:E9", "46-41");
    // 6.3: three pieces with a king against a lone king, 16 moves each (32 plies).
    draw_after::<International>("W:WK46,36,37:BK5:E31", "46-41");
    let p: International = pos("W:WK46,36,37:BK5:E30");
    assert_eq!(play(&p, "46-41").outcome(), None);
}

#[test]
fn russian_7_2_4_to_7_2_8() {
    // 7.2.8: king and man against a lone king, 5 moves (10 plies).
    draw_after::<Russian>("W:WKa1,c3:BKh2:E9", "a1-b2");
    // 7.2.4 (D-R2): three kings against a lone king off the main road, 15 moves (30 plies).
    draw_after::<Russian>("W:WKa1,Kc1,Ke1:BKh4:E29", "a1-b2");
    let p: Russian = pos("W:WKa1,Kc1,Ke1:BKh4:E28");
    assert_eq!(play(&p, "a1-b2").outcome(), None);
    // 7.2.7: three pieces against a lone king holding the main road: 5 moves (10 plies), counted
    // by `D` from when the lone king stands there (rules.md §3.4).
    draw_after::<Russian>("W:WKa3,Kc1,Ke1:BKh8:E9:D9", "a3-b4");
    // 7.2.5: 15 moves with only kings moved, both sides with kings (30 plies).
    draw_after::<Russian>("W:WKa1,c3,e3:BKh8,f6,h6:H29", "a1-b2");
    // 7.2.6: kings on both sides, 4-5 pieces, balance unchanged for 30 moves (60 plies).
    draw_after::<Russian>("W:WKa1,c3:BKh8,h6:E59", "a1-b2");
}

#[test]
fn russian_7_2_7_counts_from_when_the_lone_king_stands_on_the_main_road() {
    // rules.md §3.4, 7.2.7: "draw after 10 plies (5 each) once the configuration stands". Twenty
    // plies after the ending arose the lone king steps onto the main road: the five moves start
    // then, not at the capture that made the ending (game 40 of the Russian 6-piece table
    // build of 2026-11-26 was drawn at once by that misreading; docs/records/egdb.md).
    let p: Russian = pos("B:WKa3,Kc1,e3:BKh4:E20");
    let on = play(&p, "h4-f6");
    assert_eq!(on.outcome(), None, "the first ply on the road");
    assert_eq!(on.clocks().road, 1);
    // Nine more plies with the king on the road: the draw.
    let mut q = on;
    for (i, mv) in [
        "a3-b4", "f6-h8", "b4-a5", "h8-g7", "a5-b4", "g7-h8", "b4-a5", "h8-g7", "a5-b4",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(q.outcome(), None, "ply {} on the road", i + 1);
        q = play(&q, mv);
    }
    assert_eq!(q.clocks().road, 10);
    assert_eq!(q.outcome(), Some(Outcome::Draw), "five moves each on the road");
    // Off the road the count stops, and goes on when the king comes back (lidraughts).
    let off = play(&on, "a3-b4");
    let off = play(&off, "f6-e7");
    assert_eq!(off.clocks().road, 2, "the move off the road is not counted");
    // A capture starts the ending anew.
    let p: Russian = pos("W:WKa1,Kc1,e3,g3:BKh8,f4:D7");
    assert_eq!(play(&p, "e3:g5").clocks().road, 0);
}

#[test]
fn frisian_d_f2_two_kings_against_one() {
    draw_after::<Frisian>("W:WK46,K47:BK5:E13", "46-41");
    draw_after::<Frisian>("W:WK46:BK5:E3", "46-41");
    let p: Frisian = pos("W:WK46,K47,36:BK5:E40");
    assert_eq!(
        play(&p, "46-41").outcome(),
        None,
        "a man on the board: no D-F2 draw"
    );
}

#[test]
fn english_forty_moves_each_without_capture_or_man_move() {
    draw_after::<English>("W:WK22,K23:BK1,K2:H79", "22-18");
}

#[test]
fn counted_draw_in_is_the_first_ply_a_counted_rule_ends_the_game() {
    // The same rules as above, read ahead: each position is `n` plies short of its draw.
    use tempo::game::Side::{Black, White};
    let p: International = pos("W:WK46,36:BK5:E4");
    assert_eq!(p.counted_draw_in(White), Some(6), "FMJD 6.4: 10 plies");
    let p: International = pos("W:WK46,36,37:BK5:E2");
    assert_eq!(p.counted_draw_in(White), Some(30), "FMJD 6.3: 32 plies");
    let p: Russian = pos("W:WKa1,Kc1,Ke1:BKh4:E10");
    assert_eq!(p.counted_draw_in(White), Some(20), "7.2.4: 30 plies");
    let p: Russian = pos("W:WKa3,Kc1,Ke1:BKh8:E1:D1");
    assert_eq!(
        p.counted_draw_in(White),
        Some(9),
        "7.2.7: 10 plies on the main road"
    );
    // Off the main road 7.2.4 would leave 25 plies, but the lone king to move reaches the road
    // (h4-f6), and then 7.2.7 leaves 9 more: 10 in all.
    let p: Russian = pos("B:WKa5,Kc1,Ke1:BKh4:E5");
    assert_eq!(p.counted_draw_in(White), Some(10), "7.2.7 a move away");
    let p: Russian = pos("W:WKa5,Kc1,Ke1:BKh4:E5");
    assert_eq!(
        p.counted_draw_in(White),
        Some(25),
        "7.2.4: the stronger side to move"
    );
    let p: English = pos("W:WK22,K23:BK1,K2:H79");
    assert_eq!(p.counted_draw_in(Black), Some(1), "80 plies");
    // FMJD 6.2 (25 moves each with only kings moved): the clock of king moves runs on for a side
    // with kings alone; a side with a man can reset it whenever it likes.
    let p: International = pos("W:WK46,K47:BK5,K4,15:H20");
    assert_eq!(p.counted_draw_in(White), Some(30), "FMJD 6.2: 50 plies");
    assert_eq!(p.counted_draw_in(Black), None);
    // No counted rule applies to the start, and none at all when the rules are off.
    assert_eq!(International::start().counted_draw_in(White), None);
    let mut p: Spanish = pos("W:WKb1,Kd1:BKg8,Ke8:H90");
    assert_eq!(p.counted_draw_in(White), Some(10));
    p.set_option("counted-draws", "false").unwrap();
    assert_eq!(p.counted_draw_in(White), None);
}

#[test]
fn breakthrough_has_no_counted_draw() {
    // Men only (a king would already have won): clocks far beyond any other variant's limits.
    let p: Breakthrough = pos("W:W36:B15:H200:E200");
    assert_eq!(play(&p, "36-31").outcome(), None);
}

#[test]
fn d_a3_counted_draws_can_be_switched_off() {
    // D-A3: disputed or house draw rules come with a switch.
    let mut p: Spanish = pos("W:WKb1,Kd1:BKg8,Ke8:H99");
    assert!(Spanish::options().iter().any(|o| o.name == "counted-draws"));
    assert_eq!(
        play(&p, "b1-a2").outcome(),
        Some(Outcome::Draw),
        "house rule: 50 moves each"
    );
    p.set_option("counted-draws", "false").unwrap();
    assert_eq!(
        play(&p, "b1-a2").outcome(),
        None,
        "the option travels with the position"
    );
    assert!(p.set_option("counted-draws", "maybe").is_err());
    assert!(p.set_option("huffing", "true").is_err());
}

#[test]
fn d_a2_italian_repetition_count_is_an_option() {
    let mut p = Italian::start();
    assert_eq!(p.repetition(), tempo::game::Repetition::Draw(4));
    p.set_option("repetitions", "3").unwrap();
    assert_eq!(p.repetition(), tempo::game::Repetition::Draw(3));
    assert!(
        Russian::start().set_option("repetitions", "3").is_err(),
        "Italian only"
    );
}

#[test]
fn d_a1_a_straight_king_run_is_one_path_but_kish_counts_each_stop() {
    // D-A1: a move is its start, end and captured set. The king a1 takes a3, may stop on a4 or a5,
    // and from either goes on to take a6, ending on a7 or a8: two moves, one path each (straight on
    // is one trajectory, dctl's kept convention). Counting every square it could stop on between
    // a3 and a6, as kish lists Turkish captures, gives two paths per end (Duplicates::Landings).
    let p: Turkish = pos("W:WKa1:Ba3,a6,h8");
    assert_eq!(moves(&p).len(), 2, "{:?}", moves(&p));
    assert_eq!(p.count_moves(Duplicates::Merge), 2);
    assert_eq!(p.count_moves(Duplicates::Keep), 2);
    assert_eq!(p.count_moves(Duplicates::Landings), 4);
    let mut list = MoveList::new();
    p.generate_with(Duplicates::Landings, &mut list);
    assert_eq!(list.len(), 4);
    // With a4 the only square between a3 and a5, each run has one stop: the counts agree.
    let q: Turkish = pos("W:WKa1:Ba3,a5,h8");
    assert_eq!(
        q.count_moves(Duplicates::Landings),
        q.count_moves(Duplicates::Keep)
    );
}

#[test]
fn italian_precedence_the_earliest_king() {
    // FID RegTec art. 6 (rules.md §6 Italian): equal pieces (two), both by the king, one king
    // taken either way; the sequence that meets the king first must be taken. The king c4 can go
    // over b5 (man) then b7 (king), or over d5 (king) then f7 (man): only the second is legal.
    let p: Italian = pos("W:WKc4:Bb5,Kd5,f7,Kb7");
    let m = moves(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    let after = play(&p, &m[0]);
    assert_eq!(after.to_hub(), pos::<Italian>("B:WKg8:Bb5,Kb7").to_hub());
}

#[test]
fn italian_precedence_every_king_earliest_first() {
    // FID RegTec art. 6.9 ("si mangia dove s'incontrano prima i pezzi più forti"; rules.md §6
    // Italian): on equal pieces, capturing piece and kings taken, the jump numbers of *all* the
    // kings taken are compared, earliest first. From Ed Gilbert's position after 9-5 4-7 12x3
    // 19-15 8-4 11-7: 3x10 takes kings at jumps 1 and 2, 4x9 at jumps 1 and 3 (three pieces, two
    // kings, both by a king). Both meet the first king at jump 1; only 3x10 is legal, which makes
    // the position's published depth-7 count (2,468,110; tests/perft.rs) come out.
    let p: Italian = pos("W:WK3,K4,5,17,20,K27,K28:BK7,K13,14,K15,21,24");
    let m = moves(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].starts_with("3x10x"), "{m:?}");
    assert_eq!(p.count_moves(Duplicates::Keep), 1);
    assert_eq!(p.count_moves(Duplicates::Merge), 1);
}

#[test]
fn italian_and_spanish_men_capture_forward_only() {
    // rules.md §6: Italian and Spanish men never capture backwards. The white man c4 has a black
    // man behind it on b3 with a2 empty: no capture, only its two forward steps.
    let p: Italian = pos("W:Wc4:Bb3,g8");
    assert!(moves(&p).iter().all(|m| m.contains('-')), "{:?}", moves(&p));
    let s: Spanish = pos("W:Wc4:Bb3,g8");
    assert!(moves(&s).iter().all(|m| m.contains('-')), "{:?}", moves(&s));
    // International men do capture backwards (FMJD 4.2), here on the 8x8 Brazilian board.
    let b: Brazilian = pos("W:Wc3:Bb2,h8");
    assert!(moves(&b).iter().all(|m| m.contains('x')), "{:?}", moves(&b));
}

#[test]
fn portuguese_has_the_spanish_precedence() {
    // rules.md §6: Portuguese plays the Spanish rules. As in the Spanish test: one piece either
    // way, and taking the king beats taking the man.
    let p: Portuguese = pos("W:Wc2,g2:BKd3,f3");
    let m = moves(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(play(&p, &m[0]).kings().is_empty());
}

#[test]
fn thai_man_reaching_the_last_row_in_a_capture_stops_there() {
    // rules.md §6 Thai: a man reaching the last row during a capture stops and is crowned. b6
    // takes c7 and lands on d8; a king there could go on over e7, the crowned man may not.
    let p: Thai = pos("W:Wb6:Bc7,e7,h2");
    let m = moves(&p);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].split('x').count() - 2, 1, "one piece taken: {m:?}");
    let after = play(&p, &m[0]);
    assert_eq!(after.kings().count(), 1, "crowned on d8");
    // Russian (FSR 1.5.15) goes on as a king over e7.
    let r: Russian = pos("W:Wb6:Bc7,e7,h2");
    assert!(
        moves(&r).iter().all(|mv| mv.split('x').count() - 2 == 2),
        "{:?}",
        moves(&r)
    );
}
