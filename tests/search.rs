//! Search tests: win distance, repetition, tactical shots, stop latency, results always produced,
//! deterministic node counts, clock handling, and short self-play in every variant.

use std::time::{Duration, Instant};
use tempo::draughts::{Brazilian, Breakthrough, English, International, Russian};
use tempo::engine::{Engine, Event};
use tempo::eval::Evaluate;
use tempo::game::{Game, MoveList, MoveStyle, Outcome};
use tempo::search::{Clock, Limits, Search, SearchResult, Shared, WIN, replay};
use tempo::tt::Tt;
use tempo::variant::Variant;
use tempo::with_variant;

fn search<G: Evaluate>(pos: &G, history: &[u64], depth: u32) -> SearchResult<G::Move> {
    let tt = Tt::new(16);
    let shared = Shared::default();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    Search::new(&tt, &shared, limits, history, pos).run(pos, |_| {})
}

/// The best score, for the side to move at `pos`, of the moves other than `best`, each searched to
/// `depth` plies after it (so as deep as a search of `pos` to `depth + 1`).
fn best_other_score<G: Evaluate>(pos: &G, best: Option<G::Move>, depth: u32) -> i32 {
    let mut list = MoveList::new();
    pos.generate(&mut list);
    list.iter()
        .filter(|m| Some(**m) != best)
        .map(|m| -search(&pos.play(m), &[], depth).score)
        .max()
        .expect("a move other than the best")
}

/// A shot found by a depth-8 search (`r`) scores more than half a man above the best other move
/// searched as deep.
fn assert_half_a_man_above_the_rest<G: Evaluate>(pos: &G, r: &SearchResult<G::Move>) {
    let best_other = best_other_score(pos, r.best, 7);
    assert!(
        r.score > best_other + 50,
        "{} against {} for the best other move",
        r.score,
        best_other
    );
}

fn name<G: Game>(pos: &G, mv: Option<G::Move>) -> String {
    mv.map_or("none".into(), |m| pos.format_move(&m, MoveStyle::Standard))
}

#[test]
fn the_shortest_win_is_chosen() {
    // Breakthrough: the first king wins. 7-1 or 7-2 crowns at once; 40-34 and the like win later.
    let pos = Breakthrough::from_fen("W:W7,40,45:B10,15").unwrap();
    let r = search(&pos, &[], 6);
    assert_eq!(r.score, WIN - 1, "win in one ply");
    assert!(["7-1", "7-2"].contains(&name(&pos, r.best).as_str()));
    // Black to move cannot stop it and loses in the most plies it can: 2.
    let pos = Breakthrough::from_fen("B:W7,40,45:B10,15").unwrap();
    let r = search(&pos, &[], 6);
    assert_eq!(r.score, -(WIN - 2));
}

#[test]
fn the_longest_loss_and_a_quick_mate_in_international() {
    // White to move takes the last black piece: a win in one ply.
    let pos = International::from_fen("W:W28,K50:B23").unwrap();
    let r = search(&pos, &[], 5);
    assert_eq!(r.score, WIN - 1);
    assert_eq!(name(&pos, r.best), "28x19");
}

/// The keys of a game history (positions before `root`, oldest first) in which the position after
/// `mv` occurred twice: `q root q`, then `root`.
fn history_repeating<G: Game>(root: &G, mv: &str) -> Vec<u64> {
    let m = root.parse_move(mv).unwrap();
    let q = root.play(&m);
    vec![q.key(), root.key(), q.key()]
}

#[test]
fn the_losing_side_finds_the_repetition() {
    // A king against a king and three men: White is losing by the evaluation (four pieces against
    // a king are not scaled down as a drawish ending), but 35-30 repeats a position for the third
    // time, a draw (FMJD 6.1).
    let pos = International::from_fen("W:WK35:BK16,2,3,4").unwrap();
    let without = search(&pos, &[], 6);
    assert!(without.score < -100, "{}", without.score);
    let history = history_repeating(&pos, "35-30");
    let r = search(&pos, &history, 6);
    assert_eq!(r.score, 0);
    assert_eq!(name(&pos, r.best), "35-30");
}

#[test]
fn the_winning_side_avoids_the_repetition() {
    let pos = International::from_fen("W:WK46,K45:BK5").unwrap();
    let history = history_repeating(&pos, "46-37");
    let r = search(&pos, &history, 6);
    assert!(r.score > 100, "{}", r.score);
    assert_ne!(name(&pos, r.best), "46-37");
}

/// Issue 17: at depth 1 the root's children go straight to the quiescence search, which did not
/// look for repetitions, so a move repeating a position for the third time scored as if it did
/// not (and the draw appeared only from depth 2). Each depth must see it.
#[test]
fn a_repetition_is_seen_at_every_depth() {
    let losing = International::from_fen("W:WK35:BK16,2,3,4").unwrap();
    let history = history_repeating(&losing, "35-30");
    let winning = International::from_fen("W:WK46,K45:BK5").unwrap();
    let avoided = history_repeating(&winning, "46-37");
    for depth in 1..=6 {
        let r = search(&losing, &history, depth);
        assert_eq!(r.score, 0, "depth {depth}: the losing side draws");
        assert_eq!(name(&losing, r.best), "35-30", "depth {depth}");
        let r = search(&winning, &avoided, depth);
        assert!(r.score > 100, "depth {depth}: {}", r.score);
        assert_ne!(name(&winning, r.best), "46-37", "depth {depth}");
    }
    // MultiPV shows the repeating move's own score: a draw at depth 1 as at depth 2.
    let tt = Tt::new(16);
    let shared = Shared::default();
    for depth in 1..=2 {
        let limits = Limits {
            depth: Some(depth),
            multipv: 64,
            ..Limits::default()
        };
        let mut scores = Vec::new();
        Search::new(&tt, &shared, limits, &avoided, &winning).run(&winning, |info| {
            if info.depth == depth && name(&winning, info.pv.first().copied()) == "46-37" {
                scores.push(info.score);
            }
        });
        assert_eq!(scores, [0], "depth {depth}");
    }
}

#[test]
fn repetition_history_is_cut_at_irreversible_moves() {
    let start = International::start();
    let mut moves = Vec::new();
    let mut pos = start;
    for text in ["32-28", "19-23", "28x19", "14x23"] {
        let m = pos.parse_move(text).unwrap();
        moves.push(m);
        pos = pos.play(&m);
    }
    let (end, keys) = replay(&start, &moves);
    assert_eq!(end, pos);
    assert!(keys.is_empty(), "the last move captured");
}

#[test]
fn international_shot_two_for_one() {
    // 31-27 21x32 37x19: a man for two.
    let pos = International::from_fen("W:W31,37,41,46,47:B3,4,21,23").unwrap();
    let r = search(&pos, &[], 8);
    assert_eq!(name(&pos, r.best), "31-27");
    // The shot wins a man. How much a man is worth in this endgame is the evaluation's to say (the
    // third learned generation, International's default, scores the shot 1.24 men up, below the
    // 1.5 this test once asked for), so the gain is measured against the best other move searched
    // as deep, not against a fixed level.
    assert_half_a_man_above_the_rest(&pos, &r);
}

#[test]
fn russian_shot_two_for_one() {
    // b2-c3 a5:b4... : 25-22 17x26 30x16, a man for two.
    let pos = Russian::from_fen("W:W25,30,32:B1,2,17,19").unwrap();
    let r = search(&pos, &[], 8);
    assert_eq!(name(&pos, r.best), "b2-c3");
    // White starts a man down; the shot evens the material, every other move leaves it a man down
    // or worse. (The learned evaluation, Russian's default, scores the 2 against 2 that follows
    // near a draw and the start as only somewhat worse, so the gain is measured against the best
    // other move searched as deep, not against a fixed level or the static score.)
    assert_half_a_man_above_the_rest(&pos, &r);
}

#[test]
fn english_shot_two_for_one() {
    // The same shot where men capture forward only (rules.md section 6, English: usacheckers 1.17-1.32):
    // 25-22 17x26 (forced) 30x23x16 takes two for one.
    let pos = English::from_fen("W:W25,30,32:B1,2,17,19").unwrap();
    let r = search(&pos, &[], 8);
    assert_eq!(name(&pos, r.best), "25-22");
    // Measured from the static score of the start, as for Russian.
    assert!(
        r.score > pos.evaluate() + 50,
        "{} against {}",
        r.score,
        pos.evaluate()
    );
}

#[test]
fn brazilian_shot_two_for_one() {
    // Brazilian (International rules on 8x8): b2-c3 b4:d2 c1:e3:g5.
    let pos = Brazilian::from_fen("W:W25,30,32:B1,2,17,19").unwrap();
    let r = search(&pos, &[], 8);
    assert_eq!(name(&pos, r.best), "b2-c3");
    // Measured from the static score of the start, as for Russian.
    assert!(
        r.score > pos.evaluate() + 50,
        "{} against {}",
        r.score,
        pos.evaluate()
    );
}

/// Waits for `Done`, returning it and the last `Info` depth.
fn wait_done<M: Copy>(engine: &Engine<impl Evaluate<Move = M>>, within: Duration) -> (Option<M>, u32, u64) {
    let deadline = Instant::now() + within;
    let (mut depth, mut nodes) = (0, 0);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match engine.events().recv_timeout(left) {
            Ok(Event::Info(i)) => {
                depth = i.depth;
                nodes = i.nodes;
            }
            Ok(Event::Done { best, .. }) => return (best, depth, nodes),
            Err(e) => panic!("no Done within {within:?}: {e}"),
        }
    }
}

#[test]
fn stop_ends_the_search_within_milliseconds() {
    let mut engine = Engine::<International>::new(16);
    for delay in [0u64, 5, 50, 200] {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        engine.go(International::start(), Vec::new(), limits, false);
        std::thread::sleep(Duration::from_millis(delay));
        let t = Instant::now();
        engine.stop();
        let (best, _, _) = wait_done(&engine, Duration::from_secs(2));
        let latency = t.elapsed();
        assert!(best.is_some(), "a move even when stopped at once");
        assert!(
            latency < Duration::from_millis(50),
            "stop took {latency:?} after {delay} ms"
        );
    }
}

#[test]
fn a_result_is_always_produced() {
    let mut engine = Engine::<Russian>::new(1);
    for _ in 0..20 {
        engine.go(Russian::start(), Vec::new(), Limits::default(), false);
        engine.stop();
        let (best, _, _) = wait_done(&engine, Duration::from_secs(2));
        let best = best.expect("a legal move");
        let mut moves = MoveList::new();
        Russian::start().generate(&mut moves);
        assert!(moves.contains(&best));
    }
    // No legal move: Done without a move.
    let lost = International::from_fen("W:W46:B41,37").unwrap();
    let mut engine = Engine::<International>::new(1);
    engine.go(lost, Vec::new(), Limits::default(), false);
    assert_eq!(wait_done(&engine, Duration::from_secs(2)).0, None);
}

#[test]
fn fixed_depth_node_counts_are_deterministic() {
    let run = || {
        let mut engine = Engine::<International>::new(16);
        let limits = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        engine.go(International::start(), Vec::new(), limits, false);
        wait_done(&engine, Duration::from_secs(30))
    };
    let (a, da, na) = run();
    let (b, db, nb) = run();
    assert_eq!((a, da, na), (b, db, nb));
    assert_eq!(da, 8);
}

#[test]
fn bench_is_deterministic() {
    let (a, _) = tempo::bench::run(4).unwrap();
    let (b, _) = tempo::bench::run(4).unwrap();
    assert_eq!(a, b);
    assert!(a.iter().all(|l| l.nodes > 0 && l.best != "none"));
}

#[test]
fn a_single_legal_move_is_played_at_once_in_a_game() {
    // Black must capture 28x37... only one way.
    let pos = International::from_fen("B:W32,K50:B27,1").unwrap();
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    assert_eq!(moves.len(), 1);
    let mut engine = Engine::<International>::new(1);
    let clock = Clock {
        time: Duration::from_secs(60),
        increment: Duration::ZERO,
        moves_to_go: None,
        ..Clock::default()
    };
    let limits = Limits {
        clock: Some(clock),
        ..Limits::default()
    };
    let t = Instant::now();
    engine.go(pos, Vec::new(), limits, false);
    let (best, depth, _) = wait_done(&engine, Duration::from_secs(2));
    assert_eq!(best, Some(moves[0]));
    assert_eq!(depth, 0, "not searched");
    assert!(t.elapsed() < Duration::from_millis(100));
}

#[test]
fn a_fast_game_with_a_tenth_of_a_second_increment_keeps_its_clock() {
    // Both sides start with 0.3 s and gain 0.1 s a move; the clock must never run out.
    let mut engine = Engine::<International>::new(8);
    let mut pos = International::start();
    let mut history = Vec::new();
    let mut clocks = [Duration::from_millis(300); 2];
    for _ in 0..16 {
        if pos.outcome().is_some() {
            break;
        }
        let me = pos.side_to_move().index();
        let limits = Limits {
            clock: Some(Clock {
                time: clocks[me],
                increment: Duration::from_millis(100),
                moves_to_go: None,
                ..Clock::default()
            }),
            ..Limits::default()
        };
        let t = Instant::now();
        engine.go(pos, history.clone(), limits, false);
        let (best, _, _) = wait_done(&engine, Duration::from_secs(5));
        let used = t.elapsed();
        assert!(used < clocks[me], "used {used:?} of {:?}", clocks[me]);
        clocks[me] = clocks[me] - used + Duration::from_millis(100);
        let m = best.expect("a move");
        history.push(pos.key());
        pos = pos.play(&m);
    }
}

fn self_play<G: Evaluate>(plies: usize, depth: u32) -> Option<Outcome> {
    let tt = Tt::new(4);
    let mut pos = G::start();
    let mut history: Vec<u64> = Vec::new();
    for _ in 0..plies {
        if let Some(o) = pos.outcome() {
            return Some(o);
        }
        let shared = Shared::default();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = Search::new(&tt, &shared, limits, &history, &pos).run(&pos, |_| {});
        let m = r.best.expect("a move while the game is not over");
        let mut legal = MoveList::new();
        pos.generate(&mut legal);
        assert!(legal.contains(&m), "{} played an illegal move", G::NAME);
        if pos.is_irreversible(&m) {
            history.clear();
        } else {
            history.push(pos.key());
        }
        pos = pos.play(&m);
    }
    None
}

#[test]
fn every_variant_plays_legal_moves() {
    for v in Variant::ALL {
        with_variant!(v, G => { self_play::<G>(24, 3); });
    }
}

#[test]
#[ignore = "plays full games in every variant; a minute or more"]
fn every_variant_plays_a_game_to_its_end() {
    for v in Variant::ALL {
        let o = with_variant!(v, G => self_play::<G>(600, 5));
        println!("{v}: {o:?}");
    }
}
