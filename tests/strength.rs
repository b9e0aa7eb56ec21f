//! Strength levels (`UCI_LimitStrength`/`UCI_Elo`, Hub `limit-strength`/`elo`): a handicapped
//! engine keeps its node budget, varies its moves, always plays a legal one, and full strength is
//! untouched. How strong each level plays is measured by games (docs/strength-levels.md), not here.

use std::time::Duration;
use tempo::draughts::International;
use tempo::engine::{Engine, Event};
use tempo::game::{Game, MoveList};
use tempo::protocol::hub::Hub;
use tempo::protocol::uci::Uci;
use tempo::protocol::{Face, Out};
use tempo::search::{ELO_DEFAULT, ELO_MAX, ELO_MIN, Handicap, Limits};

/// Plays one search of `pos` and returns the move and the last reported node count.
fn play(engine: &mut Engine<International>, pos: International, limits: Limits) -> (String, u64) {
    engine.go(pos, Vec::new(), limits, false);
    let mut nodes = 0;
    loop {
        match engine.events().recv_timeout(Duration::from_secs(30)) {
            Ok(Event::Info(i)) => nodes = i.nodes,
            Ok(Event::Done { best, .. }) => {
                let mv = best.expect("a legal move exists");
                let mut legal = MoveList::new();
                pos.generate(&mut legal);
                assert!(legal.contains(&mv), "illegal move");
                return (pos.format_move(&mv, tempo::game::MoveStyle::Standard), nodes);
            }
            Err(e) => panic!("no answer: {e}"),
        }
    }
}

/// A quiet middle-game position (no capture), White to move.
fn middle_game() -> International {
    International::from_fen("W:W28,31,32,33,34,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,19,20,24")
        .unwrap()
}

#[test]
fn the_weakest_level_keeps_its_node_budget_and_varies_its_moves() {
    let handicap = Handicap::from_elo(ELO_MIN).unwrap();
    let mut engine = Engine::<International>::new(1);
    engine.set_handicap(Some(handicap));
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..24 {
        engine.seed(seed);
        engine.new_game();
        let (mv, nodes) = play(&mut engine, middle_game(), Limits::default());
        assert!(
            nodes <= handicap.nodes,
            "{nodes} nodes, budget {}",
            handicap.nodes
        );
        seen.insert(mv);
    }
    assert!(seen.len() >= 3, "only {seen:?}");
}

#[test]
fn full_strength_is_deterministic() {
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let mut moves = std::collections::BTreeSet::new();
    for (seed, handicap) in [(1, None), (2, None), (3, Handicap::from_elo(ELO_MAX))] {
        let mut engine = Engine::<International>::new(1);
        engine.seed(seed);
        engine.set_handicap(handicap);
        moves.insert(play(&mut engine, middle_game(), limits));
    }
    assert_eq!(moves.len(), 1, "{moves:?}");
}

#[test]
fn analysis_stays_at_full_strength() {
    // An infinite search is stopped by hand; its node count is far beyond the weakest budget.
    let mut engine = Engine::<International>::new(1);
    engine.set_handicap(Handicap::from_elo(ELO_MIN));
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    engine.go(middle_game(), Vec::new(), limits, false);
    std::thread::sleep(Duration::from_millis(50));
    engine.stop();
    let mut nodes = 0;
    while let Event::Info(i) = engine.events().recv_timeout(Duration::from_secs(10)).unwrap() {
        nodes = i.nodes;
    }
    assert!(nodes > 1000, "{nodes}");
}

#[test]
fn hub_offers_and_checks_the_level() {
    let mut hub = Hub::with_tt_size(Out::buffer(), 10);
    hub.handle_line("hub");
    let lines = hub.take_output();
    assert!(lines.contains(&"param name=limit-strength value=false type=bool".to_string()));
    assert!(
        lines.contains(&format!(
            "param name=elo value={ELO_DEFAULT} type=int min={ELO_MIN} max={ELO_MAX}"
        )),
        "{lines:?}"
    );
    hub.handle_line(&format!("set-param name=elo value={}", ELO_MAX + 1));
    let error = hub.take_output();
    assert!(
        error.len() == 1 && error[0].starts_with("error") && error[0].contains("elo"),
        "{error:?}"
    );
    hub.handle_line("set-param name=limit-strength value=true");
    hub.handle_line(&format!("set-param name=elo value={}", ELO_MIN + 1));
    assert!(hub.take_output().is_empty());
    hub.handle_line("hub");
    let lines = hub.take_output();
    assert!(lines.contains(&"param name=limit-strength value=true type=bool".to_string()));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("param name=elo value={} ", ELO_MIN + 1))),
        "{lines:?}"
    );
}

#[test]
fn uci_offers_and_checks_the_level() {
    let mut uci = Uci::with_hash(Out::buffer(), 1);
    uci.handle_line("uci");
    let lines = uci.take_output();
    assert!(lines.contains(&"option name UCI_LimitStrength type check default false".to_string()));
    assert!(
        lines.contains(&format!(
            "option name UCI_Elo type spin default {ELO_DEFAULT} min {ELO_MIN} max {ELO_MAX}"
        )),
        "{lines:?}"
    );
    uci.handle_line(&format!("setoption name UCI_Elo value {}", ELO_MAX + 1));
    let error = uci.take_output();
    assert!(error.len() == 1 && error[0].contains("UCI_Elo"), "{error:?}");
    uci.handle_line("setoption name UCI_LimitStrength value maybe");
    assert_eq!(uci.take_output().len(), 1);
}
