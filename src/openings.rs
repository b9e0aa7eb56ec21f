//! Opening suites: read from a file (PDN games, or one FEN and/or move list per line, such as the
//! 8x8 three-move ballots), or generated as random move sequences from a seed and kept only when
//! Tempo's own search finds them balanced.

use crate::eval::Evaluate;
use crate::game::{Game, MoveList};
use crate::search::{Limits, Search, Shared, replay};
use crate::tt::Tt;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// A start position and the opening moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening<G: Game> {
    /// The start position.
    pub start: G,
    /// Forced opening moves.
    pub moves: Vec<G::Move>,
}

/// The largest `start=` or `plies=` of `--openings` (a match plays no more games than this).
const MAX_INDEX: usize = 1_000_000;

/// Whether a token of a move list is a move number (`1.`, `12...`) or a result, to be skipped.
fn is_filler(token: &str) -> bool {
    let t = token.trim_end_matches('.');
    (token.ends_with('.') && !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()))
        || crate::pdn::RESULTS.contains(&token)
}

/// Plays move texts from `start`; the error names the move. A game that ends on the last move is
/// refused unless `finished` allows it.
fn play_texts<G: Game>(
    start: &G,
    texts: &[&str],
    what: &str,
    finished: bool,
) -> Result<Vec<G::Move>, String> {
    let mut pos = *start;
    let mut moves = Vec::new();
    for t in texts {
        let mv = pos
            .parse_move(t)
            .map_err(|e| format!("{what}: move {t:?} in {}: {e}", pos.to_fen()))?;
        moves.push(mv);
        pos = pos.play(&mv);
    }
    if !finished && pos.outcome().is_some() {
        return Err(format!(
            "{what}: the game is already over {}",
            if texts.is_empty() {
                "in this position"
            } else {
                "after the opening"
            }
        ));
    }
    Ok(moves)
}

/// Reads an opening file for game type `G`.
///
/// A file with PDN tags (`[`) is read as PDN: each game is an opening, from its `FEN` tag or the
/// initial position. Otherwise each line that is not empty and does not start with `#` or `;` is
/// one opening: a FEN (`W:W31-50:B1-20`), a FEN followed by moves, or moves from the initial
/// position (`9-13 22-18 10-14`, move numbers allowed: the 8x8 ballots).
///
/// # Errors
/// The file cannot be read, is empty, or holds a position or move that is not legal (named with its
/// line or game).
pub fn load<G: Game>(path: &std::path::Path) -> Result<Vec<Opening<G>>, String> {
    read(path, false)
}

/// Reads a file in the format of [`load`] as whole games, for `tempo selfplay --starts`: a game
/// may end on its last move (a PDN of played games), which an opening may not.
///
/// # Errors
/// As [`load`], except for finished games.
pub fn load_games<G: Game>(path: &std::path::Path) -> Result<Vec<Opening<G>>, String> {
    read(path, true)
}

/// [`load`] and [`load_games`]: `finished` accepts games that are over.
fn read<G: Game>(path: &std::path::Path, finished: bool) -> Result<Vec<Opening<G>>, String> {
    let text = crate::pdn::read_file(path).map_err(|e| format!("openings: {e}"))?;
    // A byte-order mark (as some Windows editors write) is not part of the first opening.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let name = path.display();
    let mut out = Vec::new();
    if text.contains('[') {
        let games = crate::pdn::parse_games(text).map_err(|e| format!("openings {name}: {e}"))?;
        for (i, g) in games.iter().enumerate() {
            let what = format!("openings {name}, game {}", i + 1);
            let start = match g.tag("FEN") {
                Some(f) => G::from_fen(f).map_err(|e| format!("{what}: bad FEN {f:?}: {e}"))?,
                None => G::start(),
            };
            let texts: Vec<&str> = g.moves.iter().map(String::as_str).collect();
            let moves = play_texts(&start, &texts, &what, finished)?;
            out.push(Opening { start, moves });
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
                continue;
            }
            let what = format!("openings {name}, line {}", i + 1);
            if let Ok(start) = G::from_fen(line) {
                if !finished && start.outcome().is_some() {
                    return Err(format!("{what}: the game is already over in this position"));
                }
                out.push(Opening {
                    start,
                    moves: Vec::new(),
                });
                continue;
            }
            let tokens: Vec<&str> = line.split_whitespace().filter(|t| !is_filler(t)).collect();
            let (start, texts) = match tokens.split_first() {
                Some((first, rest)) if first.contains(':') => (
                    G::from_fen(first).map_err(|e| format!("{what}: bad FEN {first:?}: {e}"))?,
                    rest,
                ),
                _ => (G::start(), &tokens[..]),
            };
            let moves = play_texts(&start, texts, &what, finished)?;
            out.push(Opening { start, moves });
        }
    }
    if out.is_empty() {
        return Err(format!("openings {name}: no opening in the file"));
    }
    Ok(out)
}

/// How the openings of a file are used: `--openings FILE [order=sequential|random] [start=N]
/// [plies=N]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileOrder {
    /// The file.
    pub path: std::path::PathBuf,
    /// Shuffled (by the match's seed) rather than in file order.
    pub random: bool,
    /// The opening the match begins with, from 1 (in the shuffled order with `order=random`).
    pub start: usize,
    /// The most plies of each opening played (`None`: all).
    pub plies: Option<usize>,
}

impl FileOrder {
    /// Reads the `--openings` values: the file (or `file=PATH`), then `order=`, `start=`, `plies=`.
    ///
    /// # Errors
    /// No file, two files, an unknown word or a bad number.
    pub fn parse(values: &[String]) -> Result<FileOrder, String> {
        let mut path = None;
        let mut o = FileOrder {
            path: std::path::PathBuf::new(),
            random: false,
            start: 1,
            plies: None,
        };
        let number = |w: &str, v: &str, least: usize| {
            v.parse::<usize>()
                .ok()
                .filter(|&n| n >= least && n <= MAX_INDEX)
                .ok_or_else(|| format!("--openings {w:?}: expected a whole number from {least}"))
        };
        for w in values {
            match w.split_once('=') {
                Some(("order", "random")) => o.random = true,
                Some(("order", "sequential")) => o.random = false,
                Some(("order", v)) => {
                    return Err(format!("--openings order={v}: expected random or sequential"));
                }
                Some(("start", v)) => o.start = number(w, v, 1)?,
                Some(("plies", v)) => o.plies = Some(number(w, v, 0)?),
                Some(("file", v)) if path.is_none() => path = Some(v.to_string()),
                _ if path.is_none() => path = Some(w.clone()),
                _ => {
                    return Err(format!(
                        "--openings {w:?}: one file, then order=random|sequential, start=N, plies=N"
                    ));
                }
            }
        }
        o.path = path.ok_or("--openings needs a file")?.into();
        Ok(o)
    }

    /// The openings of the file in the order the match plays them: cut to `plies`, shuffled by
    /// `seed` with `order=random` (ChaCha8 and a Fisher-Yates shuffle: the same seed, the same
    /// order, so that runs split by `start=` across machines share it), then begun at `start`.
    ///
    /// # Errors
    /// A `start` beyond the file's openings.
    pub fn arrange<G: Game>(&self, mut all: Vec<Opening<G>>, seed: u64) -> Result<Vec<Opening<G>>, String> {
        if self.start > all.len() {
            return Err(format!(
                "--openings start={}: the file has {} openings",
                self.start,
                all.len()
            ));
        }
        if let Some(p) = self.plies {
            for o in &mut all {
                o.moves.truncate(p);
            }
        }
        if self.random {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for i in (1..all.len()).rev() {
                let j = rng.random_range(0..=i);
                all.swap(i, j);
            }
        }
        all.rotate_left(self.start - 1);
        Ok(all)
    }
}

/// The balance filter: a search depth and the range of scores (hundredths of a man, for either
/// side) an opening may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Balance {
    /// Depth of Tempo's search.
    pub depth: u32,
    /// Largest absolute score kept.
    pub max_score: i32,
    /// Least absolute score kept (0: none). Openings that give one side an edge make fewer
    /// draws; played with both colours, the edge cancels out of the match's score.
    pub min_score: i32,
}

impl Balance {
    /// The filter of `--balance MAX --imbalance MIN` (in men; 0 turns either bound off) with a
    /// search at `depth`, or none when both are 0.
    ///
    /// # Errors
    /// A bound that is negative or not a number, or a MIN not below a MAX that is on.
    pub fn from_men(max: f64, min: f64, depth: u32) -> Result<Option<Balance>, String> {
        for (name, men) in [("--balance", max), ("--imbalance", min)] {
            if !(men.is_finite() && men >= 0.0) {
                return Err(format!("{name} {men}: must be 0 or more men"));
            }
        }
        if max > 0.0 && min >= max {
            return Err(format!(
                "--imbalance {min} must be below --balance {max}: no opening could pass both"
            ));
        }
        let hundredths = |men: f64| (men * 100.0).round() as i32;
        Ok((max > 0.0 || min > 0.0).then(|| Balance {
            depth: depth.clamp(1, crate::search::MAX_DEPTH),
            max_score: if max > 0.0 { hundredths(max) } else { i32::MAX },
            min_score: hundredths(min),
        }))
    }

    /// What the filter keeps, as the match prints it: `balanced within 0.50 men`.
    pub fn describe(&self) -> String {
        let men = |h: i32| f64::from(h) / 100.0;
        match (self.min_score, self.max_score) {
            (0, max) => format!("balanced within {:.2} men", men(max)),
            (min, i32::MAX) => format!("one side ahead by {:.2} men or more", men(min)),
            (min, max) => format!("one side ahead by {:.2} to {:.2} men", men(min), men(max)),
        }
    }

    /// Whether a score (for either side) passes the filter.
    pub fn keeps(&self, score: i32) -> bool {
        (self.min_score..=self.max_score).contains(&score.abs())
    }
}

/// Tempo's score of the position after `moves` from `start`, for the side to move, at `depth`.
pub fn evaluate_opening<G: Evaluate>(start: &G, moves: &[G::Move], depth: u32, tt: &Tt) -> i32 {
    let (pos, history) = replay(start, moves);
    tt.clear();
    let shared = Shared::default();
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let mut search = Search::new(tt, &shared, limits, &history, &pos);
    search.run(&pos, |_| {}).score
}

/// A stream of different random openings of a fixed number of plies from the initial position
/// (or another start),
/// drawn from a seed by ChaCha8 (`rand_chacha`, whose output for a seed is fixed across versions,
/// so a printed seed repeats its openings): every move uniformly among the legal ones; an opening
/// that ends the game, repeats an earlier one, or (with a balance filter) is scored beyond the
/// limit by Tempo's search is drawn again. A match draws its openings as its games need them: a
/// test that stops early does not pay for thousands of balance searches before its first game.
pub struct RandomOpenings<G: Game> {
    start: G,
    rng: ChaCha8Rng,
    plies: usize,
    balance: Option<Balance>,
    tt: Tt,
    seen: HashSet<u64>,
    made: usize,
    tries: usize,
    _game: std::marker::PhantomData<G>,
}

/// Draws allowed per opening, counted over the whole stream, before the filter is judged too strict.
const TRIES_PER_OPENING: usize = 200;

impl<G: Evaluate> RandomOpenings<G> {
    /// The stream of `seed`.
    pub fn new(plies: usize, seed: u64, balance: Option<Balance>) -> Self {
        Self::from_position(G::start(), plies, seed, balance)
    }

    /// The stream of `seed` from `start` instead of the initial position.
    pub fn from_position(start: G, plies: usize, seed: u64, balance: Option<Balance>) -> Self {
        RandomOpenings {
            start,
            rng: ChaCha8Rng::seed_from_u64(seed),
            plies,
            balance,
            tt: Tt::new(16),
            seen: HashSet::new(),
            made: 0,
            tries: 0,
            _game: std::marker::PhantomData,
        }
    }

    /// The next opening of the stream.
    ///
    /// # Errors
    /// When the filter has passed too few openings (after `TRIES_PER_OPENING` draws per
    /// opening wanted): the message says how many it passed.
    pub fn next_opening(&mut self) -> Result<Opening<G>, String> {
        let plies = self.plies;
        if plies == 0 {
            // Every game from the initial position, the one opening of no plies: what makes the
            // games differ is the engines' own (their books), so nothing is filtered or refused.
            self.made += 1;
            return Ok(Opening {
                start: self.start,
                moves: Vec::new(),
            });
        }
        let max_tries = TRIES_PER_OPENING * (self.made + 1);
        'draw: loop {
            self.tries += 1;
            if self.tries > max_tries {
                return Err(format!(
                    "only {} random openings of {plies} plies passed the filter in {max_tries} tries \
                     (at most {TRIES_PER_OPENING} an opening); loosen the filter (a larger --balance \
                     or a smaller --imbalance; 0 turns either off) or change --random-plies",
                    self.made
                ));
            }
            let start = self.start;
            let mut pos = start;
            let mut moves = Vec::with_capacity(plies);
            let mut list = MoveList::new();
            for _ in 0..plies {
                pos.generate(&mut list);
                if list.is_empty() {
                    continue 'draw;
                }
                let mv = list[self.rng.random_range(0..list.len())];
                moves.push(mv);
                pos = pos.play(&mv);
                if pos.outcome().is_some() {
                    continue 'draw;
                }
            }
            if !self.seen.insert(pos.key()) {
                continue;
            }
            if let Some(b) = self.balance
                && !b.keeps(evaluate_opening(&start, &moves, b.depth, &self.tt))
            {
                continue;
            }
            self.made += 1;
            return Ok(Opening { start, moves });
        }
    }
}

/// The first `count` openings of the [`RandomOpenings`] stream of `seed`.
///
/// # Errors
/// As [`RandomOpenings::next_opening`].
pub fn random<G: Evaluate>(
    count: usize,
    plies: usize,
    seed: u64,
    balance: Option<Balance>,
) -> Result<Vec<Opening<G>>, String> {
    let mut stream = RandomOpenings::new(plies, seed, balance);
    (0..count).map(|_| stream.next_opening()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Zero random plies: every game starts from the initial position, however many are asked
    /// for, with the balance filter on.
    #[test]
    fn zero_plies_give_the_initial_position_every_time() {
        let balance = Balance::from_men(0.5, 0.0, 2).unwrap();
        let all = random::<crate::draughts::International>(5, 0, 1, balance).unwrap();
        assert_eq!(all.len(), 5);
        assert!(all.iter().all(|o| o.moves.is_empty()
            && o.start.key() == crate::draughts::International::start().key()));
    }
    use crate::draughts::{English, International};

    /// The first opening drawn from seed 7 (International, 4 plies, balance depth 4 within 0.6).
    const PINNED_SEED_7: [&str; 4] = ["32-27", "18-22", "27x18", "12x23"];

    #[test]
    fn a_filter_nothing_passes_is_an_error_not_a_hang() {
        let never = Some(Balance {
            depth: 1,
            max_score: -1,
            min_score: 0,
        });
        let mut stream = RandomOpenings::<International>::new(2, 1, never);
        let e = stream.next_opening().unwrap_err();
        assert!(
            e.contains("only 0 random openings of 2 plies passed the filter in 200 tries"),
            "{e}"
        );
    }

    #[test]
    fn random_openings_are_reproducible_different_and_balanced() {
        let b = Some(Balance {
            depth: 4,
            max_score: 60,
            min_score: 0,
        });
        let a = random::<International>(6, 4, 7, b).unwrap();
        let again = random::<International>(6, 4, 7, b).unwrap();
        assert_eq!(a, again);
        let keys: HashSet<u64> = a.iter().map(|o| replay(&o.start, &o.moves).0.key()).collect();
        assert_eq!(keys.len(), 6);
        let tt = Tt::new(16);
        for o in &a {
            assert_eq!(o.moves.len(), 4);
            assert!(evaluate_opening(&o.start, &o.moves, 4, &tt).abs() <= 60);
        }
        assert_ne!(a, random::<International>(6, 4, 8, b).unwrap());
        // The generator's output for a seed is part of the interface (a printed seed repeats a
        // run): the first opening of seed 7 is pinned.
        let first: Vec<String> = {
            let mut pos = a[0].start;
            a[0].moves
                .iter()
                .map(|m| {
                    let t = pos.format_move(m, crate::game::MoveStyle::Standard);
                    pos = pos.play(m);
                    t
                })
                .collect()
        };
        assert_eq!(first, PINNED_SEED_7);
    }

    #[test]
    fn the_filter_from_its_options() {
        assert_eq!(Balance::from_men(0.0, 0.0, 6), Ok(None));
        let b = Balance::from_men(0.5, 0.0, 6).unwrap().unwrap();
        assert_eq!((b.depth, b.min_score, b.max_score), (6, 0, 50));
        assert_eq!(b.describe(), "balanced within 0.50 men");
        let b = Balance::from_men(0.8, 0.3, 0).unwrap().unwrap();
        assert_eq!((b.depth, b.min_score, b.max_score), (1, 30, 80));
        assert_eq!(b.describe(), "one side ahead by 0.30 to 0.80 men");
        let b = Balance::from_men(0.0, 0.3, 6).unwrap().unwrap();
        assert_eq!(b.describe(), "one side ahead by 0.30 men or more");
        assert!(b.keeps(30_000) && !b.keeps(29));
        let e = Balance::from_men(0.5, 0.5, 6).unwrap_err();
        assert!(e.contains("--imbalance 0.5 must be below --balance 0.5"), "{e}");
        let e = Balance::from_men(-1.0, 0.0, 6).unwrap_err();
        assert!(e.contains("--balance -1: must be 0 or more men"), "{e}");
    }

    #[test]
    fn an_imbalance_filter_keeps_only_openings_with_an_edge() {
        let b = Balance {
            depth: 4,
            max_score: 80,
            min_score: 30,
        };
        assert!(b.keeps(30) && b.keeps(-80) && b.keeps(55));
        assert!(!b.keeps(29) && !b.keeps(-29) && !b.keeps(0) && !b.keeps(81));
        let a = random::<International>(6, 6, 7, Some(b)).unwrap();
        let tt = Tt::new(16);
        let scores: Vec<i32> = a
            .iter()
            .map(|o| evaluate_opening(&o.start, &o.moves, 4, &tt))
            .collect();
        assert!(scores.iter().all(|s| (30..=80).contains(&s.abs())), "{scores:?}");
        // Without the lower bound the same stream keeps some level openings.
        let level = random::<International>(6, 6, 7, Some(Balance { min_score: 0, ..b })).unwrap();
        assert_ne!(a, level);
    }

    #[test]
    fn file_orders_parse_and_arrange() {
        let v = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let o = FileOrder::parse(&v("f.pdn order=random start=3 plies=2")).unwrap();
        assert_eq!((o.random, o.start, o.plies), (true, 3, Some(2)));
        assert_eq!(o.path, std::path::PathBuf::from("f.pdn"));
        assert_eq!(
            FileOrder::parse(&v("file=g")).unwrap().path,
            std::path::PathBuf::from("g")
        );
        for bad in ["", "a b", "a order=x", "a start=0", "a plies=x"] {
            assert!(FileOrder::parse(&v(bad)).is_err(), "{bad}");
        }
        let all = random::<International>(6, 4, 7, None).unwrap();
        let seq = FileOrder::parse(&v("f start=3 plies=1")).unwrap();
        let got = seq.arrange(all.clone(), 1).unwrap();
        assert_eq!(got[0].start, all[2].start);
        assert_eq!(got[0].moves, all[2].moves[..1]);
        assert_eq!(got[4].moves[..], all[0].moves[..1]);
        let rnd = FileOrder::parse(&v("f order=random")).unwrap();
        let a = rnd.arrange(all.clone(), 5).unwrap();
        assert_eq!(a, rnd.arrange(all.clone(), 5).unwrap(), "seeded");
        assert_ne!(a, all, "shuffled");
        let mut sorted_back: Vec<_> = a.iter().map(|o| o.moves.clone()).collect();
        let mut orig: Vec<_> = all.iter().map(|o| o.moves.clone()).collect();
        sorted_back.sort_by_key(|m| format!("{m:?}"));
        orig.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(sorted_back, orig, "a permutation");
        let e = FileOrder::parse(&v("f start=7"))
            .unwrap()
            .arrange(all, 1)
            .unwrap_err();
        assert!(e.contains("has 6 openings"), "{e}");
    }

    #[test]
    fn files_of_fens_ballots_and_pdn() {
        let dir = std::env::temp_dir().join(format!("tempo-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lines = dir.join("ballots.txt");
        std::fs::write(
            &lines,
            "# three-move ballots\n1. 9-13 22-18 2. 10-14\n\nB:W18,21-32:B1-12\n9-14 23-19 5-9\n",
        )
        .unwrap();
        let o = load::<English>(&lines).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].moves.len(), 3);
        assert!(o[1].moves.is_empty());
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "9-13 22-18 1-5\n").unwrap();
        let e = load::<English>(&bad).unwrap_err();
        assert!(e.contains("line 1") && e.contains("1-5"), "{e}");
        let pdn = dir.join("o.pdn");
        std::fs::write(
            &pdn,
            "[Event \"a\"]\n1. 32-28 19-23 *\n\n[FEN \"W:W31-50:B1-20\"]\n1. 33-29 *\n",
        )
        .unwrap();
        let o = load::<International>(&pdn).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves.len(), 2);
        assert!(load::<International>(&dir.join("missing")).is_err());
        // A byte-order mark is skipped; a position where the game is over is refused.
        std::fs::write(&lines, "\u{feff}9-13 22-18\n").unwrap();
        assert_eq!(load::<English>(&lines).unwrap()[0].moves.len(), 2);
        std::fs::write(&lines, "B:W18:B\n").unwrap();
        let e = load::<English>(&lines).unwrap_err();
        assert!(
            e.contains("line 1: the game is already over in this position"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
