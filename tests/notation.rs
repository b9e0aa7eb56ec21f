//! Positions and moves as text: PDN FEN, the Hub position string, numeric, Hub and algebraic moves.

use tempo::draughts::{Brazilian, English, International, Italian, Russian, Spanish};
use tempo::game::{Game, MoveError, MoveList, MoveStyle, PositionError};

#[test]
fn fen_reads_ranges_kings_any_order_and_a_trailing_dot() {
    let a = International::from_fen("W:W31-50:B1-20").unwrap();
    assert_eq!(a, International::start());
    assert_eq!(International::from_fen("W:B1-20:W31-50.").unwrap(), a);
    assert_eq!(International::from_fen(" W:W31-35,36-50:B1-20 ").unwrap(), a);
    let b = International::from_fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").unwrap();
    assert_eq!(b.to_fen(), "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29");
    // lidraughts' half-move clock and move number are accepted.
    assert_eq!(International::from_fen("W:W31-50:B1-20:H0:F1").unwrap(), a);
    // An empty side is a position (a lost one), not an error.
    assert!(International::from_fen("W:W31:B").is_ok());
}

#[test]
fn fen_reads_algebraic_squares() {
    let r = Russian::from_fen(
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:B21-32"
            .replace("B21-32", "B1-12")
            .as_str(),
    );
    assert_eq!(r.unwrap(), Russian::start());
}

#[test]
fn fen_errors_name_the_problem() {
    let bad = |s: &str| International::from_fen(s).unwrap_err();
    assert!(matches!(bad("W:W51:B1"), PositionError::BadSquare(s) if s == "51"));
    assert!(matches!(bad("W:W0:B1"), PositionError::BadSquare(_)));
    assert!(matches!(bad("W:Wz9:B1"), PositionError::BadSquare(_)));
    assert!(matches!(bad("W:W3:B20"), PositionError::ManOnPromotionRow(s) if s == "3"));
    assert!(matches!(bad("W:W30:B48"), PositionError::ManOnPromotionRow(s) if s == "48"));
    assert!(
        International::from_fen("W:WK3:BK48").is_ok(),
        "kings may stand there"
    );
    assert!(matches!(bad("W:W20:B20"), PositionError::Occupied(s) if s == "20"));
    assert!(matches!(bad("W:W20,20:B1"), PositionError::Occupied(_)));
    assert!(matches!(bad("X:W20:B1"), PositionError::Syntax(_)));
    assert!(matches!(bad(""), PositionError::Syntax(_)));
    assert!(matches!(bad("W:W20:B1:W21"), PositionError::Syntax(_)));
    assert!(matches!(bad("W:W40-31:B1"), PositionError::Syntax(_)));
    assert!(matches!(bad("W:W20,:B1"), PositionError::Syntax(_)));
    assert!(matches!(bad("W:Q20"), PositionError::Syntax(_)));
    assert!(
        matches!(bad("W:W20:B1:RW20=1"), PositionError::State(_)),
        "no king run outside Frisian"
    );
    // Messages say what is wrong.
    assert_eq!(bad("W:W51:B1").to_string(), "bad square 51");
    assert_eq!(bad("W:W3:B20").to_string(), "man on its promotion row at 3");
}

#[test]
fn hub_position_string_round_trips() {
    let start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    assert_eq!(International::start().to_hub(), start);
    assert_eq!(International::from_hub(start).unwrap(), International::start());
    let p = International::from_fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").unwrap();
    assert_eq!(International::from_hub(&p.to_hub()).unwrap(), p);
    // 8x8: 33 characters in the variant's own numbering (Tempo's definition).
    let r = Russian::start();
    assert_eq!(r.to_hub(), "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    assert_eq!(Russian::from_hub(&r.to_hub()).unwrap(), r);
    assert_eq!(English::start().to_hub(), "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
}

#[test]
fn hub_position_errors() {
    assert_eq!(
        International::from_hub("Wbbbb").unwrap_err(),
        PositionError::Length {
            expected: 51,
            found: 5
        }
    );
    assert_eq!(
        Russian::from_hub("Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww")
            .unwrap_err()
            .to_string(),
        "wrong length: expected 33 characters, found 51"
    );
    assert!(matches!(
        International::from_hub("Xbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"),
        Err(PositionError::Syntax(_))
    ));
    assert!(matches!(
        International::from_hub("Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwq"),
        Err(PositionError::Syntax(_))
    ));
    // A white man on square 1.
    assert!(matches!(
        International::from_hub("Wwbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"),
        Err(PositionError::ManOnPromotionRow(_))
    ));
    // Multi-byte characters count as characters, not bytes, and are rejected.
    assert!(International::from_hub("Wébbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww").is_err());
}

#[test]
fn numeric_moves_and_the_hub_capture_form() {
    let p = International::start();
    let m = p.parse_move("32-28").unwrap();
    assert_eq!(p.format_move(&m, MoveStyle::Standard), "32-28");
    assert_eq!(p.format_move(&m, MoveStyle::Hub), "32-28");
    assert!(matches!(p.parse_move("32-23"), Err(MoveError::Illegal(_))));
    assert!(matches!(p.parse_move("32"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("32-"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("32-51"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move(""), Err(MoveError::Syntax(_))));

    // Scan's example: the man on 33 takes 28 and 18, 33 -> 22 -> 13.
    let p = International::from_fen("W:W33:B28,18").unwrap();
    let m = p.parse_move("33x13").unwrap();
    assert_eq!(p.format_move(&m, MoveStyle::Hub), "33x13x18x28");
    assert_eq!(p.format_move(&m, MoveStyle::Standard), "33x13");
    for text in ["33x13x18x28", "33x13x28x18", "33x22x13", "33:13", "33x13."] {
        let parsed = p.parse_move(text.trim_end_matches('.'));
        assert_eq!(parsed, Ok(m), "{text}");
    }
    assert!(
        matches!(p.parse_move("33x13x28"), Err(MoveError::Illegal(_))),
        "captured set incomplete"
    );
    assert!(matches!(
        p.parse_move("33x13x28x18x19"),
        Err(MoveError::Illegal(_))
    ));
}

#[test]
fn ambiguous_captures_are_reported_and_written_with_their_path() {
    // English: the man on 31 (e1) reaches 15 (e5) over 26 and 18 (via 22) or over 27 and 19 (via 24).
    let p = English::from_fen("W:W31:B18,19,26,27").unwrap();
    match p.parse_move("31x15") {
        Err(MoveError::Ambiguous(_, c)) => assert_eq!(c, vec!["31x15x18x26", "31x15x19x27"]),
        other => panic!("{other:?}"),
    }
    let a = p.parse_move("31x22x15").unwrap();
    assert_eq!(p.format_move(&a, MoveStyle::Hub), "31x15x18x26");
    assert_eq!(p.format_move(&a, MoveStyle::Standard), "31x22x15");
    let b = p.parse_move("31x15x27x19").unwrap();
    assert_eq!(p.format_move(&b, MoveStyle::Standard), "31x24x15");
}

#[test]
fn algebraic_moves_for_russian_and_brazilian() {
    let p = Russian::start();
    let m = p.parse_move("c3-d4").unwrap();
    assert_eq!(p.format_move(&m, MoveStyle::Standard), "c3-d4");
    assert_eq!(p.format_move(&m, MoveStyle::Hub), "22-18");
    assert_eq!(p.parse_move("22-18"), Ok(m), "numeric input is accepted too");
    let p = Russian::from_fen("W:Wc3:Bd4,f6").unwrap();
    let m = p.parse_move("c3:g7").unwrap();
    assert_eq!(p.format_move(&m, MoveStyle::Standard), "c3:g7");
    assert_eq!(p.parse_move("c3:e5:g7"), Ok(m));
    assert_eq!(p.parse_move("C3xG7"), Ok(m));
    let b = Brazilian::start();
    assert_eq!(
        b.format_move(&b.parse_move("c3-b4").unwrap(), MoveStyle::Standard),
        "c3-b4"
    );
}

#[test]
fn hub_captures_list_the_taken_squares_in_ascending_order_on_mirrored_boards_too() {
    // protocols.md (Scan's Hub): `fromxto` then every captured square in ascending order. The
    // mirrored boards (Italian, Spanish) number each row the other way round from the layout,
    // which once leaked into this order (found by the reference cross-check: `2x4x7x6`).
    let p = Italian::from_fen("W:WK2,16,24,30,32:B6,7,12,19,22").unwrap();
    let mut list = MoveList::new();
    p.generate(&mut list);
    let hub: Vec<String> = list.iter().map(|m| p.format_move(m, MoveStyle::Hub)).collect();
    assert!(hub.contains(&"2x4x6x7".to_string()), "{hub:?}");
    let s = Spanish::from_fen("B:W15,21,22,26:B8,14,16,17,K31").unwrap();
    s.generate(&mut list);
    let hub: Vec<String> = list.iter().map(|m| s.format_move(m, MoveStyle::Hub)).collect();
    for text in &hub {
        let taken: Vec<u32> = text.split('x').skip(2).map(|n| n.parse().unwrap()).collect();
        assert!(taken.windows(2).all(|w| w[0] < w[1]), "{text}");
        assert_eq!(
            s.parse_move(text).map(|m| s.format_move(&m, MoveStyle::Hub)),
            Ok(text.clone())
        );
    }
    assert!(hub.iter().any(|t| t.split('x').count() > 3), "{hub:?}");
}

/// The legal moves of `pos` in the Hub form, sorted.
fn hub_moves<G: Game>(pos: &G) -> Vec<String> {
    let mut list = MoveList::new();
    pos.generate(&mut list);
    let mut out: Vec<String> = list.iter().map(|m| pos.format_move(m, MoveStyle::Hub)).collect();
    out.sort();
    out
}

/// pydraughts' legal moves, translated into Tempo's numbering by the variant's Hub table and
/// sorted.
fn translated(v: tempo::variant::Variant, moves: &str) -> Vec<String> {
    let mut out: Vec<String> = moves
        .split(' ')
        .map(|m| v.hub_notation().move_to_tempo(m))
        .collect();
    out.sort();
    out
}

#[test]
fn the_hub_table_maps_pydraughts_positions_and_moves_onto_tempos() {
    use tempo::variant::Variant;
    // Literal from pydraughts 0.6.7: its initial Hub string, its legal moves there, its first
    // move, and its legal moves after it.
    let cases = [
        (
            Variant::International,
            "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
            "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30",
            "31-26",
            "16-21 17-21 17-22 18-22 18-23 19-23 19-24 20-24 20-25",
        ),
        (
            Variant::Italian,
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "21-17 21-18 22-18 22-19 23-19 23-20 24-20",
            "21-17",
            "9-13 10-13 10-14 11-14 11-15 12-15 12-16",
        ),
        (
            Variant::Russian,
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "9-13 10-13 10-14 11-14 11-15 12-15 12-16",
            "9-13",
            "21-17 21-18 22-18 22-19 23-19 23-20 24-20",
        ),
        (
            Variant::Brazilian,
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "9-13 10-13 10-14 11-14 11-15 12-15 12-16",
            "9-13",
            "21-17 21-18 22-18 22-19 23-19 23-20 24-20",
        ),
        (
            Variant::English,
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "12-16 11-16 11-15 10-15 10-14 9-14 9-13",
            "12-16",
            "24-20 24-19 23-19 23-18 22-18 22-17 21-17",
        ),
        (
            Variant::Turkish,
            "Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee",
            "17-25 18-26 19-27 20-28 21-29 22-30 23-31 24-32",
            "17-25",
            "41-33 42-34 43-35 44-36 45-37 46-38 47-39 48-40",
        ),
    ];
    for (v, string, first, played, second) in cases {
        tempo::with_variant!(v, G => {
            let hub = v.hub_notation();
            let start = G::from_hub(&hub.position_to_tempo(string)).unwrap();
            // pydraughts' initial position is Tempo's, and its string comes back unchanged.
            assert_eq!(start.to_hub(), G::start().to_hub(), "{v}");
            assert_eq!(hub.position_from_tempo(&start.to_hub()), string, "{v}");
            assert_eq!(hub_moves(&start), translated(v, first), "{v}");
            let next = start.play(&start.parse_move(&hub.move_to_tempo(played)).unwrap());
            assert_eq!(hub_moves(&next), translated(v, second), "{v}");
            // And back: Tempo's moves written for the Hub are pydraughts' texts.
            let mut back: Vec<String> = hub_moves(&next).iter().map(|m| hub.move_from_tempo(m)).collect();
            let mut expected: Vec<&str> = second.split(' ').collect();
            back.sort();
            expected.sort();
            assert_eq!(back, expected, "{v}");
        });
    }
}

/// Issue 53 item 11: a FEN with no pieces at all is refused; one side without pieces is a
/// position (its game is over) and is read.
#[test]
fn an_empty_board_is_not_a_position() {
    for text in ["W", "B", "W:W:B", "W:B:W", "W."] {
        let e = International::from_fen(text).expect_err(text);
        assert!(e.to_string().contains("no pieces"), "{text}: {e}");
    }
    assert!(International::from_fen("W:W:B1").is_ok());
    assert!(International::from_fen("B:W50:B").is_ok());
}
