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
