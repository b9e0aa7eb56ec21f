//! Compatibility with the real pydraughts `HubEngine` (the client lidraughts-bot and pydraughts'
//! tournaments use): complete games in all ten variants pydraughts knows, from the initial
//! position and from a position reached by random moves, with pydraughts as the independent
//! referee of every move and lidraughts' pattern checked on every `info` line
//! (`tests/compat/pydraughts_games.py`).
//!
//! The script prints each game as HubEngine sent it, with pydraughts' verdict; this test replays
//! every game in Tempo's own rules, through the same Hub numbering table the engine uses
//! ([`tempo::variant::Variant::hub_notation`]), and checks that the game ends where pydraughts
//! says it ends: a win in pydraughts is the same win in Tempo at the last position and at no
//! earlier one; a draw in pydraughts is no win in Tempo, and a threefold repetition is one in
//! Tempo's position keys too. (pydraughts' counted draw rules are its own approximations of the
//! official ones, so Tempo's are not expected to fire at the same move.)
//!
//! Needs a Python with pydraughts: `TEMPO_PYDRAUGHTS_PYTHON=/path/to/venv/bin/python` when the
//! tests are built. Without it the test is reported as ignored, unless `TEMPO_REQUIRE_PYDRAUGHTS=1`
//! (set by `.ci/run`, which installs pydraughts), where a missing pydraughts fails it.

use std::process::Command;
use tempo::game::{Game, Outcome};
use tempo::protocol::hub::parse_line;
use tempo::variant::Variant;

/// The ten variants, by the names pydraughts gives them.
const PYDRAUGHTS_VARIANTS: [&str; 10] = [
    "standard",
    "frisian",
    "frysk!",
    "antidraughts",
    "breakthrough",
    "italian",
    "russian",
    "brazilian",
    "english",
    "turkish",
];

/// Replays one `END` line in Tempo's rules and checks pydraughts' verdict against them.
fn check_end<G: Game>(v: Variant, start: &str, moves: &str, result: &str) {
    let hub = v.hub_notation();
    let mut pos = G::from_hub(&hub.position_to_tempo(start)).unwrap_or_else(|e| panic!("{v}: {start}: {e}"));
    let mut keys = vec![pos.key()];
    for (i, m) in moves.split_whitespace().enumerate() {
        // No win at any position before the last: pydraughts would have stopped there.
        if let Some(Outcome::Win(side)) = pos.outcome() {
            panic!(
                "{v}: Tempo sees a win for {side:?} before move {} {m} of {moves}",
                i + 1
            );
        }
        let mv = pos
            .parse_move(&hub.move_to_tempo(m))
            .unwrap_or_else(|e| panic!("{v}: move {} {m}: {e}", i + 1));
        pos = pos.play(&mv);
        keys.push(pos.key());
    }
    let outcome = pos.outcome();
    let to_move = pos.side_to_move();
    match result {
        "tomove" => assert_eq!(outcome, Some(Outcome::Win(to_move)), "{v}: {moves}"),
        "mover" => assert_eq!(outcome, Some(Outcome::Win(to_move.opponent())), "{v}: {moves}"),
        "threefold" | "count" => {
            assert!(
                !matches!(outcome, Some(Outcome::Win(_))),
                "{v}: {outcome:?} at a pydraughts draw: {moves}"
            );
            if result == "threefold" {
                let last = *keys.last().expect("the start at least");
                let seen = keys.iter().filter(|&&k| k == last).count();
                assert!(
                    seen >= 3,
                    "{v}: pydraughts' threefold repetition is {seen} in Tempo: {moves}"
                );
            }
        }
        other => panic!("{v}: unknown result {other}"),
    }
}

#[test]
#[cfg_attr(
    not(pydraughts),
    ignore = "needs pydraughts: set TEMPO_PYDRAUGHTS_PYTHON to a Python with pydraughts 0.6.7"
)]
fn pydraughts_hub_engine_plays_complete_legal_games() {
    let python = crate::common::pydraughts_python();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/compat/pydraughts_games.py");
    let output = Command::new(&python)
        .args([script, env!("CARGO_BIN_EXE_tempo"), "1"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    eprintln!("{stdout}");
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("ok: "), "{stdout}");
    for variant in PYDRAUGHTS_VARIANTS {
        assert!(stdout.contains(&format!("{variant} game 2 ")), "{stdout}");
    }
    let mut ends = 0;
    for line in stdout.lines().filter(|l| l.starts_with("END ")) {
        let l = parse_line(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let name = l.get("variant").expect("variant=");
        let v: Variant = name.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        let (start, moves, result) = (
            l.get("start").unwrap(),
            l.get("moves").unwrap(),
            l.get("result").unwrap(),
        );
        tempo::with_variant!(v, G => check_end::<G>(v, start, moves, result));
        ends += 1;
    }
    assert_eq!(ends, 2 * PYDRAUGHTS_VARIANTS.len(), "{stdout}");
}

/// The replay check itself, on games the script printed (literal `END` lines): the verdict
/// pydraughts gave passes, any other is refused. Runs without Python.
#[test]
fn the_end_check_replays_literal_games_and_refuses_a_wrong_verdict() {
    // Brazilian from a position string with Black to move, moves numbered from a1; pydraughts:
    // Black (the mover) wins, White has no move left.
    let brazilian = (
        "Bbbebbbbewebeeeeeeewwweeewwewewww",
        "25x18x21 5-10 27-22 10-13 22-19 15x22x19 18x27x22 8-12 27-22 13-18 22x13x18 9x18x13 23-19 \
         6-10 19-15 12x19x15 26-22 18x27x22 30x5x10x19x27 2x9x5 29-26 4-8 32-28 8-12 28-23 16-20 \
         23x7x12x20 3x12x7 26-22 9-13 22-19 13-18 19-14 18x11x14",
    );
    // Breakthrough: Black's man crowns on 43 with its last capture, and wins.
    let breakthrough = (
        "Bbbbebbbbbbebeebbebbebeeeweweeewwweewwewweewewwwwew",
        "15-20 25x23x19x20 18x49x23x33x43",
    );
    type Brazilian = tempo::draughts::Brazilian;
    type Breakthrough = tempo::draughts::Breakthrough;
    check_end::<Brazilian>(Variant::Brazilian, brazilian.0, brazilian.1, "mover");
    check_end::<Breakthrough>(Variant::Breakthrough, breakthrough.0, breakthrough.1, "mover");
    for wrong in ["tomove", "threefold", "count"] {
        let refused = std::panic::catch_unwind(|| {
            check_end::<Brazilian>(Variant::Brazilian, brazilian.0, brazilian.1, wrong);
        });
        assert!(refused.is_err(), "{wrong}");
        let refused = std::panic::catch_unwind(|| {
            check_end::<Breakthrough>(Variant::Breakthrough, breakthrough.0, breakthrough.1, wrong);
        });
        assert!(refused.is_err(), "{wrong}");
    }
    // One move short of the end there is no win yet: "mover" is refused too.
    let short = brazilian.1.rsplit_once(' ').unwrap().0;
    assert!(
        std::panic::catch_unwind(|| check_end::<Brazilian>(Variant::Brazilian, brazilian.0, short, "mover"))
            .is_err()
    );
}

/// The README's pydraughts snippet (the `python` block after its
/// `<!-- tested by tests/pydraughts.rs -->` marker) runs as printed, with the engine's path set to
/// this build's binary, and prints the move Tempo chose in each of its two variants, International
/// and Russian: a legal first move of each (a snippet that never set the variant had Tempo play
/// International for a Russian board, and pydraughts failed on the move).
#[test]
#[cfg_attr(
    not(pydraughts),
    ignore = "needs pydraughts: set TEMPO_PYDRAUGHTS_PYTHON to a Python with pydraughts 0.6.7"
)]
fn the_readme_pydraughts_snippet_runs() {
    let python = crate::common::pydraughts_python();
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let (_, after) = readme
        .split_once("<!-- tested by tests/pydraughts.rs -->")
        .expect("the README marks its pydraughts snippet");
    let block = after
        .trim_start()
        .strip_prefix("```python\n")
        .and_then(|b| b.split_once("\n```").map(|(code, _)| code))
        .expect("a python block follows the marker");
    assert!(block.lines().any(|l| l.starts_with("TEMPO = ")), "{block}");
    let script: String = block
        .lines()
        .map(|l| {
            if l.starts_with("TEMPO = ") {
                format!("TEMPO = {:?}\n", env!("CARGO_BIN_EXE_tempo"))
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let output = Command::new(&python)
        .args(["-c", &script])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let played: Vec<(&str, &str)> = stdout
        .lines()
        .filter_map(|l| l.split_once(" - Tempo plays "))
        .collect();
    assert_eq!(
        played.iter().map(|(v, _)| *v).collect::<Vec<_>>(),
        ["standard", "russian"],
        "{stdout}"
    );
    // A legal first move of each, in pydraughts' numbering: International's is Tempo's, Russian's
    // is counted from a1 (protocol.md 4.6).
    let international = <tempo::draughts::International as Game>::start();
    assert!(international.parse_move(played[0].1).is_ok(), "{stdout}");
    let russian = <tempo::draughts::Russian as Game>::start();
    let mv = Variant::Russian.hub_notation().move_to_tempo(played[1].1);
    assert!(russian.parse_move(&mv).is_ok(), "{stdout}: {mv}");
}
