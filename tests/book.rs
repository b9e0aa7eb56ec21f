//! `tempo book`: tiny International books built with small node budgets, probed, verified,
//! damaged, grown further; the choice of a book move with a margin; transpositions.

use rand::SeedableRng;
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::process::{Command, Output};
use tempo::book::Book;
use tempo::draughts::International;
use tempo::game::{Game, MoveList, MoveStyle};

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("the tempo binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A file name in the temporary directory, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("tempo-book-{}-{name}.book", std::process::id()));
        let _ = std::fs::remove_file(&path);
        TempFile(path)
    }
    fn path(&self) -> String {
        self.0.to_string_lossy().to_string()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Builds (or grows) the International book `out` with `args`, asserting success.
fn build(out: &TempFile, args: &[&str]) {
    let path = out.path();
    let mut all = vec![
        "book",
        "build",
        "--variant",
        "international",
        "--quiet",
        "--out",
        &path,
    ];
    all.extend_from_slice(args);
    let o = tempo(&all);
    assert!(o.status.success(), "tempo {all:?} failed: {}", stderr(&o));
    assert!(o.stderr.is_empty(), "--quiet printed: {}", stderr(&o));
}

fn info(out: &TempFile) -> HashMap<String, String> {
    let o = tempo(&["book", "info", "--book", &out.path()]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn tiny(name: &str, threads: &str) -> TempFile {
    let out = TempFile::new(name);
    build(
        &out,
        &["--nodes", "300", "--positions", "40", "--threads", threads],
    );
    out
}

#[test]
fn a_tiny_book_is_built_probed_and_verified() {
    let out = tiny("tiny", "1");
    let facts = info(&out);
    assert_eq!(facts["variant"], "international");
    let positions: usize = facts["positions"].parse().unwrap();
    assert!((20..=40).contains(&positions), "{facts:?}");
    assert_eq!(facts["bytes"], (48 + 16 * positions + 4).to_string());
    assert!(facts["deepest"].parse::<u32>().unwrap() >= 2, "{facts:?}");

    let o = tempo(&["book", "verify", "--book", &out.path()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("scores consistent"), "{}", stdout(&o));

    // The initial position has nine moves, all in the book, the best first.
    let o = tempo(&[
        "book",
        "probe",
        "--variant",
        "international",
        "--book",
        &out.path(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("position score"), "{text}");
    assert!(text.contains("expanded"), "{text}");
    let scores: Vec<i32> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(scores.len(), 9, "{text}");
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{text}");
    let book = Book::load_for::<International>(&out.0).unwrap();
    assert_eq!(book.find(International::start().key()).unwrap().score, scores[0]);

    // A position off the book: no moves.
    let o = tempo(&[
        "book",
        "probe",
        "--variant",
        "international",
        "--book",
        &out.path(),
        "W:W50:B1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "position not in the book");

    // Another variant's reader refuses it.
    let o = tempo(&["book", "probe", "--variant", "russian", "--book", &out.path()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("a book of international, not of russian"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_damaged_book_is_refused_with_the_reason() {
    let out = tiny("damaged", "1");
    let mut bytes = std::fs::read(&out.0).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&out.0, &bytes).unwrap();
    for args in [
        vec!["book", "verify", "--book"],
        vec!["book", "info", "--book"],
        vec!["book", "probe", "--book"],
    ] {
        let mut all = args.clone();
        let path = out.path();
        all.push(&path);
        let o = tempo(&all);
        assert!(!o.status.success(), "{all:?} accepted a damaged book");
        assert!(
            stderr(&o).contains("checksum mismatch"),
            "{all:?}: {}",
            stderr(&o)
        );
    }
    // A book cut short says so.
    std::fs::write(&out.0, &bytes[..bytes.len() - 7]).unwrap();
    let o = tempo(&["book", "verify", "--book", &out.path()]);
    assert!(stderr(&o).contains("cut short"), "{}", stderr(&o));
    // Growing a damaged book is refused, and the file is left as it was.
    let path = out.path();
    let o = tempo(&["book", "build", "--quiet", "--nodes", "100", "--out", &path]);
    assert!(!o.status.success());
    assert_eq!(std::fs::read(&out.0).unwrap(), &bytes[..bytes.len() - 7]);
}

#[test]
fn threads_do_not_change_the_book_and_a_book_grows_further() {
    let one = tiny("one-thread", "1");
    let two = tiny("two-threads", "2");
    assert_eq!(std::fs::read(&one.0).unwrap(), std::fs::read(&two.0).unwrap());
    let before = Book::load(&one.0).unwrap();
    build(&one, &["--nodes", "300", "--positions", "80", "--threads", "2"]);
    let after = Book::load(&one.0).unwrap();
    assert!(
        after.len() > before.len() + 20,
        "{} then {}",
        before.len(),
        after.len()
    );
    // Every position of the small book is still there, and the grown book is sound.
    for e in before.entries() {
        assert!(after.find(e.key).is_some());
    }
    let o = tempo(&["book", "verify", "--book", &one.path()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn margin_zero_plays_the_best_move_and_a_large_margin_varies() {
    let out = tiny("margin", "1");
    let book = Book::load_for::<International>(&out.0).unwrap();
    let root = International::start();
    let moves = book.moves(&root);
    let best = moves[0].score;
    let mut wide = BTreeSet::new();
    for seed in 0..64 {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let m = book.choose(&root, 0, &mut rng).unwrap();
        assert_eq!(m.score, best);
        let m = book.choose(&root, 10_000, &mut rng).unwrap();
        wide.insert(root.format_move(&m.mv, MoveStyle::Standard));
    }
    assert!(wide.len() >= 4, "{wide:?}");
    // No choice where the book does not know every move.
    let leaf = moves
        .iter()
        .map(|m| root.play(&m.mv))
        .find(|p| !book.find(p.key()).unwrap().expanded());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    assert!(book.choose(&leaf.unwrap(), 0, &mut rng).is_none());
}

#[test]
fn transpositions_find_the_same_entry() {
    // Drop-out weight 0: the book grows by ply alone, past the second ply, where the third ply's
    // positions start meeting each other by other move orders.
    let out = TempFile::new("transpositions");
    build(
        &out,
        &[
            "--nodes",
            "100",
            "--positions",
            "250",
            "--dropout",
            "0",
            "--threads",
            "2",
        ],
    );
    let book = Book::load_for::<International>(&out.0).unwrap();
    let root = International::start();
    // Every three-ply line that ends in the book, by the key of its end.
    let mut lines: HashMap<u64, Vec<Vec<String>>> = HashMap::new();
    let (mut l1, mut l2, mut l3) = (MoveList::new(), MoveList::new(), MoveList::new());
    root.generate(&mut l1);
    for a in l1.iter() {
        let p1 = root.play(a);
        p1.generate(&mut l2);
        for b in l2.iter() {
            let p2 = p1.play(b);
            p2.generate(&mut l3);
            for c in l3.iter() {
                let p3 = p2.play(c);
                if book.find(p3.key()).is_some() {
                    let line = vec![
                        root.format_move(a, MoveStyle::Standard),
                        p1.format_move(b, MoveStyle::Standard),
                        p2.format_move(c, MoveStyle::Standard),
                    ];
                    lines.entry(p3.key()).or_default().push(line);
                }
            }
        }
    }
    let (key, orders) = lines
        .iter()
        .find(|(_, v)| v.len() >= 2)
        .expect("a position of the book reached by two move orders");
    // Both orders, replayed from their text, reach one entry and the same book moves.
    let reach = |line: &[String]| line.iter().fold(root, |p, m| p.play(&p.parse_move(m).unwrap()));
    let (x, y) = (reach(&orders[0]), reach(&orders[1]));
    assert_ne!(orders[0], orders[1]);
    assert_eq!((x.key(), y.key()), (*key, *key));
    assert_eq!(book.find(x.key()), book.find(y.key()));
    assert_eq!(book.moves(&x), book.moves(&y));
    let o = tempo(&["book", "verify", "--book", &out.path()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Issue 56: in play, Hub `book`/`book-file` and UCI `OwnBook`/`BookFile` answer a game search
/// from the book at once, with a line that says so; analysis searches; a book of another variant
/// is refused with the reason.
#[test]
fn the_protocols_play_book_moves_at_once() {
    use crate::common::Engine;
    use std::time::{Duration, Instant};
    let book = tiny("play", "1");
    let path = book.path();
    let legal = |mv: &str| {
        let mut moves = MoveList::new();
        let start = International::start();
        start.generate(&mut moves);
        moves
            .iter()
            .any(|m| start.format_move(m, MoveStyle::Standard) == mv)
    };
    // Hub: a move time of 5 s, answered from the book in far less.
    let mut e = Engine::start(&["hub"]);
    e.send("hub");
    e.until("wait");
    e.send(&format!("set-param name=book-file value=\"{path}\""));
    e.send("set-param name=book value=true");
    e.send("init");
    e.until("ready");
    e.send("pos start");
    e.send("level move-time=5");
    let t = Instant::now();
    e.send("go think");
    let (done, before) = e.until("done");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("info depth=0") && l.ends_with(" book=true")),
        "{before:?}"
    );
    let mv = done.trim_start_matches("done move=");
    assert!(legal(mv), "{done}");
    // Analysis is a search, not the book.
    e.send("level depth=2");
    e.send("go analyze");
    let (_, before) = e.until("done");
    assert!(!before.iter().any(|l| l.contains("book=true")), "{before:?}");
    // Off again: a search.
    e.send("set-param name=book value=false");
    e.send("level depth=2");
    e.send("go think");
    let (_, before) = e.until("done");
    assert!(before.iter().any(|l| l.starts_with("info depth=2")), "{before:?}");
    // A book of another variant is refused, and the engine goes on.
    e.send("set-param name=book value=true");
    e.send("set-param name=variant value=russian");
    e.send("ping");
    let (_, before) = e.until("pong");
    assert!(before.iter().any(|l| l.contains("not of russian")), "{before:?}");
    // UCI.
    let mut u = Engine::start(&["uci"]);
    u.send("uci");
    u.until("uciok");
    u.send(&format!("setoption name BookFile value {path}"));
    u.send("setoption name OwnBook value true");
    u.send("isready");
    u.until("readyok");
    u.send("position startpos");
    let t = Instant::now();
    u.send("go movetime 5000");
    let (best, before) = u.until("bestmove");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert!(
        before.iter().any(|l| l.starts_with("info string book move")),
        "{before:?}"
    );
    assert!(legal(best.trim_start_matches("bestmove ")), "{best}");
}

/// Issue 56: `book=true` with no book file plays from the variant's shipped book, in every variant
/// that ships one; a variant without one refuses it with the reason, and `tempo book verify`
/// passes every shipped file.
#[test]
fn the_shipped_books_play_and_verify() {
    use crate::common::Engine;
    let mut e = Engine::start(&["hub"]);
    e.send("hub");
    e.until("wait");
    e.send("set-param name=book value=true");
    e.send("init");
    e.until("ready");
    for variant in ["normal", "russian", "brazilian", "english", "frisian"] {
        e.send(&format!("set-param name=variant value={variant}"));
        e.send("pos start");
        e.send("level move-time=5");
        e.send("go think");
        let (done, before) = e.until("done");
        assert!(
            before.iter().any(|l| l.ends_with(" book=true")),
            "{variant}: {before:?} {done}"
        );
    }
    e.send("set-param name=variant value=turkish");
    e.send("ping");
    let (_, before) = e.until("pong");
    assert!(
        before.iter().any(|l| l.contains("no book ships for turkish")),
        "{before:?}"
    );
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("books");
    for name in ["international", "russian", "brazilian", "english", "frisian"] {
        let file = dir.join(format!("{name}.book"));
        let o = tempo(&["book", "verify", "--book", &file.to_string_lossy()]);
        assert!(o.status.success(), "{name}: {}{}", stdout(&o), stderr(&o));
    }
}

/// The bytes of book `bytes` with entry `key` changed by `edit` (its 16 bytes: key, score, depth,
/// ply, flags, reserved) and the checksum made good again, so that only the change is wrong.
fn patched(bytes: &[u8], key: u64, edit: impl Fn(&mut [u8])) -> Vec<u8> {
    let mut b = bytes.to_vec();
    let count = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    let at = (0..count)
        .map(|i| 48 + 16 * i)
        .find(|&at| u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) == key)
        .expect("the key is in the book");
    edit(&mut b[at..at + 16]);
    let body = b.len() - 4;
    let crc = crc32fast::hash(&b[..body]);
    b[body..].copy_from_slice(&crc.to_le_bytes());
    b
}

/// `verify` checks every field: a score beyond a win at once (refused on reading, so play and
/// probe refuse it too: it used to be played, `score=-119.99 ... book=true`), a terminal flag
/// where the game goes on, a wrong ply, a wrong depth; and a position marked expanded whose moves
/// lead outside the book is told so, not "expanded but without a move" (it has moves).
#[test]
fn verify_checks_scores_flags_plies_and_depths() {
    let out = tiny("fields", "1");
    let good = std::fs::read(&out.0).unwrap();
    let book = Book::load_for::<International>(&out.0).unwrap();
    let start = International::start();
    let root = start.key();
    let mut list = MoveList::new();
    start.generate(&mut list);
    let child = start.play(&list[0]).key();
    // A position one ply in that the book did not expand.
    let leaf = list
        .iter()
        .map(|m| start.play(m).key())
        .find(|&k| !book.find(k).unwrap().expanded())
        .expect("a tiny book leaves some first move unexpanded");
    let bad = TempFile::new("fields-bad");
    let path = bad.path();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            patched(&good, root, |e| {
                e[8..10].copy_from_slice(&31_000i16.to_le_bytes())
            }),
            "out of range",
        ),
        (patched(&good, child, |e| e[14] |= 2), "terminal"),
        (
            patched(&good, child, |e| e[12..14].copy_from_slice(&7u16.to_le_bytes())),
            "ply 7",
        ),
        (
            patched(&good, root, |e| {
                let d = u16::from_le_bytes([e[10], e[11]]) + 3;
                e[10..12].copy_from_slice(&d.to_le_bytes());
            }),
            "depth",
        ),
        (patched(&good, leaf, |e| e[14] |= 1), "leads outside the book"),
    ];
    for (bytes, why) in cases {
        std::fs::write(&bad.0, &bytes).unwrap();
        let o = tempo(&["book", "verify", "--book", &path]);
        assert!(!o.status.success(), "{why}: verify passed");
        assert!(stderr(&o).contains(why), "{why}: {}", stderr(&o));
        assert!(!stderr(&o).contains("without a move"), "{}", stderr(&o));
    }
    // The score beyond a win: refused by probe and by play as by verify.
    let bytes = patched(&good, child, |e| {
        e[8..10].copy_from_slice(&(-31_000i16).to_le_bytes())
    });
    std::fs::write(&bad.0, &bytes).unwrap();
    let o = tempo(&["book", "probe", "--book", &path]);
    assert!(
        !o.status.success() && stderr(&o).contains("out of range"),
        "{}",
        stderr(&o)
    );
    let mut e = crate::common::Engine::start(&["hub"]);
    e.send("hub");
    e.until("wait");
    e.send("set-param name=book value=true");
    e.send(&format!("set-param name=book-file value=\"{path}\""));
    e.send("ping");
    let (_, before) = e.until("pong");
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("error") && l.contains("out of range")),
        "{before:?}"
    );
    e.send("pos start");
    e.send("level depth=1");
    e.send("go think");
    let (_, before) = e.until("done");
    assert!(!before.iter().any(|l| l.contains("book=true")), "{before:?}");
}

/// `tempo book probe` without `--book` probes the variant's shipped book, as play and `analyze`
/// do; a variant that ships none says how to name one.
#[test]
fn probe_defaults_to_the_shipped_book() {
    for variant in ["international", "russian"] {
        let o = tempo(&["book", "probe", "--variant", variant]);
        assert!(o.status.success(), "{variant}: {}", stderr(&o));
        assert!(stdout(&o).starts_with("position score"), "{}", stdout(&o));
        assert!(stdout(&o).contains("expanded"), "{}", stdout(&o));
    }
    let o = tempo(&["book", "probe", "--variant", "italian"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no book ships for italian") && stderr(&o).contains("--book"),
        "{}",
        stderr(&o)
    );
}

/// An error written to a standard error whose reader has gone ends the command with its own exit
/// status (1), not a panic (101; `tempo book info --book /nonexistent 2>&1 | (exit 0)`).
#[test]
fn an_error_on_a_closed_stderr_is_no_panic() {
    use std::process::Stdio;
    for _ in 0..5 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
            .args(["book", "info", "--book", "/nonexistent/tempo.book"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        assert_eq!(child.wait().unwrap().code(), Some(1));
    }
}
