//! `tempo match` records and the long-test tools, through the binary: PDN tags and per-move
//! comments, both result styles, a PDN appended to, openings from a file in order or shuffled,
//! per-engine limits and an engines file, a gauntlet, the JSON summary, and a match killed with
//! SIGKILL and resumed to the same results and PDN as one that was never stopped.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TEMPO: &str = env!("CARGO_BIN_EXE_tempo");

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tempo-match-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

use crate::common::run_match as run;

fn hub(name: &str) -> String {
    format!("{TEMPO} hub name={name}")
}

fn uci(name: &str) -> String {
    format!("{TEMPO} uci name={name}")
}

fn games(path: &Path) -> Vec<tempo::pdn::PdnGame> {
    tempo::pdn::parse_games(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The result of each `Finished game` line, in order.
fn printed_results(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("Finished game"))
        .map(|l| {
            let after = l.split("): ").nth(1).unwrap();
            after.split_whitespace().next().unwrap().to_string()
        })
        .collect()
}

/// Every brace comment of a PDN text.
fn comments(text: &str) -> Vec<&str> {
    text.split('{')
        .skip(1)
        .map(|c| c.split('}').next().unwrap())
        .collect()
}

#[test]
fn pdn_records_carry_tags_and_move_comments_and_are_appended_to() {
    let pdn = temp("records.pdn");
    let base = [
        "--games",
        "2",
        "--seed",
        "41",
        "--movetime",
        "0.03",
        "--draw-after",
        "50",
        "--pdn",
        s(&pdn),
        "--event",
        "Records test",
        "--site",
        "Here",
    ];
    let (a, b) = (hub("a"), uci("b"));
    let mut args = vec!["--engine", &a, "--engine", &b];
    args.extend(base);
    let r = run(&args);
    assert!(r.ok, "{}", r.err);
    let text = std::fs::read_to_string(&pdn).unwrap();
    let first = games(&pdn);
    assert_eq!(first.len(), 2, "{text}");
    for (i, g) in first.iter().enumerate() {
        for (tag, want) in [
            ("Event", Some("Records test")),
            ("Site", Some("Here")),
            ("Round", Some(["1", "2"][i])),
            ("White", Some(["a", "b"][i])),
            ("Black", Some(["b", "a"][i])),
            ("GameType", Some("20,W,10,10,N2,0")),
            ("TimeControl", Some("0.03/move")),
        ] {
            assert_eq!(g.tag(tag), want, "{tag}\n{text}");
        }
        assert_eq!(g.tag("PlyCount"), Some(g.moves.len().to_string().as_str()));
        assert!(g.tag("Date").is_some_and(|d| d.len() == 10) && g.tag("Termination").is_some());
        assert!(["2-0", "0-2", "1-1"].contains(&g.tag("Result").unwrap()));
    }
    // One comment per engine move (the 6 opening plies have none): `+0.12/9 0.031s`.
    let notes = comments(&text);
    let engine_moves: usize = first.iter().map(|g| g.moves.len() - 6).sum();
    assert_eq!(notes.len(), engine_moves, "{text}");
    // Every comment is `SCORE/DEPTH TIME`, `SCORE TIME` or `TIME` (a move answered without an
    // `info` line, such as a forced capture); most have all three.
    let mut full = 0;
    for c in &notes {
        let words: Vec<&str> = c.split(' ').collect();
        let time = words.last().unwrap();
        assert!(
            time.ends_with('s') && time.trim_end_matches('s').parse::<f64>().is_ok(),
            "{c}"
        );
        if words.len() == 2 {
            let (men, depth) = words[0].split_once('/').unwrap_or((words[0], ""));
            assert!(men.parse::<f64>().is_ok(), "{c}");
            full += usize::from(depth.parse::<u32>().is_ok());
        } else {
            assert_eq!(words.len(), 1, "{c}");
        }
    }
    assert!(full * 2 >= notes.len(), "{notes:?}");

    // The same file again, with chess results: the old games are kept, and standard output and
    // the PDN say the same results.
    let mut args = vec!["--engine", &a, "--engine", &b, "--pdn-results", "pgn"];
    args.extend(base);
    let r = run(&args);
    assert!(r.ok, "{}", r.err);
    assert!(
        r.err.contains("its games are kept and the new ones appended"),
        "{}",
        r.err
    );
    let all = games(&pdn);
    assert_eq!(all.len(), 4);
    assert_eq!(all[..2], first[..]);
    let pdn_results: Vec<&str> = all[2..].iter().map(|g| g.tag("Result").unwrap()).collect();
    assert_eq!(printed_results(&r.out), pdn_results);
    assert!(pdn_results.iter().all(|r| ["1-0", "0-1", "1/2-1/2"].contains(r)));
}

#[test]
fn openings_from_a_file_in_order_shuffled_started_and_cut() {
    let file = temp("four.txt");
    // A byte-order mark, as some editors write, and four openings of four plies.
    std::fs::write(
        &file,
        "\u{feff}32-28 19-23 28x19 14x23\n33-28 18-22 39-33 12-18\n31-27 19-23 37-31 14-19\n\
         34-29 20-24 29x20 15x24\n",
    )
    .unwrap();
    let openings_of = |extra: &[&str], seed: &str| {
        let pdn = temp(&format!("open-{seed}-{}.pdn", extra.join("_")));
        let mut args = vec![
            "--engine".to_string(),
            hub("a"),
            "--engine".to_string(),
            hub("b"),
            "--depth".into(),
            "1".into(),
            "--draw-after".into(),
            "12".into(),
            "--seed".into(),
            seed.into(),
            "--games".into(),
            "8".into(),
            "--pdn".into(),
            s(&pdn).into(),
            "--openings".into(),
            s(&file).into(),
        ];
        args.extend(extra.iter().map(|e| e.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = run(&args);
        assert!(r.ok, "{}", r.err);
        let text = std::fs::read_to_string(&pdn).unwrap();
        let g = games(&pdn);
        // The opening is the moves before the first engine move, the first with a comment.
        let opening: Vec<String> = text
            .split("\n\n")
            .filter(|b| b.starts_with("1. "))
            .map(|b| {
                let mut moves: Vec<&str> = b
                    .split('{')
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .filter(|t| !t.ends_with('.'))
                    .collect();
                moves.pop();
                moves.join(" ")
            })
            .collect();
        assert_eq!(g.len(), 8);
        for pair in opening.chunks(2) {
            assert_eq!(pair[0], pair[1], "both colours play each opening");
        }
        (r.out, opening.iter().step_by(2).cloned().collect::<Vec<_>>())
    };
    let (_, seq) = openings_of(&["start=2"], "1");
    let first_words: Vec<&str> = seq.iter().map(|o| o.split(' ').next().unwrap()).collect();
    assert_eq!(first_words, ["33-28", "31-27", "34-29", "32-28"]);
    let (out, cut) = openings_of(&["plies=2", "order=random"], "5");
    assert!(out.contains("in random order (seed 5)"), "{out}");
    assert!(cut.iter().all(|o| o.split(' ').count() == 2), "{cut:?}");
    let (_, again) = openings_of(&["order=random", "plies=2"], "5");
    assert_eq!(cut, again, "a seed repeats its order");
    let mut sorted = cut.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 4, "each opening once: {cut:?}");
    let mut orders = std::collections::HashSet::new();
    for seed in ["6", "7", "8"] {
        orders.insert(openings_of(&["order=random", "plies=2"], seed).1);
    }
    orders.insert(cut);
    assert!(orders.len() >= 2, "other seeds, other orders");

    // An opening where the game is over is refused, with its line.
    std::fs::write(&file, "32-28\nB:W28:B\n").unwrap();
    let r = run(&[
        "--engine",
        &hub("a"),
        "--engine",
        &hub("b"),
        "--openings",
        s(&file),
    ]);
    assert!(!r.ok);
    assert!(r.err.contains("line 2: the game is already over"), "{}", r.err);
    let r = run(&[
        "--engine",
        &hub("a"),
        "--engine",
        &hub("b"),
        "--openings",
        s(&file),
        "order=shuffled",
    ]);
    assert!(!r.ok && r.err.contains("order=shuffled"), "{}", r.err);
}

/// Kills `child` (SIGKILL: no chance to tidy up) once its state file holds `games` finished
/// games; fails the test if that takes two minutes.
fn kill_when_saved(mut child: std::process::Child, state: &Path, games: usize) {
    let began = Instant::now();
    while saved_games(state) < games {
        assert!(
            began.elapsed() < Duration::from_secs(120),
            "the match never reached {games} saved games"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// The match state's games, from the state file (0 while it is being replaced or not there).
fn saved_games(state: &Path) -> usize {
    std::fs::read_to_string(state)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["games"].as_array().map(Vec::len))
        .unwrap_or(0)
}

/// A PDN text without its comments (thinking times differ from run to run) and Date tags.
fn comparable_pdn(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.lines()
        .filter(|l| !l.starts_with("[Date "))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lines that give a match's result.
fn result_lines(out: &str) -> Vec<&str> {
    let last_score = out.lines().rfind(|l| l.starts_with("Score of"));
    let mut lines: Vec<&str> = last_score.into_iter().collect();
    lines.extend(out.lines().filter(|l| l.starts_with("Elo difference")));
    lines
}

#[test]
fn a_match_killed_mid_way_resumes_to_the_same_results_and_pdn() {
    let (a, b) = (hub("a"), uci("b"));
    let args = |pdn: &Path, state: &Path| -> Vec<String> {
        [
            "--engine",
            &a,
            "--engine",
            &b,
            "--games",
            "8",
            "--seed",
            "17",
            "--depth",
            "2",
            "--draw-after",
            "60",
            "--pdn",
            s(pdn),
            "--state",
            s(state),
        ]
        .iter()
        .map(|x| x.to_string())
        .collect()
    };
    let (pdn_a, state_a) = (temp("whole.pdn"), temp("whole.state"));
    let whole_args = args(&pdn_a, &state_a);
    let whole = run(&whole_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(whole.ok, "{}", whole.err);
    assert_eq!(saved_games(&state_a), 8);

    let (pdn_b, state_b) = (temp("killed.pdn"), temp("killed.state"));
    let child = Command::new(TEMPO)
        .arg("match")
        .args(args(&pdn_b, &state_b))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // SIGKILL: no chance to tidy up.
    kill_when_saved(child, &state_b, 4);
    let at_kill = saved_games(&state_b);
    assert!((4..8).contains(&at_kill), "killed after {at_kill} games");
    // A resume while another manager works on the state (here the test holds its lock) is
    // refused before any game, and touches neither the state nor the PDN.
    let (state_bytes, pdn_bytes) = (std::fs::read(&state_b).unwrap(), std::fs::read(&pdn_b).unwrap());
    let held = tempo::fsutil::lock_for_work("--resume", &state_b)
        .unwrap()
        .expect("the lock is available on this system");
    let twice = run(&["--resume", s(&state_b)]);
    assert!(
        !twice.ok && twice.err.contains("another process is working on this file"),
        "{}",
        twice.err
    );
    assert_eq!(std::fs::read(&state_b).unwrap(), state_bytes);
    assert_eq!(std::fs::read(&pdn_b).unwrap(), pdn_bytes);
    drop(held);
    // A game written to the PDN after the last save would be there twice: the resume cuts it.
    let resumed = run(&["--resume", s(&state_b)]);
    assert!(resumed.ok, "{}", resumed.err);
    assert!(
        resumed.out.contains(&format!(
            "Resumed from {}: {at_kill} of 8 games played",
            s(&state_b)
        )),
        "{}",
        resumed.out
    );
    assert_eq!(
        resumed
            .out
            .lines()
            .filter(|l| l.starts_with("Finished game"))
            .count(),
        8 - at_kill
    );
    assert_eq!(result_lines(&resumed.out), result_lines(&whole.out));
    assert_eq!(result_lines(&whole.out).len(), 2, "{}", whole.out);
    assert_eq!(comparable_pdn(&pdn_b), comparable_pdn(&pdn_a));
    assert_eq!(saved_games(&state_b), 8);

    // --resume takes nothing else; a state file is not reused for a new match.
    let r = run(&["--resume", s(&state_b), "--games", "2"]);
    assert!(
        !r.ok && r.err.contains("--resume FILE takes nothing else"),
        "{}",
        r.err
    );
    let r = run(&whole_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!r.ok && r.err.contains("the file exists"), "{}", r.err);
}

#[test]
fn a_gauntlet_with_per_engine_limits_an_engines_file_and_a_json_summary() {
    let conf = temp("engines.json");
    std::fs::write(
        &conf,
        format!(
            r#"[{{"name": "quick", "command": "{TEMPO} hub", "depth": 1}},
               {{"name": "timed", "command": "{TEMPO} uci", "movetime": 0.02, "options": {{"Hash": 8}}}}]"#
        ),
    )
    .unwrap();
    let (json, log, pdn) = (temp("summary.json"), temp("gauntlet.log"), temp("gauntlet.pdn"));
    let lead = format!("{TEMPO} hub name=lead depth=2");
    let r = run(&[
        "--engine",
        &lead,
        "--engine",
        "conf=quick",
        "--engine",
        "conf=timed name=timed2",
        "--engines-file",
        s(&conf),
        "--each",
        "margin=200",
        "--tournament",
        "gauntlet",
        "--rounds",
        "1",
        "--draw-after",
        "20",
        "--seed",
        "3",
        "--json",
        s(&json),
        "--log",
        s(&log),
        "--pdn",
        s(&pdn),
    ]);
    assert!(r.ok, "{}", r.err);
    // The first engine against each of the others, never the others against each other.
    let started: Vec<&str> = r.out.lines().filter(|l| l.starts_with("Started game")).collect();
    assert_eq!(started.len(), 4, "{}", r.out);
    assert!(started.iter().all(|l| l.contains("lead")), "{started:?}");
    assert!(r.out.contains("Results of lead vs quick: 2 games, "), "{}", r.out);
    assert!(
        r.out.contains("Results of lead vs timed2: 2 games, "),
        "{}",
        r.out
    );
    // The crosstable first, then each pairing's statistics, the ranking last; each once.
    let at = |what: &str| {
        assert_eq!(r.out.matches(what).count(), 1, "{what}: {}", r.out);
        r.out.find(what).unwrap()
    };
    assert!(at("Crosstable") < at("Results of lead vs quick: "), "{}", r.out);
    assert!(at("Results of lead vs timed2: ") < at("Rank Name"), "{}", r.out);
    assert!(!r.out.contains("nan"), "{}", r.out);
    // Each engine got its own limits.
    let log = std::fs::read_to_string(&log).unwrap();
    let sent = |who: &str, what: &str| {
        log.lines()
            .any(|l| l.split_whitespace().nth(1).is_some_and(|w| w.starts_with(who)) && l.contains(what))
    };
    assert!(sent("lead", "level depth=2"), "lead at depth 2");
    assert!(sent("quick", "level depth=1"), "quick at depth 1");
    assert!(sent("timed2", "go movetime 20"), "timed at 0.02 s");
    assert!(
        sent("timed2", "setoption name Hash value 8"),
        "options of the file"
    );
    let g = games(&pdn);
    let timed = g.iter().find(|g| g.tag("White") == Some("timed2")).unwrap();
    assert_eq!(timed.tag("WhiteTimeControl"), Some("0.02/move"));
    assert_eq!(timed.tag("BlackTimeControl"), Some("-"));

    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["finished"], true);
    assert_eq!(v["games_played"], 4);
    assert_eq!(v["engines"].as_array().unwrap().len(), 3);
    assert_eq!(v["engines"][0]["name"], "lead");
    assert_eq!(v["engines"][0]["games"], 4);
    assert!(v["engines"][2]["thinking"]["searched_moves"].as_u64().unwrap() > 0);
    let pairings = v["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 2);
    assert_eq!(pairings[1]["second"], "timed2");
    assert_eq!(pairings[0]["pentanomial"].as_array().unwrap().len(), 5);
    let wins: u64 = pairings.iter().map(|p| p["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, v["engines"][0]["wins"].as_u64().unwrap());
    let listed = v["games"].as_array().unwrap();
    assert_eq!(listed.len(), 4);
    for (game, pdn_game) in listed.iter().zip(&g) {
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&game["result"].as_str().unwrap()));
        assert_eq!(game["termination"].as_str(), pdn_game.tag("Termination"));
    }

    // Errors name what is wrong.
    let r = run(&[
        "--engine",
        "conf=nobody",
        "--engine",
        &lead,
        "--engines-file",
        s(&conf),
    ]);
    assert!(!r.ok && r.err.contains("no engine named \"nobody\""), "{}", r.err);
    let r = run(&["--engine", &lead, "--engine", &lead, "--each", "hub"]);
    assert!(!r.ok && r.err.contains("is not a shared setting"), "{}", r.err);
    let r = run(&["--engine", &lead, "--engine", &lead, "--json", s(&json)]);
    assert!(!r.ok && r.err.contains("the file exists"), "{}", r.err);
}

/// The help's sections are paragraphs of whole lines: none is broken mid-sentence, and each starts
/// with its name.
#[test]
fn the_help_reads_in_whole_paragraphs() {
    let o = Command::new(TEMPO).args(["match", "--help"]).output().unwrap();
    assert!(o.status.success());
    let help = String::from_utf8(o.stdout).unwrap();
    let after = &help[help.find("\nENGINES: ").expect("an ENGINES section") + 1..];
    let mut sections = Vec::new();
    for line in after.lines().filter(|l| !l.is_empty()) {
        let (name, rest) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("a broken line: {line:?}"));
        assert!(
            name.chars()
                .all(|c| c.is_ascii_uppercase() || c == ' ' || c == '-' || c.is_ascii_digit()),
            "a broken line: {line:?}"
        );
        assert!(
            rest.trim_end().ends_with(['.', ')']),
            "a section that stops mid-sentence: {line:?}"
        );
        sections.push(name);
    }
    for s in ["LIMITS PER ENGINE", "ENGINES FILE", "RECORDS", "OUTPUT"] {
        assert!(sections.contains(&s), "{sections:?}");
    }
    for flag in [
        "--pdn-results",
        "--state",
        "--resume",
        "--json",
        "--tournament",
        "--each",
    ] {
        assert!(help.contains(flag), "{flag}");
    }
}

/// With two games at a time the saved games need not be the first ones: the resumed match plays
/// exactly the games missing, and its JSON summary counts them all.
#[test]
fn a_resumed_concurrent_match_plays_only_the_games_missing() {
    let (pdn, state, json) = (temp("conc.pdn"), temp("conc.state"), temp("conc.json"));
    let (a, b) = (hub("a"), uci("b"));
    let child = Command::new(TEMPO)
        .arg("match")
        .args([
            "--engine",
            &a,
            "--engine",
            &b,
            "--games",
            "10",
            "--concurrency",
            "2",
            "--seed",
            "9",
            "--depth",
            "2",
            "--draw-after",
            "40",
            "--pdn",
            s(&pdn),
            "--state",
            s(&state),
            "--json",
            s(&json),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    kill_when_saved(child, &state, 3);
    let saved: Vec<u64> = serde_json::from_str::<serde_json::Value>(
        &std::fs::read_to_string(&state).unwrap(),
    )
    .unwrap()["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["number"].as_u64().unwrap())
        .collect();
    assert!(saved.len() < 10, "{saved:?}");
    let r = run(&["--resume", s(&state)]);
    assert!(r.ok, "{}", r.err);
    let mut played: Vec<u64> = r
        .out
        .lines()
        .filter_map(|l| l.strip_prefix("Finished game "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    played.extend(&saved);
    played.sort_unstable();
    assert_eq!(played, (1..=10).collect::<Vec<u64>>(), "{}", r.out);
    let last = r.out.lines().rfind(|l| l.starts_with("Score of")).unwrap();
    assert!(last.ends_with("] 10"), "{last}");
    assert_eq!(games(&pdn).len(), 10);
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(
        (v["finished"].as_bool(), v["games_played"].as_u64()),
        (Some(true), Some(10))
    );
}

/// The limit words not covered above, each through the binary: `tc=` (a Hub clock), `nodes=`
/// (a UCI node limit), `st=` (read as `movetime=`), `timemargin=` (read as `margin=`), and
/// `restart=on` (a new process for every game, where an engine without it plays on in one).
#[test]
fn clock_nodes_st_timemargin_and_restart_per_engine() {
    let log = temp("limits.log");
    let clock = format!("{TEMPO} hub name=clock tc=30+0.5 restart=on");
    let nodes = format!("{TEMPO} uci name=nodes nodes=3000");
    let r = run(&[
        "--engine",
        &clock,
        "--engine",
        &nodes,
        "--games",
        "2",
        "--depth",
        "3",
        "--draw-after",
        "16",
        "--seed",
        "4",
        "--log",
        s(&log),
    ]);
    assert!(r.ok, "{}", r.err);
    assert_eq!(printed_results(&r.out).len(), 2, "{}", r.out);
    let log = std::fs::read_to_string(&log).unwrap();
    // Who wrote a line: `clock.w0#1234`.
    let who = |l: &str| l.split_whitespace().nth(1).unwrap_or("").to_string();
    let sent = |name: &str, what: &str| {
        log.lines()
            .any(|l| who(l).starts_with(&format!("{name}.")) && l.contains(" > ") && l.contains(what))
    };
    // Its own clock replaces --depth for `clock`; `nodes` plays by nodes alone.
    assert!(sent("clock", "level time=29.500 inc=0.500"), "{log}");
    assert!(!sent("clock", "depth="), "{log}");
    assert!(sent("nodes", "go nodes 3000"), "{log}");
    assert!(!sent("nodes", "depth 3"), "{log}");
    let processes = |name: &str| {
        let mut p: Vec<String> = log
            .lines()
            .map(who)
            .filter(|w| w.starts_with(&format!("{name}.")))
            .collect();
        p.sort();
        p.dedup();
        p.len()
    };
    assert_eq!(processes("clock"), 2, "restart=on: one process a game\n{log}");
    assert_eq!(processes("nodes"), 1, "one process for both games\n{log}");

    // `st=` is a move time; `timemargin=` a margin: an engine that never answers loses on time
    // only once its move time is spent and, under a clock, its margin as well.
    let log = temp("st.log");
    let st = format!("{TEMPO} hub name=st st=0.05");
    let r = run(&[
        "--engine",
        &st,
        "--engine",
        &format!("{TEMPO} hub name=other"),
        "--games",
        "2",
        "--depth",
        "2",
        "--draw-after",
        "12",
        "--seed",
        "4",
        "--log",
        s(&log),
    ]);
    assert!(r.ok, "{}", r.err);
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.lines()
            .any(|l| l.contains(" st.") && l.contains("level move-time=0.050")),
        "{log}"
    );
    let hang = format!(
        "bash {}/tests/fake/hub.sh hang name=slow tc=0.1+0 timemargin=1500",
        env!("CARGO_MANIFEST_DIR")
    );
    let began = Instant::now();
    let r = run(&[
        "--engine",
        &hang,
        "--engine",
        &format!("{TEMPO} hub name=other"),
        "--games",
        "1",
        "--depth",
        "1",
        "--random-plies",
        "0",
    ]);
    assert!(r.ok, "{}", r.err);
    assert!(r.out.contains("White loses on time"), "{}", r.out);
    // 0.1 s of clock and 1.5 s of margin: the loss cannot come sooner (with the default margin of
    // 50 ms it would come after 0.15 s).
    assert!(
        began.elapsed() >= Duration::from_millis(1600),
        "{:?}",
        began.elapsed()
    );
}
