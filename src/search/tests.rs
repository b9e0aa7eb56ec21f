use super::*;
use crate::draughts::International;

#[test]
fn win_distances_in_moves() {
    assert_eq!(win_distance(WIN - 1), Some(1));
    assert_eq!(win_distance(WIN - 3), Some(2));
    assert_eq!(win_distance(-(WIN - 2)), Some(-1));
    assert_eq!(win_distance(-(WIN - 4)), Some(-2));
    assert_eq!(win_distance(150), None);
}

#[test]
fn multipv_reports_distinct_lines() {
    let tt = Tt::new(1);
    let shared = Shared::default();
    let limits = Limits {
        depth: Some(4),
        multipv: 3,
        ..Limits::default()
    };
    let root = International::start();
    let mut seen = Vec::new();
    Search::new(&tt, &shared, limits, &[], &root).run(&root, |i| {
        if i.depth == 4 {
            seen.push((i.multipv, i.pv[0], i.score));
        }
    });
    assert_eq!(seen.len(), 3);
    assert!(seen[0].1 != seen[1].1 && seen[1].1 != seen[2].1 && seen[0].1 != seen[2].1);
    assert!(seen[0].2 >= seen[1].2 && seen[1].2 >= seen[2].2);
}

/// Runs [`search`] on a thread with the engine's stack (debug builds need it for deep searches).
fn search_on<G: Evaluate>(
    tt: &Tt,
    shared: &Shared,
    limits: Limits,
    root: &G,
    threads: usize,
) -> (SearchResult<G::Move>, Vec<Info<G::Move>>) {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(crate::engine::SEARCH_STACK)
            .spawn_scoped(s, || {
                let mut infos = Vec::new();
                let stack = crate::engine::SEARCH_STACK;
                let r = search(tt, shared, limits, &[], root, &[], threads, stack, |i| {
                    infos.push(i)
                });
                (r, infos)
            })
            .unwrap()
            .join()
            .unwrap()
    })
}

#[test]
fn one_thread_is_the_single_search_and_repeats_itself() {
    let root = International::start();
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let direct = {
        let (tt, shared) = (Tt::new(1), Shared::default());
        Search::new(&tt, &shared, limits, &[], &root).run(&root, |_| {})
    };
    for _ in 0..2 {
        let (tt, shared) = (Tt::new(1), Shared::default());
        let (r, _) = search_on(&tt, &shared, limits, &root, 1);
        assert_eq!(r, direct);
    }
    // A node budget keeps to one thread whatever the setting: exact and repeatable.
    let budget = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let (tt, shared) = (Tt::new(1), Shared::default());
    let (one, _) = search_on(&tt, &shared, budget, &root, 1);
    let (tt, shared) = (Tt::new(1), Shared::default());
    let (four, _) = search_on(&tt, &shared, budget, &root, 4);
    assert_eq!(one, four);
}

#[test]
fn two_threads_find_the_forced_win() {
    // White wins in five moves: 1-23 14-20 23-29 ...
    let root = International::from_fen("W:W40,45,K1:B15,14").unwrap();
    let limits = Limits {
        depth: Some(14),
        ..Limits::default()
    };
    let (tt, shared) = (Tt::new(4), Shared::default());
    let (r, infos) = search_on(&tt, &shared, limits, &root, 2);
    let d = win_distance(r.score).expect("a proved win");
    assert!((1..=5).contains(&d), "win in {d}");
    let mut moves = MoveList::new();
    root.generate(&mut moves);
    assert!(moves.contains(&r.best.unwrap()));
    // The info lines count both threads' nodes, and never go down.
    assert!(infos.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    assert!(r.nodes >= infos.last().unwrap().nodes);
}

#[test]
fn two_threads_stop_promptly_with_a_legal_move() {
    let root = International::start();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let (tt, shared) = (Tt::new(4), Shared::default());
    let (r, stopped) = std::thread::scope(|s| {
        let run = s.spawn(|| search_on(&tt, &shared, limits, &root, 2).0);
        std::thread::sleep(Duration::from_millis(300));
        shared.stop.store(true, Ordering::Relaxed);
        let at = Instant::now();
        let r = run.join().unwrap();
        (r, at.elapsed())
    });
    assert!(stopped < Duration::from_millis(500), "{stopped:?}");
    let mut moves = MoveList::new();
    root.generate(&mut moves);
    assert!(moves.contains(&r.best.unwrap()));
    assert!(r.depth >= 1);
}

#[test]
fn two_threads_play_the_line_reported_last() {
    // With a time limit the move may come from the helper's deeper completed iteration; its line
    // is then reported last, so what a GUI shows and the move played are one and the same.
    for fen in [
        "W:W31-50:B1-20",
        "W:W25,27,32,35,37,38,39,45,46,47,48,49:B2,5,7,8,13,14,16,19,21,23,24,29",
    ] {
        let root = International::from_fen(fen).unwrap();
        let limits = Limits {
            movetime: Some(Duration::from_millis(150)),
            play: true,
            ..Limits::default()
        };
        let (tt, shared) = (Tt::new(4), Shared::default());
        let (r, infos) = search_on(&tt, &shared, limits, &root, 2);
        let last = infos.last().expect("at least one iteration reported");
        assert_eq!(r.best, last.pv.first().copied(), "{fen}");
        assert_eq!(r.score, last.score, "{fen}");
        assert!(r.depth >= 1 && last.depth >= r.depth, "{fen}");
        assert!(r.nodes >= last.nodes, "{fen}");
    }
}
