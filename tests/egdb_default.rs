//! The default endgame tables (src/egdb/cache.rs): `tempo hub` and `tempo uci` build small tables
//! once into the cache folder that `TEMPO_EGDB_CACHE` names, in the background, and then search
//! with them; engines that start at once leave sound files; a damaged cache file is rebuilt and a
//! folder that cannot be had leaves the engine without tables, never an error to the client;
//! `tempo search` uses the tables once they are built.
//! The tests keep the tables at 3 pieces (`egdb-pieces=3`), which build in about a second.

use crate::common::{self, Engine};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Black's lone king against two White men: a win for Black in 23 plies by the tables, which a
/// search of depth 8 without them scores as under one man (0.92).
const WON: &str = "B:W29,45:BK6";
/// How long a test waits for the default tables to be built and loaded.
const BUILD_WAIT: Duration = Duration::from_secs(120);

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tempo-egdb-default-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Starts `tempo hub` with the default tables in `cache`, at 3 pieces, and sends `init`.
fn hub_with_cache(cache: &str) -> Engine {
    let mut e = Engine::start_with_env(&["hub"], &[("TEMPO_EGDB_CACHE", cache)]);
    e.send("hub");
    e.until("wait");
    e.send("set-param name=egdb-pieces value=3");
    e.send("init");
    e.until("ready");
    e
}

/// The score of a depth-8 search of [`WON`] in men, and the lines of the search.
fn hub_score(e: &mut Engine) -> (f64, Vec<String>) {
    e.send(&format!("pos pos=\"{WON}\""));
    e.send("level depth=8");
    e.send("go think");
    let (done, lines) = e.until("done");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info "))
        .expect("an info line");
    let score = last
        .split_whitespace()
        .find_map(|w| w.strip_prefix("score="))
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no score in {last}"));
    let mut all = lines;
    all.push(done);
    (score, all)
}

/// Searches [`WON`] until the score is the tables' win (a score of a win, over 90 men) or
/// [`BUILD_WAIT`] passes; returns the scores seen and every line.
fn hub_until_won(e: &mut Engine) -> (Vec<f64>, Vec<String>) {
    let start = Instant::now();
    let mut scores = Vec::new();
    let mut lines = Vec::new();
    loop {
        let (score, l) = hub_score(e);
        scores.push(score);
        lines.extend(l);
        if score > 90.0 || start.elapsed() > BUILD_WAIT {
            return (scores, lines);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Every line Hub wrote is one of its replies (no news of the tables on standard output).
fn only_hub_lines(lines: &[String]) {
    for l in lines {
        let word = l.split_whitespace().next().unwrap_or("");
        assert!(
            ["info", "done", "ready", "pong", "id", "param", "wait"].contains(&word),
            "unexpected line {l:?}"
        );
    }
}

/// `tempo egdb verify` passes on the International tables of `cache` up to 3 pieces, and no
/// temporary file is left beside them.
fn cache_is_sound(cache: &Path) {
    let o = common::tempo()
        .args([
            "egdb",
            "verify",
            "--variant",
            "international",
            "--pieces",
            "3",
            "--dir",
        ])
        .arg(cache)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{text}");
    let dir = cache.join("international");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names.iter().filter(|n| n.ends_with(".egdb")).count(),
        16,
        "the 16 slices of up to 3 pieces: {names:?}"
    );
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}

/// Without asking, a Hub session builds the tables into the cache folder in the background and a
/// later search scores the ending as the tables' win; without the default tables
/// (`TEMPO_EGDB_CACHE=off`) the same search does not. Standard output carries only Hub's replies
/// and standard error stays empty.
#[test]
fn a_hub_session_builds_and_uses_the_default_tables() {
    let cache = temp_dir("hub");
    let mut e = hub_with_cache(cache.to_str().unwrap());
    let (scores, lines) = hub_until_won(&mut e);
    assert!(
        scores.last().is_some_and(|&s| s > 90.0),
        "no table win within {BUILD_WAIT:?}: scores {scores:?}"
    );
    only_hub_lines(&lines);
    e.send("ping");
    e.until("pong");
    assert_eq!(e.stderr(), "", "standard error stays empty");
    cache_is_sound(&cache);

    // The command-line search finds the tables the engine built and scores the win with them;
    // with the cache off it has none.
    let search = |cache: &str| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_tempo"))
            .args(["search", "--fen", WON, "--depth", "8"])
            .env("TEMPO_EGDB_CACHE", cache)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (
            String::from_utf8_lossy(&o.stdout).to_string(),
            String::from_utf8_lossy(&o.stderr).to_string(),
        )
    };
    let (out, err) = search(cache.to_str().unwrap());
    assert!(err.contains("default tables"), "{err}");
    assert!(out.contains("score win "), "{out}");
    let (out, err) = search("off");
    assert!(!err.contains("egdb"), "{err}");
    assert!(!out.contains("score win"), "{out}");

    let mut off = hub_with_cache("off");
    let (score, _) = hub_score(&mut off);
    assert!(score < 5.0, "no tables, no win: {score}");
    off.send("quit");

    // A client's own folder wins over the default: an empty one gives no tables, and no default
    // build starts.
    let empty = temp_dir("hub-own");
    let own = temp_dir("hub-own-cache");
    std::fs::create_dir_all(empty.join("international")).unwrap();
    let mut e = Engine::start_with_env(&["hub"], &[("TEMPO_EGDB_CACHE", own.to_str().unwrap())]);
    e.send("hub");
    e.until("wait");
    e.send(&format!("set-param name=egdb-dir value={}", empty.display()));
    e.send("init");
    e.until("ready");
    let (score, _) = hub_score(&mut e);
    assert!(score < 5.0, "the client's empty folder: {score}");
    assert!(!own.join("international").exists(), "no default build");
    e.send("quit");
}

/// UCI: at `isready` the default tables start; their news are `info string` lines, and a search
/// then reports the tables' win.
#[test]
fn a_uci_session_reports_the_default_tables() {
    let cache = temp_dir("uci");
    let mut e = Engine::start_with_env(&["uci"], &[("TEMPO_EGDB_CACHE", cache.to_str().unwrap())]);
    e.send("uci");
    e.until("uciok");
    e.send("setoption name EGDB_Pieces value 3");
    let (line, _) = e.until("info string egdb");
    assert!(line.contains("default tables up to 3 pieces"), "{line}");
    e.send("isready");
    e.until("readyok");
    let (_, line, _) = e.until_at(BUILD_WAIT, |l| l.contains("pieces loaded"));
    assert!(line.contains("default tables"), "{line}");
    e.send(&format!("position fen {WON}"));
    e.send("go depth 8");
    let (_, info) = e.until("bestmove");
    assert!(
        info.iter().any(|l| l.contains(" score win ")),
        "the tables' win in 23 plies: {info:?}"
    );
    e.send("quit");
}

/// Two engines started at once on an empty cache folder both end with the tables, and the files
/// they leave are sound.
#[test]
fn two_engines_at_once_leave_sound_files() {
    let cache = temp_dir("race");
    let name = cache.to_str().unwrap();
    let mut a = hub_with_cache(name);
    let mut b = hub_with_cache(name);
    for e in [&mut a, &mut b] {
        let (scores, _) = hub_until_won(e);
        assert!(scores.last().is_some_and(|&s| s > 90.0), "{scores:?}");
    }
    assert_eq!(a.stderr(), "");
    assert_eq!(b.stderr(), "");
    cache_is_sound(&cache);
}

/// A damaged cache file (a flipped bit) and a truncated one are found when the engine starts,
/// told in one line each on standard error, rebuilt, and the tables work; the client sees no
/// error.
#[test]
fn a_damaged_cache_file_is_rebuilt() {
    let cache = temp_dir("damaged");
    let o = common::tempo()
        .args([
            "egdb",
            "build",
            "--variant",
            "international",
            "--pieces",
            "3",
            "--dir",
        ])
        .arg(&cache)
        .output()
        .unwrap();
    assert!(o.status.success());
    let dir = cache.join("international");
    let flipped = dir.join("0101.egdb");
    let mut bytes = std::fs::read(&flipped).unwrap();
    let k = bytes.len() - 8;
    bytes[k] ^= 1;
    std::fs::write(&flipped, &bytes).unwrap();
    let cut = dir.join("0201.egdb");
    let bytes = std::fs::read(&cut).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let mut e = hub_with_cache(cache.to_str().unwrap());
    let (scores, lines) = hub_until_won(&mut e);
    assert!(scores.last().is_some_and(|&s| s > 90.0), "{scores:?}");
    only_hub_lines(&lines);
    let err = e.stderr();
    assert!(
        err.contains("slice 0101: rebuilding") && err.contains("slice 0201: rebuilding"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 2, "{err}");
    cache_is_sound(&cache);
}

/// A cache folder that cannot be made (its parent is a file), or none at all (no home), leaves the
/// engine without tables: one line on standard error says why, the client gets no error and the
/// search runs.
#[test]
fn no_cache_folder_means_no_tables_and_no_error() {
    let base = temp_dir("nohome");
    let file = base.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let blocked = file.join("cache");
    let cases: [(&[(&str, &str)], &str); 2] = [
        (&[("TEMPO_EGDB_CACHE", blocked.to_str().unwrap())], "cannot make"),
        (
            &[("TEMPO_EGDB_CACHE", ""), ("XDG_CACHE_HOME", ""), ("HOME", "")],
            "none of TEMPO_EGDB_CACHE, XDG_CACHE_HOME and HOME is set",
        ),
    ];
    for (env, why) in cases {
        let mut e = Engine::start_with_env(&["hub"], env);
        e.send("hub");
        e.until("wait");
        e.send("init");
        e.until("ready");
        let (score, lines) = hub_score(&mut e);
        assert!(score < 5.0, "{score}");
        only_hub_lines(&lines);
        let err = e.stderr();
        assert!(err.contains("no default tables") && err.contains(why), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// Every process the tests start inherits `TEMPO_EGDB_CACHE` from the test process, which cargo
/// sets (`.cargo/config.toml`, `off` unless the caller gave a value): no other test builds the
/// default tables into the home.
#[test]
fn the_tests_name_the_cache_themselves() {
    assert!(
        std::env::var_os("TEMPO_EGDB_CACHE").is_some(),
        "cargo should set TEMPO_EGDB_CACHE (.cargo/config.toml [env])"
    );
}
