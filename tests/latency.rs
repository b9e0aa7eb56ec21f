//! Response times while searching (issue 4: `ping` within 10 ms, `stop` within 50 ms), measured
//! from the moment the line is written to the moment the answer is read. Alone in its own test
//! binary so that no other test's search competes for the cores.

mod common;

use common::{Engine, PROMPT};
use std::time::Duration;

fn searching(args: &[&str], setup: &[&str]) -> Engine {
    let mut e = Engine::start(args);
    for line in setup {
        e.send(line);
    }
    // Let the search get deep, where a careless poll would show.
    std::thread::sleep(Duration::from_millis(300));
    e
}

/// The `p`-th percentile of `v`.
fn percentile(v: &mut [Duration], p: usize) -> Duration {
    v.sort();
    v[(v.len() - 1) * p / 100]
}

/// One test, so that the two engines never search at the same time. The probes must be answered
/// within 10 ms (90 % of them: a loaded machine can deschedule any process for a time slice) and
/// never later than 50 ms; `stop` within 50 ms every time.
#[test]
fn probes_and_stop_answer_within_bounds_during_a_search() {
    let (mut pings, mut stops) = hub_probes();
    let (mut readies, mut ustops) = uci_probes();
    for (name, v) in [
        ("hub ping", &mut pings),
        ("hub stop", &mut stops),
        ("uci isready", &mut readies),
        ("uci stop", &mut ustops),
    ] {
        let (median, p90, worst) = (percentile(v, 50), percentile(v, 90), percentile(v, 100));
        eprintln!(
            "{name}: n {} median {median:?} p90 {p90:?} worst {worst:?}",
            v.len()
        );
    }
    for v in [&mut pings, &mut readies] {
        assert!(percentile(v, 90) < Duration::from_millis(10), "{v:?}");
        assert!(percentile(v, 100) < Duration::from_millis(50), "{v:?}");
    }
    for v in [&mut stops, &mut ustops] {
        assert!(percentile(v, 100) < Duration::from_millis(50), "{v:?}");
    }
}

fn hub_probes() -> (Vec<Duration>, Vec<Duration>) {
    let mut pings = Vec::new();
    let mut stops = Vec::new();
    for _ in 0..5 {
        let mut e = searching(
            &["hub"],
            &["hub", "init", "pos start", "level infinite", "go analyze"],
        );
        e.until("ready");
        for _ in 0..10 {
            let sent = e.send("ping");
            let (at, _, _) = e.until_at(PROMPT, |l| l == "pong");
            pings.push(at - sent);
            std::thread::sleep(Duration::from_millis(20));
        }
        let sent = e.send("stop");
        let (at, _, _) = e.until_at(PROMPT, |l| l.starts_with("done move="));
        stops.push(at - sent);
        assert_eq!(e.stderr(), "");
    }
    (pings, stops)
}

fn uci_probes() -> (Vec<Duration>, Vec<Duration>) {
    let mut readies = Vec::new();
    let mut stops = Vec::new();
    for _ in 0..5 {
        let mut e = searching(&["uci"], &["uci", "position startpos", "go infinite"]);
        e.until("uciok");
        for _ in 0..10 {
            let sent = e.send("isready");
            let (at, _, _) = e.until_at(PROMPT, |l| l == "readyok");
            readies.push(at - sent);
            std::thread::sleep(Duration::from_millis(20));
        }
        let sent = e.send("stop");
        let (at, _, _) = e.until_at(PROMPT, |l| l.starts_with("bestmove "));
        stops.push(at - sent);
        assert_eq!(e.stderr(), "");
    }
    (readies, stops)
}
