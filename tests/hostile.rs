//! Hostile input through the binary, in each dialect: a seeded stream of mutated commands, binary
//! junk, lines of hundreds of kilobytes (and a few over the 1 MiB line limit), numbers out of range
//! and unbalanced quotes, in batches, each followed by a probe (`ping`/`isready`). The engine must
//! answer every probe and every `ping`/`isready` hidden in the stream, write only well-formed lines
//! of its dialect, write nothing on stderr, and afterwards still search correctly and quit cleanly.
//!
//! The default run sends 5,000 lines per dialect (under a second each here). The long form (100,000 lines each):
//!
//! ```sh
//! cargo test --release --test integration hostile:: -- --ignored --nocapture
//! ```
//!
//! `TEMPO_HOSTILE_LINES=<n>` sets the count of the default run, `TEMPO_HOSTILE_SEED=<n>` its seed.
//!
//! Two kinds of line are kept out of the stream, because they do what they must and would end the
//! experiment: `quit`, and table resizes to sizes that really allocate (more than a few MiB: every
//! variant change would then zero that much). Sizes beyond the machine are in the stream; they are
//! refused.

use crate::common;
use crate::fuzz_checks;

use common::Engine;
use std::time::{Duration, Instant};
use tempo::game::Game;
use tempo::protocol::MAX_LINE;
use tempo::protocol::hub::{hub_name, parse_line};
use tempo::tt::Tt;
use tempo::variant::Variant;
use tempo::with_variant;
use tempo::zobrist::splitmix;

/// How long a probe may take: generous, the machine is shared.
const PROBE: Duration = Duration::from_secs(30);
/// Lines between probes.
const BATCH: usize = 100;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = splitmix(self.0);
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dialect {
    Hub,
    Uci,
}

fn start_fens() -> Vec<String> {
    Variant::ALL
        .iter()
        .map(|&v| with_variant!(v, G => G::start().to_fen()))
        .collect()
}

fn templates(d: Dialect) -> Vec<String> {
    let fens = start_fens();
    let mut t: Vec<String> = Vec::new();
    match d {
        Dialect::Hub => {
            for s in [
                "hub",
                "init",
                "ping",
                "new-game",
                "pos start",
                "pos start moves=\"32-28 19-23 28x19 14x23\"",
                "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
                "pos pos=\"W:W31-50:B1-20\" moves=\"32-28 18-23\"",
                "pos pos=W:W28:B23",
                "pos moves=\"33-29 17-21 29-24 20x29x24\"",
                "level depth=3",
                "level nodes=3000",
                "level move-time=0.01",
                "level time=0.3 inc=0.01",
                "level moves=40 time=30",
                "level infinite",
                "level depth=2 nodes=500",
                "go think",
                "go analyze",
                "go ponder",
                "go think ponder",
                "ponder-hit",
                "stop",
                "set-param name=multipv value=3",
                "set-param name=ponder value=true",
                "set-param name=threads value=1",
                "set-param name=counted-draws value=false",
                "set-param name=repetitions value=3",
                "set-param name=tt-size value=16",
                "set-param name=tt-size value=30",
                "set-param name=tt-size value=1000000000",
            ] {
                t.push(s.to_string());
            }
            for v in Variant::ALL {
                t.push(format!("set-param name=variant value={}", hub_name(v)));
            }
            for f in &fens {
                t.push(format!("pos pos=\"{f}\""));
            }
        }
        Dialect::Uci => {
            for s in [
                "uci",
                "isready",
                "ucinewgame",
                "position startpos",
                "position startpos moves 32-28 19-23 28x19 14x23",
                "position fen W:W31-50:B1-20 moves 32-28",
                "position fen W:W28:B23",
                "go depth 3",
                "go nodes 3000",
                "go movetime 10",
                "go wtime 300 btime 300 winc 10 binc 10",
                "go wtime 30000 btime 30000 movestogo 40",
                "go infinite",
                "go ponder wtime 500 btime 500",
                "go searchmoves 32-28 33-29 depth 2",
                "go",
                "stop",
                "ponderhit",
                "setoption name MultiPV value 2",
                "setoption name Ponder value true",
                "setoption name Clear Hash",
                "setoption name Threads value 1",
                "setoption name counted-draws value false",
                "setoption name repetitions value 3",
                "setoption name Hash value 1",
                "setoption name Hash value 65536",
                "setoption name Hash value 99999999",
                "debug on",
                "register later",
            ] {
                t.push(s.to_string());
            }
            for v in Variant::ALL {
                t.push(format!("setoption name UCI_Variant value {}", v.name()));
            }
            for f in &fens {
                t.push(format!("position fen {f}"));
            }
        }
    }
    t
}

const NUMBERS: [&str; 16] = [
    "99999999999999999999999",
    "-1",
    "-0",
    "1e400",
    "NaN",
    "inf",
    "-inf",
    "0",
    "18446744073709551616",
    "4294967296",
    "0.0000001",
    "+5",
    "0x10",
    "1_000",
    "٣",
    "9223372036854775807",
];

const STRANGERS: [char; 20] = [
    '"', '=', ' ', '\t', '\r', '\u{0}', '\u{1}', '\u{7f}', 'é', '\u{202e}', '\u{feff}', '\u{a0}', '\u{2028}',
    'x', '-', ':', ',', 'K', 'W', '9',
];

/// One mutated line (never containing `\n`).
fn mutate(rng: &mut Rng, templates: &[String]) -> Vec<u8> {
    if rng.chance(12) {
        // Binary junk.
        let len = rng.below(300);
        return (0..len)
            .map(|_| match rng.next() as u8 {
                b'\n' => 0,
                b => b,
            })
            .collect();
    }
    let mut line = rng.pick(templates).clone();
    for _ in 0..rng.below(4) {
        let chars: Vec<char> = line.chars().collect();
        let at = rng.below(chars.len() + 1);
        line = match rng.below(9) {
            // Replace a character.
            0 if !chars.is_empty() => {
                let mut c = chars;
                let i = at.min(c.len() - 1);
                c[i] = *rng.pick(&STRANGERS);
                c.into_iter().collect()
            }
            // Insert a stranger.
            1 => {
                let mut c = chars;
                c.insert(at, *rng.pick(&STRANGERS));
                c.into_iter().collect()
            }
            // Cut short.
            2 => chars[..at].iter().collect(),
            // Drop a stretch.
            3 => {
                let end = (at + rng.below(8)).min(chars.len());
                chars[..at].iter().chain(&chars[end..]).collect()
            }
            // A number out of range.
            4 => {
                let words: Vec<&str> = line.split(' ').collect();
                words
                    .iter()
                    .map(|w| {
                        if let Some((k, v)) = w.split_once('=')
                            && v.chars().any(|c| c.is_ascii_digit())
                        {
                            format!("{k}={}", rng.pick(&NUMBERS))
                        } else if w.chars().all(|c| c.is_ascii_digit()) && !w.is_empty() {
                            rng.pick(&NUMBERS).to_string()
                        } else {
                            w.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            // An unbalanced quote.
            5 => {
                let mut c = chars;
                c.insert(at, '"');
                c.into_iter().collect()
            }
            // Two commands in one line.
            6 => format!("{line} {}", rng.pick(templates)),
            // Swap two words.
            7 => {
                let mut words: Vec<&str> = line.split(' ').collect();
                let (a, b) = (rng.below(words.len()), rng.below(words.len()));
                words.swap(a, b);
                words.join(" ")
            }
            // Upper case.
            _ => line.to_uppercase(),
        };
    }
    let mut bytes = line.into_bytes();
    if rng.chance(40) {
        // An invalid UTF-8 byte somewhere.
        let at = rng.below(bytes.len() + 1);
        bytes.insert(at, 0xC0 | (rng.next() as u8 & 0x3F));
    }
    bytes
}

/// A line of hundreds of kilobytes: a command followed by a long tail.
fn huge(rng: &mut Rng, templates: &[String], over_limit: bool) -> Vec<u8> {
    let len = if over_limit {
        MAX_LINE + 1 + rng.below(100_000)
    } else {
        100_000 + rng.below(400_000)
    };
    let mut bytes = rng.pick(templates).clone().into_bytes();
    let filler: &[u8] = match rng.below(4) {
        0 => b" 32-28",
        1 => b"\"",
        2 => b"x",
        _ => b" a=b",
    };
    while bytes.len() < len {
        bytes.extend_from_slice(filler);
    }
    bytes
}

/// The text the engine sees for `bytes`, as its reader makes it (`None` for a line over the limit).
fn as_read(bytes: &[u8]) -> Option<String> {
    if bytes.len() > MAX_LINE {
        return None;
    }
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    Some(String::from_utf8_lossy(bytes).into_owned())
}

/// What a line makes the engine do that the test must know of.
#[derive(Default)]
struct Effect {
    /// The line ends the process or allocates a real table: left out.
    excluded: bool,
    /// The line is a probe: one `pong`/`readyok` is owed.
    probe: bool,
}

fn effect(d: Dialect, bytes: &[u8]) -> Effect {
    let Some(text) = as_read(bytes) else {
        return Effect::default();
    };
    match d {
        Dialect::Hub => {
            let Ok(l) = parse_line(&text) else {
                return Effect::default();
            };
            // tt-size n is 2^n 16-byte entries: 16 is 1 MiB.
            let big_table = l.command == "set-param"
                && l.get("name") == Some("tt-size")
                && l.get("value")
                    .and_then(|v| v.parse::<u32>().ok())
                    .is_some_and(|n| (17..=40).contains(&n) && (1usize << (n - 16)) <= Tt::max_mib());
            Effect {
                excluded: l.command == "quit" || big_table,
                probe: l.command == "ping",
            }
        }
        Dialect::Uci => {
            let words: Vec<&str> = text.split_whitespace().collect();
            let big_table = words.first() == Some(&"setoption") && words.get(1) == Some(&"name") && {
                let split = words.iter().position(|w| *w == "value").unwrap_or(words.len());
                let name = words[2.min(split)..split].join(" ");
                let value = words.get(split + 1..).map(|w| w.join(" ")).unwrap_or_default();
                name.eq_ignore_ascii_case("hash")
                    && value.parse::<usize>().is_ok_and(|n| {
                        (5..=tempo::protocol::uci::HASH_MAX).contains(&n) && n <= Tt::max_mib()
                    })
            };
            Effect {
                excluded: words.first() == Some(&"quit") || big_table,
                probe: words.first() == Some(&"isready"),
            }
        }
    }
}

struct Figures {
    lines: usize,
    bytes: usize,
    errors: usize,
    probes: usize,
    searches_done: usize,
    slowest_probe: Duration,
    took: Duration,
}

/// Reads until `owed` probe answers have come; checks every line on the way.
fn collect(e: &mut Engine, d: Dialect, owed: &mut usize, figures: &mut Figures) {
    let answer = match d {
        Dialect::Hub => "pong",
        Dialect::Uci => "readyok",
    };
    let asked = Instant::now();
    while *owed > 0 {
        let Some((_, line)) = e.next_within(PROBE) else {
            panic!(
                "{d:?}: {owed} probe(s) unanswered after {PROBE:?}; last lines: {:?}",
                e.log.iter().rev().take(8).collect::<Vec<_>>()
            );
        };
        if line == answer {
            *owed -= 1;
            figures.probes += 1;
            continue;
        }
        match d {
            Dialect::Hub => fuzz_checks::check_hub_output("(hostile stream)", std::slice::from_ref(&line)),
            Dialect::Uci => fuzz_checks::check_uci_output("(hostile stream)", std::slice::from_ref(&line)),
        }
        if line.starts_with("error") || line.starts_with("info string error") {
            figures.errors += 1;
        }
        if line.starts_with("done") || line.starts_with("bestmove") {
            figures.searches_done += 1;
        }
    }
    figures.slowest_probe = figures.slowest_probe.max(asked.elapsed());
    // Keep the log from growing over a long run.
    e.log.clear();
}

fn run(d: Dialect, count: usize, seed: u64) -> Figures {
    let started = Instant::now();
    let mut e = Engine::start(&[match d {
        Dialect::Hub => "hub",
        Dialect::Uci => "uci",
    }]);
    let probe = match d {
        Dialect::Hub => "ping",
        Dialect::Uci => "isready",
    };
    // A small table, so that the many variant changes stay cheap.
    match d {
        Dialect::Hub => {
            e.send("hub");
            e.send("set-param name=tt-size value=16");
            e.send("init");
            e.until("ready");
        }
        Dialect::Uci => {
            e.send("uci");
            e.send("setoption name Hash value 1");
            e.until("uciok");
        }
    }
    let templates = templates(d);
    let mut rng = Rng(seed);
    let mut figures = Figures {
        lines: 0,
        bytes: 0,
        errors: 0,
        probes: 0,
        searches_done: 0,
        slowest_probe: Duration::ZERO,
        took: Duration::ZERO,
    };
    let mut owed = 0;
    // A couple of lines over the limit in every run, the first early.
    let over_limit_at = [count / 10, count / 2 + 7];
    while figures.lines < count {
        for _ in 0..BATCH {
            let i = figures.lines;
            let bytes = if over_limit_at.contains(&i) {
                huge(&mut rng, &templates, true)
            } else if rng.chance(500) {
                huge(&mut rng, &templates, false)
            } else {
                mutate(&mut rng, &templates)
            };
            let effect = effect(d, &bytes);
            if effect.excluded {
                continue;
            }
            owed += usize::from(effect.probe);
            e.send_raw(&bytes);
            e.send_raw(b"\n");
            figures.lines += 1;
            figures.bytes += bytes.len() + 1;
        }
        e.send(probe);
        owed += 1;
        collect(&mut e, d, &mut owed, &mut figures);
    }
    // Still correct: a known position searched in a known variant.
    let (line, expect) = match d {
        Dialect::Hub => {
            // `stop` ends a search the stream may have left running; its `done` comes before `pong`.
            e.send("stop");
            e.send("ping");
            e.until("pong");
            for l in [
                "set-param name=variant value=normal",
                "set-param name=multipv value=1",
                "set-param name=ponder value=false",
                "pos pos=W:W28:B23",
                "level depth=4",
                "go think",
            ] {
                e.send(l);
            }
            let (line, _) = e.until("done move=");
            (line, "done move=28x19x23")
        }
        Dialect::Uci => {
            e.send("stop");
            e.send("isready");
            e.until("readyok");
            for l in [
                "setoption name UCI_Variant value international",
                "setoption name MultiPV value 1",
                "position fen W:W28:B23",
                "go depth 4",
            ] {
                e.send(l);
            }
            let (line, _) = e.until("bestmove");
            (line, "bestmove 28x19")
        }
    };
    assert_eq!(line, expect, "{d:?}: the search after the stream");
    // And a start position search gives a legal move.
    match d {
        Dialect::Hub => {
            e.send("pos start");
            e.send("level depth=5");
            e.send("go think");
            let (line, _) = e.until("done");
            let mv = parse_line(&line).unwrap().get("move").unwrap().to_string();
            tempo::draughts::International::start()
                .parse_move(&mv)
                .unwrap_or_else(|err| panic!("{mv}: {err}"));
        }
        Dialect::Uci => {
            e.send("position startpos");
            e.send("go depth 5");
            let (line, _) = e.until("bestmove");
            let mv = line.split_whitespace().nth(1).unwrap().to_string();
            tempo::draughts::International::start()
                .parse_move(&mv)
                .unwrap_or_else(|err| panic!("{mv}: {err}"));
        }
    }
    e.send("quit");
    let (code, _) = e.wait_exit(Duration::from_secs(10));
    assert_eq!(code, Some(0), "{d:?}: exit status");
    let stderr = e.stderr();
    assert_eq!(stderr, "", "{d:?}: stderr");
    figures.took = started.elapsed();
    eprintln!(
        "{d:?}: {} lines ({} MB) in {:.1} s; {} probes answered (slowest batch {:?}), {} error lines, {} searches ended",
        figures.lines,
        figures.bytes / 1_000_000,
        figures.took.as_secs_f64(),
        figures.probes,
        figures.slowest_probe,
        figures.errors,
        figures.searches_done
    );
    figures
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn check(figures: &Figures, count: usize) {
    assert!(figures.lines >= count);
    assert!(figures.probes > count / BATCH, "every batch's probe was answered");
    assert!(
        figures.errors > count / 20,
        "the stream was hostile: {} error lines",
        figures.errors
    );
    assert!(figures.searches_done > 0, "the stream started searches");
}

#[test]
fn hub_survives_hostile_input() {
    let count = env_or("TEMPO_HOSTILE_LINES", 5_000) as usize;
    let f = run(Dialect::Hub, count, env_or("TEMPO_HOSTILE_SEED", 1));
    check(&f, count);
}

#[test]
fn uci_survives_hostile_input() {
    let count = env_or("TEMPO_HOSTILE_LINES", 5_000) as usize;
    let f = run(Dialect::Uci, count, env_or("TEMPO_HOSTILE_SEED", 1));
    check(&f, count);
}

#[test]
#[ignore = "long form: 100,000 lines per dialect"]
fn hub_survives_100k_hostile_lines() {
    let f = run(Dialect::Hub, 100_000, env_or("TEMPO_HOSTILE_SEED", 2));
    check(&f, 100_000);
}

#[test]
#[ignore = "long form: 100,000 lines per dialect"]
fn uci_survives_100k_hostile_lines() {
    let f = run(Dialect::Uci, 100_000, env_or("TEMPO_HOSTILE_SEED", 2));
    check(&f, 100_000);
}
