//! `tempo match`'s statistics through the binary: the report with its pair counts printed during
//! the match (`--report-every`), after Ctrl-C and at the end; a one-sided result reported as a
//! bound; SPRT bounds in normalized Elo; engines named by their `name=` in errors; an engine that
//! speaks neither Hub nor UCI reported within seconds. The numbers themselves are checked against
//! an independent computation in `src/arena/stats.rs`.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TEMPO: &str = env!("CARGO_BIN_EXE_tempo");

fn fake(mode: &str) -> String {
    format!("bash {}/tests/fake/hub.sh {mode}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `tempo match` with `args`: success, standard output, standard error.
fn run(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(TEMPO)
        .arg("match")
        .args(args)
        .output()
        .expect("tempo runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    eprintln!("tempo match {}\n{out}{err}", args.join(" "));
    (o.status.success(), out, err)
}

/// Against an engine whose every move is illegal, every game is won: the report during the match
/// (every 2 games, not repeated at the last game) and at its end gives the pairs and a bound for
/// the Elo, never an infinite one; the SPRT's bounds are in normalized Elo when asked.
#[test]
fn the_report_comes_every_n_games_and_a_one_sided_result_is_a_bound() {
    let (ok, out, _) = run(&[
        "--engine",
        &format!("{TEMPO} hub name=a"),
        "--engine",
        &format!("{} name=b", fake("illegal")),
        "--games",
        "6",
        "--depth",
        "1",
        "--random-plies",
        "2",
        "--report-every",
        "2",
        "--sprt",
        "elo0=-50 elo1=50 model=normalized",
    ]);
    assert!(ok, "{out}");
    // After games 2 and 4, and at the end.
    assert_eq!(out.matches("Results of a vs b: ").count(), 3, "{out}");
    let at_2 = out
        .find("Results of a vs b: 2 games, 2 - 0 - 0")
        .expect("report after 2 games");
    let game_3 = out.find("Finished game 3 ").expect("game 3");
    assert!(at_2 < game_3, "{out}");
    assert!(
        out.contains("Pairs (LL, LD, DD+WL, WD, WW): 0, 0, 0, 0, 1 (1 pair)"),
        "{out}"
    );
    assert!(
        out.contains("Pairs (LL, LD, DD+WL, WD, WW): 0, 0, 0, 0, 3 (3 pairs)"),
        "{out}"
    );
    // 6 games won: the score is at least 0.025^(1/6) = 0.540742 (by hand), -400 log10(1/0.540742
    // - 1) = 28.4 Elo.
    assert!(
        out.contains("Elo difference: > 28.4 (every game won; the lower end of the 95 % interval)"),
        "{out}"
    );
    assert!(!out.contains("inf") && !out.contains("nan"), "{out}");
    assert!(
        out.contains("SPRT (normalized, pentanomial, elo0=-50 elo1=50 alpha=0.05 beta=0.05): llr "),
        "{out}"
    );
    assert!(out.trim_end().ends_with("Finished match"), "{out}");
}

/// Ctrl-C (SIGINT) stops a long match: the statistics of the finished games are printed at once,
/// the games under way are abandoned, and the exit status says the match did not finish.
#[test]
#[cfg(unix)]
fn ctrl_c_prints_the_report_and_stops_the_match() {
    let mut child = Command::new(TEMPO)
        .args([
            "match",
            "--engine",
            &format!("{TEMPO} hub name=a"),
            "--engine",
            &format!("{TEMPO} uci name=b"),
            "--games",
            "1000",
            "--depth",
            "1",
            "--random-plies",
            "4",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tempo runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut out = String::new();
    let mut finished = 0;
    for l in lines.by_ref() {
        let l = l.unwrap();
        out += &l;
        out.push('\n');
        if l.starts_with("Finished game") {
            finished += 1;
            if finished == 2 {
                break;
            }
        }
    }
    assert_eq!(finished, 2, "{out}");
    let sent = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    for l in lines {
        out += &l.unwrap();
        out.push('\n');
    }
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    eprintln!("{out}{err}");
    assert!(sent.elapsed() < Duration::from_secs(20), "{:?}", sent.elapsed());
    assert!(!status.success());
    assert!(err.contains("the match was interrupted (Ctrl-C)"), "{err}");
    let at = out
        .find("Interrupted (Ctrl-C): the games under way are abandoned\nResults of a vs b: ")
        .expect("the report at Ctrl-C");
    assert!(out[at..].contains("Elo difference: "), "{out}");
    assert!(!out.contains("Finished match"), "{out}");
    assert!(finished_count(&out) < 1000, "{out}");
}

fn finished_count(out: &str) -> usize {
    out.lines().filter(|l| l.starts_with("Finished game")).count()
}

/// `/bin/cat` answers `hub` with `hub` and `uci` with `uci`: neither dialect. The manager says
/// so, naming both, within seconds (3 s for each), and uses the name the engine was given.
#[test]
fn an_engine_that_speaks_neither_hub_nor_uci_is_named_and_reported_in_seconds() {
    let began = Instant::now();
    let (ok, out, err) = run(&[
        "--engine",
        "/bin/cat name=kitty",
        "--engine",
        &format!("{TEMPO} hub"),
        "--depth",
        "1",
    ]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("engine kitty answers neither Hub (no `wait` within 3 s of `hub`) nor UCI"),
        "{err}"
    );
    assert!(began.elapsed() < Duration::from_secs(10), "{:?}", began.elapsed());
}

/// Errors about an engine name it by its `name=`, not by its place on the command line.
#[test]
fn engine_errors_use_the_given_name() {
    let (ok, _, err) = run(&[
        "--engine",
        &format!("{TEMPO} hub"),
        "--engine",
        &format!("{TEMPO} hub name=picky option.bogus=1"),
        "--depth",
        "1",
    ]);
    assert!(!ok);
    assert!(err.contains("engine picky refused its settings"), "{err}");
    assert!(!err.contains("engine2"), "{err}");
}

/// The number after `prefix` in `line`, up to the next space or comma.
fn number_after(line: &str, prefix: &str) -> f64 {
    let rest = &line[line
        .find(prefix)
        .unwrap_or_else(|| panic!("{prefix:?} in {line:?}"))
        + prefix.len()..];
    let end = rest.find([' ', ',']).unwrap_or(rest.len());
    rest[..end]
        .parse()
        .unwrap_or_else(|_| panic!("a number after {prefix:?} in {line:?}"))
}

/// The standard normal distribution function by Simpson's rule over the density (apart from the
/// manager's erf, which is Abramowitz and Stegun's approximation).
fn normal_cdf(x: f64) -> f64 {
    let density = |t: f64| (-t * t / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let n = 20_000;
    let h = x.abs() / n as f64;
    let mut sum = density(0.0) + density(x.abs());
    for i in 1..n {
        sum += density(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
    }
    let half = sum * h / 3.0;
    if x >= 0.0 { 0.5 + half } else { 0.5 - half }
}

/// A real match between two Tempos of different depths (deterministic: fixed depths, a seed):
/// the printed pair counts agree with the printed games, and the printed Elo, its interval,
/// nElo with its interval and LOS are those computed here from the printed pair counts by
/// fishtest's formulas.
#[test]
fn the_printed_pair_statistics_agree_with_an_independent_computation() {
    let (ok, out, _) = run(&[
        "--engine",
        &format!("{TEMPO} hub name=deep depth=3"),
        "--engine",
        &format!("{TEMPO} hub name=shallow depth=2"),
        "--games",
        "16",
        "--random-plies",
        "8",
        "--balance",
        "0",
        "--seed",
        "21",
        "--draw-after",
        "100",
    ]);
    assert!(ok, "{out}");
    let line = |prefix: &str| {
        out.lines()
            .rfind(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("{prefix:?} in {out}"))
            .to_string()
    };
    let results = line("Results of deep vs shallow: ");
    let pairs = line("Pairs (LL, LD, DD+WL, WD, WW): ");
    let elo = line("Elo difference: ");
    let nelo = line("nElo: ");
    // `Results of deep vs shallow: 16 games, W - L - D, ...`
    let wld: Vec<u64> = results
        .split(": ")
        .nth(1)
        .unwrap()
        .split(", ")
        .nth(1)
        .unwrap()
        .split(" - ")
        .map(|x| x.parse().unwrap())
        .collect();
    let counts: Vec<f64> = pairs["Pairs (LL, LD, DD+WL, WD, WW): ".len()..]
        .split(" (")
        .next()
        .unwrap()
        .split(", ")
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 5, "{pairs}");
    let n: f64 = counts.iter().sum();
    assert_eq!(n, 8.0, "{pairs}");
    // The pairs hold the games' half points: 2 W + D.
    let half_points: f64 = counts.iter().enumerate().map(|(k, c)| k as f64 * c).sum();
    assert_eq!(half_points, (2 * wld[0] + wld[2]) as f64, "{results} / {pairs}");
    let distinct = counts.iter().filter(|&&c| c > 0.0).count();
    assert!(distinct >= 2, "the pairs must vary for nElo to exist: {pairs}");

    // fishtest: a pair scores k/4; the mean and the variance of one pair's score.
    let mu = counts
        .iter()
        .enumerate()
        .map(|(k, c)| c * k as f64 / 4.0)
        .sum::<f64>()
        / n;
    let var = counts
        .iter()
        .enumerate()
        .map(|(k, c)| c * (k as f64 / 4.0 - mu).powi(2))
        .sum::<f64>()
        / n;
    let se = (var / n).sqrt();
    let elo_of = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
    let z = 1.959964;
    let near = |printed: f64, want: f64, what: &str| {
        assert!(
            (printed - want).abs() <= 0.051,
            "{what}: printed {printed}, computed {want}\n{out}"
        );
    };
    assert!(
        mu > 0.0 && mu < 1.0 && mu + z * se < 1.0 && mu - z * se > 0.0,
        "{pairs}"
    );
    near(number_after(&elo, "Elo difference: "), elo_of(mu), "Elo");
    near(
        number_after(&elo, "+/- "),
        (elo_of(mu + z * se) - elo_of(mu - z * se)) / 2.0,
        "Elo interval",
    );
    near(
        number_after(&elo, "LOS: "),
        100.0 * normal_cdf((mu - 0.5) / se),
        "LOS",
    );
    near(
        number_after(&elo, "DrawRatio: "),
        100.0 * wld[2] as f64 / 16.0,
        "DrawRatio",
    );
    // nElo: the mean over the standard deviation of one game, sqrt(2 var).
    let per_sigma = 800.0 / std::f64::consts::LN_10;
    let sigma = (2.0 * var).sqrt();
    near(
        number_after(&nelo, "nElo: "),
        (mu - 0.5) / sigma * per_sigma,
        "nElo",
    );
    near(
        number_after(&nelo, "+/- "),
        z * se / sigma * per_sigma,
        "nElo interval",
    );
    assert!(nelo.ends_with("(from the pairs)"), "{nelo}");
}
