//! The fast generator against the deliberately simple reference generator of `tests/reference`
//! (written from the rules text, sharing no code with `src/`): perft for Frysk! and Armenian, which
//! have no published counts, and for Canadian beyond the published depths; Turkish under both
//! path conventions; move lists along random games in sixteen variants.

use crate::reference;

use reference::{RefMove, RefPos, RefVariant};
use tempo::draughts::{
    Armenian, Brazilian, Canadian, Czech, English, Frisian, Frysk, International, Italian, Killer, Pool,
    Portuguese, Russian, Spanish, Thai, Turkish,
};
use tempo::game::{Duplicates, Game, MoveList, MoveStyle};
use tempo::perft::perft;
use tempo::zobrist::splitmix;

/// A reference move in Hub form: `from-to`, or `fromxto` and the captured squares ascending.
fn hub(m: &RefMove) -> String {
    if m.captured.is_empty() {
        format!("{}-{}", m.from, m.to)
    } else {
        let caps: Vec<String> = m.captured.iter().map(|c| c.to_string()).collect();
        format!("{}x{}x{}", m.from, m.to, caps.join("x"))
    }
}

/// Plays one random legal move (chosen by `seed`, which advances) in both generators; returns its
/// Hub text, or `None` when the side to move has no move.
fn play_random<G: Game>(pos: &mut G, rpos: &mut RefPos, seed: &mut u64) -> Option<String> {
    let mut list = MoveList::new();
    pos.generate(&mut list);
    if list.is_empty() {
        return None;
    }
    *seed = splitmix(*seed);
    let mv = list[(*seed % list.len() as u64) as usize];
    let text = pos.format_move(&mv, MoveStyle::Hub);
    let rmv = rpos
        .moves(false)
        .into_iter()
        .find(|m| hub(m) == text)
        .expect("the reference has the engine's move");
    *pos = pos.play(&mv);
    *rpos = rpos.play(&rmv);
    Some(text)
}

/// Plays `games` random games in both generators, comparing the sorted move lists (both duplicate
/// policies) and the position after each move. Returns the number of positions compared.
fn compare_games<G: Game>(v: RefVariant, games: u64, plies: usize) -> usize {
    let mut compared = 0;
    let mut list = MoveList::new();
    for game in 0..games {
        let mut pos = G::start();
        let mut rpos = RefPos::start(v);
        let mut seed = splitmix(game ^ 0xC0FFEE);
        for _ in 0..plies {
            for (dup, keep) in [(Duplicates::Merge, false), (Duplicates::Keep, true)] {
                pos.generate_with(dup, &mut list);
                let mut ours: Vec<String> = list.iter().map(|m| pos.format_move(m, MoveStyle::Hub)).collect();
                let mut theirs: Vec<String> = rpos.moves(keep).iter().map(hub).collect();
                ours.sort();
                theirs.sort();
                assert_eq!(ours, theirs, "{v:?} {dup:?} at {}", pos.to_fen());
            }
            compared += 1;
            let Some(text) = play_random(&mut pos, &mut rpos, &mut seed) else {
                break;
            };
            let theirs = G::from_fen(&rpos.to_fen()).expect("reference FEN reads");
            assert_eq!(theirs.to_hub(), pos.to_hub(), "{v:?} after {text}");
        }
    }
    compared
}

#[test]
fn frysk_perft_agrees_with_the_reference() {
    // Frysk! has no published counts (rules.md §2.9): both generators must agree.
    let start = RefPos::start(RefVariant::Frysk);
    for depth in 1..=5 {
        for (dup, keep) in [(Duplicates::Merge, false), (Duplicates::Keep, true)] {
            let ours = perft(&Frysk::start(), depth, dup);
            assert_eq!(
                ours,
                reference::perft(&start, depth, keep),
                "depth {depth} {dup:?}"
            );
        }
    }
}

#[test]
#[ignore = "deeper Frysk! perft against the slow reference: about a minute"]
fn frysk_perft_agrees_with_the_reference_deep() {
    let start = RefPos::start(RefVariant::Frysk);
    for depth in 6..=7 {
        for (dup, keep) in [(Duplicates::Merge, false), (Duplicates::Keep, true)] {
            let ours = perft(&Frysk::start(), depth, dup);
            assert_eq!(
                ours,
                reference::perft(&start, depth, keep),
                "depth {depth} {dup:?}"
            );
        }
    }
}

/// Armenian and Turkish perft at `depths`, merged and kept, against the simple generator; and
/// counted kish's way (every square a king's straight run could stop on, `Duplicates::Landings`)
/// against the reference's own count of every path.
fn full_board_perft_agrees(depths: std::ops::RangeInclusive<u32>) {
    for depth in depths {
        for v in [RefVariant::Armenian, RefVariant::Turkish] {
            let ours = match v {
                RefVariant::Armenian => perft(&Armenian::start(), depth, Duplicates::Landings),
                _ => perft(&Turkish::start(), depth, Duplicates::Landings),
            };
            let theirs = reference::perft_every_path(&RefPos::start(v), depth);
            assert_eq!(ours, theirs, "{v:?} landings d{depth}");
        }
        for (dup, keep) in [(Duplicates::Merge, false), (Duplicates::Keep, true)] {
            let reference = |v| reference::perft(&RefPos::start(v), depth, keep);
            assert_eq!(
                perft(&Armenian::start(), depth, dup),
                reference(RefVariant::Armenian),
                "d{depth}"
            );
            assert_eq!(
                perft(&Turkish::start(), depth, dup),
                reference(RefVariant::Turkish),
                "d{depth}"
            );
        }
    }
}

#[test]
fn armenian_and_turkish_perft_agree_with_the_reference() {
    // Armenian has no published counts (rules.md §6); Turkish has kish's, which count a straight
    // king capture once per square passed (tests/data/turkish-kish-merged.tsv): both are checked
    // against the simple generator under D-A1, merged and kept.
    full_board_perft_agrees(1..=4);
}

#[test]
#[ignore = "deeper Armenian and Turkish perft against the slow reference"]
fn armenian_and_turkish_perft_agree_with_the_reference_deep() {
    full_board_perft_agrees(5..=6);
}

#[test]
fn random_games_agree_with_the_reference() {
    let n = compare_games::<International>(RefVariant::International, 150, 200)
        + compare_games::<Russian>(RefVariant::Russian, 150, 200)
        + compare_games::<Brazilian>(RefVariant::Brazilian, 150, 200)
        + compare_games::<English>(RefVariant::English, 150, 200)
        + compare_games::<Frisian>(RefVariant::Frisian, 150, 200)
        + compare_games::<Frysk>(RefVariant::Frysk, 150, 200)
        + compare_games::<Turkish>(RefVariant::Turkish, 150, 200)
        + compare_games::<Armenian>(RefVariant::Armenian, 150, 200)
        + compare_games::<Killer>(RefVariant::Killer, 150, 200)
        + compare_games::<Canadian>(RefVariant::Canadian, 40, 250)
        // Italian: many games, because its last precedence step (the sequence meeting the kings
        // earliest, rules.md §6) decides rarely: 30 times in a one-off run of 30,000 games.
        + compare_games::<Italian>(RefVariant::Italian, 3000, 200)
        + compare_games::<Spanish>(RefVariant::Spanish, 300, 200)
        // Portuguese has the Spanish rules, start and numbering (rules.md §6).
        + compare_games::<Portuguese>(RefVariant::Spanish, 150, 200)
        + compare_games::<Czech>(RefVariant::Czech, 300, 200)
        + compare_games::<Pool>(RefVariant::Pool, 300, 200)
        // Thai under rules.md's reading (no 180-degree turn; see tests/thai_question.rs).
        + compare_games::<Thai>(RefVariant::Thai, 300, 200);
    eprintln!("{n} positions compared");
    assert!(n > 20_000, "only {n} positions compared");
}

/// Canadian perft beyond the published depths (the table stops at 10 plies from the start): from
/// positions that random games reach after `plies` plies, perft at `depth` in both generators,
/// merged and kept. Returns the number of positions checked.
fn canadian_perft_beyond_the_table(games: u64, plies: &[usize], depth: u32) -> usize {
    let mut checked = 0;
    for game in 0..games {
        let mut pos = Canadian::start();
        let mut rpos = RefPos::start(RefVariant::Canadian);
        let mut seed = splitmix(game ^ 0xCA7AD1A7);
        for ply in 1..=*plies.iter().max().unwrap() {
            if play_random(&mut pos, &mut rpos, &mut seed).is_none() {
                break;
            }
            if plies.contains(&ply) {
                for (dup, keep) in [(Duplicates::Merge, false), (Duplicates::Keep, true)] {
                    assert_eq!(
                        perft(&pos, depth, dup),
                        reference::perft(&rpos, depth, keep),
                        "Canadian d{depth} {dup:?} at {}",
                        pos.to_fen()
                    );
                }
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn canadian_perft_beyond_the_table_agrees_with_the_reference() {
    // rules.md §6: Canadian is the International rules on 12x12; the published counts end at
    // depth 10, so deeper trees are checked against the simple generator: positions 11 to 80
    // plies from the start (kings appear in the later ones), three plies deep.
    let n = canadian_perft_beyond_the_table(8, &[11, 20, 40, 60, 80], 3);
    assert!(n >= 30, "only {n} positions checked");
}

#[test]
#[ignore = "deeper Canadian perft against the slow reference: about a minute"]
fn canadian_perft_beyond_the_table_agrees_with_the_reference_deep() {
    let n = canadian_perft_beyond_the_table(20, &[11, 15, 25, 40, 60, 80, 100], 5);
    assert!(n >= 100, "only {n} positions checked");
}
