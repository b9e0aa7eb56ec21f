//! The values of PDN tags that name things outside the move text: the `GameType` of each variant
//! and the variant a `GameType` names, the variant a game without one can only be (from its FEN
//! and its moves), and today's `Date`. The match manager, the DXP player and game analysis share
//! them from here.

use crate::game::{Game, MoveError, MoveList, MoveStyle, Side};
use crate::variant::Variant;

/// The PDN `GameType` of a variant: the long form for the types pydraughts writes, the number
/// alone for the other standard ones, `None` where PDN has no number.
pub fn game_type(v: Variant) -> Option<&'static str> {
    Some(match v {
        Variant::International | Variant::Killer | Variant::Breakthrough | Variant::Antidraughts => {
            "20,W,10,10,N2,0"
        }
        Variant::English => "21,B,8,8,N1,0",
        Variant::Italian => "22,W,8,8,N2,1",
        Variant::Pool => "23",
        Variant::Spanish => "24",
        Variant::Russian => "25,W,8,8,A0,0",
        Variant::Brazilian => "26,W,8,8,A0,0",
        Variant::Canadian => "27",
        Variant::Portuguese => "28",
        Variant::Czech => "29",
        Variant::Turkish => "30,W,8,8,A0,0",
        Variant::Thai => "31",
        Variant::Frisian | Variant::Frysk => "40,W,10,10,N2,0",
        _ => return None,
    })
}

/// The variant a PDN `GameType` tag names (the number before the first comma; 20 is
/// International, the type Killer, Breakthrough and Antidraughts games also carry, and 40 is
/// Frisian, which Frysk! games also carry), or `None` for a type Tempo does not play.
pub fn variant_of_game_type(tag: &str) -> Option<Variant> {
    let number: u32 = tag.split(',').next()?.trim().parse().ok()?;
    TYPED
        .into_iter()
        .find(|&v| game_type(v).and_then(|t| t.split(',').next()?.parse::<u32>().ok()) == Some(number))
}

/// The variants PDN numbers with a `GameType`: the ones a game without the tag may be read as.
pub const TYPED: [Variant; 13] = [
    Variant::International,
    Variant::English,
    Variant::Italian,
    Variant::Pool,
    Variant::Spanish,
    Variant::Russian,
    Variant::Brazilian,
    Variant::Canadian,
    Variant::Portuguese,
    Variant::Czech,
    Variant::Turkish,
    Variant::Thai,
    Variant::Frisian,
];

/// Whether a FEN gives `?` for the side to move (problem books that leave it to the reader).
pub fn unknown_side(fen: &str) -> bool {
    fen.trim().trim_start_matches('"').trim_start().starts_with('?')
}

/// The start position of a game record in `G`: its FEN (or the initial position) and, when the
/// FEN gives `?` for the side to move, the side with which every move reads legally, with a note
/// saying which and why. `second_first` says the record numbers its first move for the second
/// player (`1...`), which decides when both sides read legally.
///
/// # Errors
/// A FEN that `G` cannot read, or a `?` side with which the moves read legally neither way.
pub fn setup<G: Game>(
    fen: Option<&str>,
    moves: &[String],
    second_first: bool,
) -> Result<(G, Option<String>), String> {
    let Some(fen) = fen else {
        return Ok((G::start(), None));
    };
    if !unknown_side(fen) {
        return G::from_fen(fen)
            .map(|p| (p, None))
            .map_err(|e| format!("bad FEN tag {fen:?}: {e}"));
    }
    let rest = fen.trim().trim_start_matches('"').trim_start()[1..].to_string();
    let first = G::start().side_to_move();
    let with = |side: Side| G::from_fen(&format!("{}{rest}", side.letter()));
    let mut legal = Vec::new();
    for side in [first, first.opponent()] {
        let pos = with(side).map_err(|e| format!("bad FEN tag {fen:?}: {e}"))?;
        if reads_legally(&pos, moves) {
            legal.push((side, pos));
        }
    }
    let name = |s: Side| if s == Side::White { "White" } else { "Black" };
    match legal.as_slice() {
        [] => Err(format!(
            "FEN tag {fen:?} gives '?' for the side to move, and the moves read legally with neither side"
        )),
        [(side, pos)] if !moves.is_empty() => Ok((
            *pos,
            Some(format!(
                "the FEN's side to move is '?': {} moves, the only side with which the moves read legally",
                name(*side)
            )),
        )),
        _ => {
            let side = if second_first { first.opponent() } else { first };
            let why = if moves.is_empty() {
                "the game has no moves to tell, so the variant's first player is assumed"
            } else if second_first {
                "the moves read legally either way, and the first is numbered for the second player"
            } else {
                "the moves read legally either way, and the first is numbered for the first player"
            };
            Ok((
                with(side).map_err(|e| format!("bad FEN tag {fen:?}: {e}"))?,
                Some(format!(
                    "the FEN's side to move is '?': {} moves ({why})",
                    name(side)
                )),
            ))
        }
    }
}

/// Whether every move reads as one legal move from `start`.
fn reads_legally<G: Game>(start: &G, moves: &[String]) -> bool {
    read_moves(start, moves).is_ok()
}

/// How many plies [`read_moves`] may replay in all while it tries the readings of ambiguous
/// moves, so that a record full of them cannot make it run for long.
const READ_BUDGET: usize = 20_000;

/// The moves of a game record from `start`, each read as one legal move.
///
/// A capture written by its first and last squares alone (`3x26`) can fit several captures, as
/// real game files write them. Such a move is read as the one capture after which the rest of
/// the record reads legally; when the rest reads after several of them, or after none, the
/// move's error stands (with the reason when several fit).
///
/// # Errors
/// The index of the first move that does not read, and why.
pub fn read_moves<G: Game>(start: &G, moves: &[String]) -> Result<Vec<G::Move>, (usize, MoveError)> {
    let mut out = Vec::with_capacity(moves.len());
    let mut budget = READ_BUDGET;
    read_from(start, moves, 0, &mut out, &mut budget)?;
    Ok(out)
}

/// [`read_moves`] from ply `from`, appending to `out`.
fn read_from<G: Game>(
    start: &G,
    moves: &[String],
    from: usize,
    out: &mut Vec<G::Move>,
    budget: &mut usize,
) -> Result<(), (usize, MoveError)> {
    let mut pos = *start;
    for (k, text) in moves.iter().enumerate().skip(from) {
        *budget = budget.saturating_sub(1);
        match pos.parse_move(text) {
            Ok(mv) => {
                out.push(mv);
                pos = pos.play(&mv);
            }
            Err(MoveError::Ambiguous(t, candidates)) => {
                // Each candidate is written in full, which reads as exactly that move.
                let mut fits = Vec::new();
                for c in &candidates {
                    if *budget == 0 {
                        break;
                    }
                    let Ok(mv) = pos.parse_move(c) else { continue };
                    let mut rest = Vec::new();
                    if read_from(&pos.play(&mv), moves, k + 1, &mut rest, budget).is_ok() {
                        fits.push((mv, rest));
                    }
                }
                return match fits.len() {
                    1 => {
                        let (mv, rest) = fits.swap_remove(0);
                        out.push(mv);
                        out.extend(rest);
                        Ok(())
                    }
                    0 => Err((k, MoveError::Ambiguous(t, candidates))),
                    n => Err((
                        k,
                        MoveError::Ambiguous(
                            format!(
                                "{t}, and the rest of the game reads legally after {n} of the captures it fits"
                            ),
                            candidates,
                        ),
                    )),
                };
            }
            Err(e) => return Err((k, e)),
        }
    }
    Ok(())
}

/// Whether `G` writes its moves with letters (`c3-d4`) rather than numbers (`22-18`).
fn writes_letters<G: Game>() -> bool {
    let pos = G::start();
    let mut list = MoveList::new();
    pos.generate(&mut list);
    list.iter().next().is_some_and(|m| {
        pos.format_move(m, MoveStyle::Standard)
            .starts_with(|c: char| c.is_ascii_alphabetic())
    })
}

/// A game record as the inference sees it: its `FEN` tag, its moves, and whether its first move
/// is numbered for the second player.
pub type Record<'a> = (Option<&'a str>, &'a [String], bool);

/// What the records of a file without a `GameType` tag can be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inferred {
    /// One variant fits best; why.
    One(Variant, String),
    /// Several fit equally well: the candidates.
    Several(Vec<Variant>),
}

/// The variant of game records without a `GameType` tag: among the [`TYPED`] variants, those
/// whose notation (numbers or letters) the moves are written in, and which read the most records
/// legally (FEN and every move). One best is chosen; of several, International, PDN's default
/// without the tag, when it is one of them, else none. No record reading legally anywhere gives
/// International, so that the errors show how the records read as PDN's default.
pub fn infer_variant(records: &[Record<'_>]) -> Inferred {
    let letters = records
        .iter()
        .flat_map(|r| r.1.iter())
        .next()
        .map(|m| m.starts_with(|c: char| c.is_ascii_alphabetic()));
    let mut best = 0;
    let mut fit: Vec<Variant> = Vec::new();
    for v in TYPED {
        let (style, legal) = crate::with_variant!(v, G => {
            let legal = records
                .iter()
                .filter(|(fen, moves, second)| {
                    setup::<G>(*fen, moves, *second).is_ok_and(|(p, _)| reads_legally(&p, moves))
                })
                .count();
            (writes_letters::<G>(), legal)
        });
        if letters.is_some_and(|l| l != style) || legal == 0 {
            continue;
        }
        if legal > best {
            best = legal;
            fit.clear();
        }
        if legal == best {
            fit.push(v);
        }
    }
    // "the game reads", "all 3 games read", "2 of the 3 games read".
    let of = |n: usize| {
        if records.len() == 1 {
            "the game reads".to_string()
        } else if n == records.len() {
            format!("all {n} games read")
        } else {
            format!("{n} of the {} games read", records.len())
        }
    };
    let style = match letters {
        Some(true) => "alphanumeric moves, ",
        Some(false) => "numeric moves, ",
        None => "",
    };
    match fit.as_slice() {
        [] => Inferred::One(
            Variant::International,
            "no GameType tag, and no variant reads a game legally: PDN's default".to_string(),
        ),
        [v] => Inferred::One(
            *v,
            format!(
                "no GameType tag: inferred, {style}{} legally as {} only",
                of(best),
                v.name()
            ),
        ),
        several if several.contains(&Variant::International) => {
            let others: Vec<&str> = several
                .iter()
                .filter(|&&v| v != Variant::International)
                .map(|v| v.name())
                .collect();
            Inferred::One(
                Variant::International,
                format!(
                    "no GameType tag: PDN's default; {} legally as {} too, give --variant for it",
                    of(best),
                    others.join(", ")
                ),
            )
        }
        several => Inferred::Several(several.to_vec()),
    }
}

/// Today's date as PDN writes it (`YYYY.MM.DD`, UTC), from the system clock.
pub fn pdn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date of a day count since 1970-01-01 (the proleptic calendar: eras of 400 years
/// of 146,097 days, years starting in March so that the leap day comes last).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_capture_written_by_its_ends_is_the_one_after_which_the_rest_reads() {
        use crate::draughts::English;
        // A white man on 23 takes two men to 7 by 14 (18 and 10) or by 16 (19 and 11): "23x7"
        // fits both. Black's 19-24 next is legal only after the capture by 14, which left 19.
        let start = English::from_fen("W:W23:B10,11,18,19").unwrap();
        let read = read_moves(&start, &moves("23x7 19-24")).unwrap();
        assert_eq!(read.len(), 2);
        let after = start.play(&read[0]);
        assert_eq!(after.to_fen(), English::from_fen("B:W7:B11,19").unwrap().to_fen());
        // Alone, the rest cannot tell: it stays ambiguous and says why.
        match read_moves(&start, &moves("23x7")) {
            Err((0, MoveError::Ambiguous(t, c))) => {
                assert!(t.contains("reads legally after 2"), "{t}");
                assert_eq!(c.len(), 2);
            }
            other => panic!("{other:?}"),
        }
        // Followed by a move legal after neither, the ambiguity is the error.
        let err = read_moves(&start, &moves("23x7 12-16")).unwrap_err();
        assert!(
            matches!(err, (0, MoveError::Ambiguous(ref t, _)) if t == "23x7"),
            "{err:?}"
        );
        // Plain moves read as before, and an illegal one is named by its index.
        assert_eq!(
            read_moves(&start, &moves("23x7 19-24 7-2")).map(|m| m.len()),
            Ok(3)
        );
        assert!(matches!(
            read_moves(&start, &moves("23-20")),
            Err((0, MoveError::Illegal(_)))
        ));
    }

    #[test]
    fn a_variant_is_inferred_where_one_fits() {
        // An English opening (Black moves first, 11-15 is a black man's move): English, or
        // English and the variants that read it alike, never a 10x10 one.
        let english = moves("11-15 22-18 15x22 25x18 8-11 29-25 4-8 25-22 12-16 24-20 10-15");
        match infer_variant(&[(None, &english, false)]) {
            Inferred::One(v, why) => {
                assert_eq!(v, Variant::English, "{why}");
                assert!(why.contains("english only"), "{why}");
            }
            Inferred::Several(c) => {
                assert!(c.contains(&Variant::English), "{c:?}");
                assert!(!c.contains(&Variant::International), "{c:?}");
            }
        }
        // An International opening reads as International (and as Frisian: the default wins,
        // and the reason says so).
        let int = moves("32-28 18-23 37-32 12-18");
        match infer_variant(&[(None, &int, false)]) {
            Inferred::One(v, why) => assert_eq!(v, Variant::International, "{why}"),
            other => panic!("{other:?}"),
        }
        // A FEN alone on squares 1-32 fits the 10x10 board too: International, PDN's default,
        // and the reason names the 8x8 variants that fit as well.
        let fen = Some("W:W18,24,27:B12,16");
        match infer_variant(&[(fen, &[], false)]) {
            Inferred::One(v, why) => {
                assert_eq!(v, Variant::International, "{why}");
                assert!(why.contains("english") && why.contains("--variant"), "{why}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn alphanumeric_games_name_their_candidates() {
        // c3-d4 f6-e5 d4xf6 g7xe5: legal in Russian, Brazilian and Czech alike.
        let g = moves("c3-d4 f6-e5 d4:f6 g7:e5");
        match infer_variant(&[(None, &g, false)]) {
            Inferred::Several(c) => {
                assert!(
                    c.contains(&Variant::Russian) && c.contains(&Variant::Brazilian),
                    "{c:?}"
                );
                assert!(!c.contains(&Variant::English), "{c:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_question_mark_side_is_read_from_the_moves() {
        type I = crate::draughts::International;
        // Only Black can play 12-17 here.
        let (pos, note) = setup::<I>(Some("?:W28,K40:B12"), &moves("12-17 40-45"), false).unwrap();
        assert_eq!(pos.side_to_move(), Side::Black);
        assert!(note.unwrap().contains("Black moves"));
        // Both sides have a legal first move: the numbering decides.
        let (pos, _) = setup::<I>(Some("?:W28:B12"), &[], true).unwrap();
        assert_eq!(pos.side_to_move(), Side::Black);
        assert!(setup::<I>(Some("?:W28:B12"), &moves("12-17 17-21 21-26"), false).is_err());
    }

    #[test]
    fn dates_from_day_counts() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2000-03-01 is day 11017; 2024-02-29 is day 19782.
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
