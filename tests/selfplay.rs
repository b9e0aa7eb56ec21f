//! Black-box tests of `tempo selfplay`: the file format, determinism, shards, resuming, and errors
//! for bad arguments. Runs are tiny (a few games at depth 2).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Output};
use tempo::game::Game;

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("the tempo binary runs")
}

/// A file name in the temporary directory, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("tempo-selfplay-{}-{name}.txt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        TempFile(path)
    }
    fn path(&self) -> String {
        self.0.to_string_lossy().to_string()
    }
    fn read(&self) -> String {
        std::fs::read_to_string(&self.0).expect("the output file exists")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs `tempo selfplay ARGS --out FILE --quiet`, asserting success and a silent standard error.
fn selfplay(out: &TempFile, args: &[&str]) {
    let path = out.path();
    let mut all = vec!["selfplay", "--quiet", "--out", &path];
    all.extend_from_slice(args);
    let o = tempo(&all);
    assert!(
        o.status.success(),
        "tempo {all:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.stderr.is_empty(),
        "--quiet printed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The game blocks of a file (each its position lines and closing line), without the header.
fn blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 {
            assert!(line.starts_with("# tempo selfplay "), "header: {line}");
            continue;
        }
        current.push_str(line);
        current.push('\n');
        if line.starts_with("# game ") {
            out.push(std::mem::take(&mut current));
        }
    }
    assert!(current.is_empty(), "lines after the last game: {current}");
    out
}

fn game_index(block: &str) -> u64 {
    let last = block.lines().last().unwrap();
    last.strip_prefix("# game ")
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

fn set(text: &str) -> BTreeSet<String> {
    blocks(text).into_iter().collect()
}

/// Checks every block of `text` for game type `G`: readable FEN of a quiet position, an integer
/// score, the block's result on every line. Returns the number of positions.
fn check_format<G: tempo::eval::Evaluate>(text: &str) -> usize {
    let mut positions = 0;
    for block in blocks(text) {
        let closing = block.lines().last().unwrap();
        let words: Vec<&str> = closing.split_whitespace().collect();
        assert_eq!(words[3], "result", "{closing}");
        let result = words[4];
        assert!(["1", "0.5", "0"].contains(&result), "{closing}");
        for line in block.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "{line}");
            let pos = G::from_fen(fields[0]).unwrap_or_else(|e| panic!("{e}: {line}"));
            assert!(pos.outcome().is_none(), "a finished game's position: {line}");
            assert!(
                tempo::selfplay::is_quiet(&pos),
                "a position with a capture: {line}"
            );
            let score: i32 = fields[1].parse().unwrap_or_else(|e| panic!("{e}: {line}"));
            assert!(score.abs() <= tempo::search::WIN, "{line}");
            assert_eq!(fields[2], result, "the line's result is not the game's: {line}");
            positions += 1;
        }
    }
    positions
}

#[test]
fn the_format_parses_and_holds_quiet_positions_only() {
    let f = TempFile::new("format-int");
    selfplay(&f, &["--games", "3", "--depth", "2", "--threads", "2"]);
    let text = f.read();
    assert_eq!(blocks(&text).len(), 3);
    assert!(check_format::<tempo::draughts::International>(&text) > 20);
    let indices: BTreeSet<u64> = blocks(&text).iter().map(|b| game_index(b)).collect();
    assert_eq!(indices, BTreeSet::from([0, 1, 2]));

    let f = TempFile::new("format-eng");
    selfplay(
        &f,
        &[
            "-v",
            "english",
            "--games",
            "4",
            "--depth",
            "2",
            "--random-plies",
            "4",
        ],
    );
    let text = f.read();
    assert!(
        text.starts_with("# tempo selfplay variant=english depth=2 "),
        "{text}"
    );
    assert_eq!(blocks(&text).len(), 4);
    assert!(check_format::<tempo::draughts::English>(&text) > 20);
}

#[test]
fn a_node_budget_plays_too() {
    let f = TempFile::new("nodes");
    selfplay(&f, &["-v", "english", "--games", "2", "--nodes", "300"]);
    let text = f.read();
    assert!(
        text.starts_with("# tempo selfplay variant=english depth=none nodes=300 "),
        "{text}"
    );
    assert_eq!(blocks(&text).len(), 2);
    check_format::<tempo::draughts::English>(&text);
}

/// The score of each game's first recorded position.
fn first_scores(text: &str) -> Vec<i32> {
    blocks(text)
        .iter()
        .filter_map(|b| b.lines().next().filter(|l| !l.starts_with('#')))
        .map(|l| l.split('\t').nth(1).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn the_balance_filter_keeps_even_openings() {
    // Seed 9: seed 1 held with the hand evaluation, not with International's learned one (a game
    // whose opening ends in a capture starts its record later, away from the filter's score).
    let args = ["--games", "6", "--depth", "2", "--seed", "9"];
    let free = TempFile::new("unbalanced");
    selfplay(&free, &args);
    assert!(
        first_scores(&free.read()).iter().any(|s| s.abs() > 20),
        "without the filter some opening is uneven"
    );
    let even = TempFile::new("balanced");
    selfplay(&even, &[&args[..], &["--balance", "0.2"]].concat());
    let text = even.read();
    assert!(text.lines().next().unwrap().contains(" balance=20@2 "), "{text}");
    // A game's first recorded position is the opening's last one when that is quiet, and its score
    // is then the filter's own (same depth, an empty table). With this seed that holds in every
    // game, so every first score is within the bound.
    let scores = first_scores(&text);
    assert_eq!(scores.len(), 6);
    assert!(scores.iter().all(|s| s.abs() <= 20), "{scores:?}");
}

#[test]
fn the_evaluation_can_be_chosen() {
    // International's network and its pattern weights score the same openings differently.
    let args = ["--games", "2", "--depth", "2", "--seed", "3", "--threads", "1"];
    let network = TempFile::new("eval-network");
    selfplay(&network, &[&args[..], &["--eval-file", "<network>"]].concat());
    let learned = TempFile::new("eval-learned");
    selfplay(&learned, &[&args[..], &["--eval-file", "<learned>"]].concat());
    let default = TempFile::new("eval-default");
    selfplay(&default, &args);
    check_format::<tempo::draughts::International>(&network.read());
    assert_ne!(network.read(), learned.read());
    assert_eq!(
        default.read(),
        learned.read(),
        "the pattern weights are the default"
    );
}

#[test]
fn the_same_seed_gives_the_same_games_whatever_the_threads() {
    let args = ["-v", "english", "--games", "4", "--depth", "2", "--seed", "5"];
    let one = TempFile::new("det-1");
    selfplay(&one, &[&args[..], &["--threads", "1"]].concat());
    let two = TempFile::new("det-2");
    selfplay(&two, &[&args[..], &["--threads", "3"]].concat());
    assert_eq!(set(&one.read()), set(&two.read()));
    // The header is the same too: the thread count is not a setting of the games.
    assert_eq!(one.read().lines().next(), two.read().lines().next());

    let other = TempFile::new("det-seed");
    selfplay(
        &other,
        &["-v", "english", "--games", "4", "--depth", "2", "--seed", "6"],
    );
    assert_ne!(
        set(&one.read()),
        set(&other.read()),
        "another seed plays other games"
    );
}

#[test]
fn shards_concatenate_to_the_whole_run() {
    let args = ["-v", "english", "--games", "5", "--depth", "2", "--seed", "3"];
    let whole = TempFile::new("shard-all");
    selfplay(&whole, &args);
    let s0 = TempFile::new("shard-0");
    selfplay(&s0, &[&args[..], &["--shard", "0/2"]].concat());
    let s1 = TempFile::new("shard-1");
    selfplay(&s1, &[&args[..], &["--shard", "1/2"]].concat());
    let i0: BTreeSet<u64> = blocks(&s0.read()).iter().map(|b| game_index(b)).collect();
    assert_eq!(i0, BTreeSet::from([0, 2, 4]));
    let mut union = set(&s0.read());
    union.extend(set(&s1.read()));
    assert_eq!(blocks(&s0.read()).len() + blocks(&s1.read()).len(), 5);
    assert_eq!(union, set(&whole.read()));
}

#[test]
fn a_run_resumes_without_touching_finished_games() {
    let args = ["-v", "english", "--depth", "2", "--seed", "9"];
    let f = TempFile::new("resume");
    selfplay(&f, &[&args[..], &["--games", "2"]].concat());
    let first = f.read();
    assert_eq!(blocks(&first).len(), 2);
    selfplay(&f, &[&args[..], &["--games", "4"]].concat());
    let second = f.read();
    assert!(second.starts_with(&first), "the first games were changed");
    assert_eq!(blocks(&second).len(), 4);
    let indices: BTreeSet<u64> = blocks(&second).iter().map(|b| game_index(b)).collect();
    assert_eq!(indices, BTreeSet::from([0, 1, 2, 3]));
    // Nothing left to do: the file stays as it is.
    selfplay(&f, &[&args[..], &["--games", "4"]].concat());
    assert_eq!(f.read(), second);

    // A block cut off by a stopped run is dropped and its game played again.
    let whole = TempFile::new("resume-whole");
    selfplay(&whole, &[&args[..], &["--games", "5"]].concat());
    std::fs::write(&f.0, format!("{second}W:W21,22:B1,2\t13\t0.")).unwrap();
    let path = f.path();
    // While another run works on the file (the test holds its lock), a second one is refused
    // and leaves the file as it is, the other run's unfinished block included.
    let before = f.read();
    let held = tempo::fsutil::lock_in_place("--out", &f.0)
        .unwrap()
        .expect("the lock is available on this system");
    let o = tempo(&[&["selfplay", "--out", &path][..], &args[..], &["--games", "5"]].concat());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && stderr.contains("another process is working on this file"),
        "{stderr}"
    );
    assert_eq!(f.read(), before, "a locked file was changed");
    drop(held);
    let o = tempo(&[&["selfplay", "--out", &path][..], &args[..], &["--games", "5"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("dropped an unfinished game block"), "{stderr}");
    assert!(stderr.contains("1 games played"), "{stderr}");
    assert!(f.read().starts_with(&second));
    assert_eq!(set(&f.read()), set(&whole.read()));
}

#[test]
fn other_settings_do_not_resume_a_file() {
    let f = TempFile::new("foreign");
    selfplay(&f, &["-v", "english", "--games", "1", "--depth", "2"]);
    let before = f.read();
    let path = f.path();
    let o = tempo(&[
        "selfplay", "-v", "english", "--games", "2", "--depth", "3", "--out", &path,
    ]);
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("other settings") && stderr.contains("depth=3"),
        "{stderr}"
    );
    assert_eq!(f.read(), before, "the file was changed");
}

#[test]
fn bad_arguments_are_clear_errors() {
    let f = TempFile::new("bad");
    let path = f.path();
    for (args, needle) in [
        (vec!["--games", "4", "--shard", "3/2"], "below the count"),
        (vec!["--games", "4", "--shard", "1/0"], "at least 1"),
        (vec!["--games", "0"], "--games"),
        (vec!["--games", "2", "--depth", "0"], "--depth"),
        (vec!["--games", "2", "-v", "chess"], "chess"),
        (vec!["--games", "2", "--balance=-1"], "--balance"),
        (
            vec!["--games", "2", "-v", "english", "--eval-file", "<network>"],
            "ships no network",
        ),
        (
            vec!["--games", "2", "--eval-file", "/nonexistent-dir/w.bin"],
            "--eval-file",
        ),
    ] {
        let o = tempo(&[&["selfplay", "--out", &path][..], &args[..]].concat());
        assert!(!o.status.success(), "{args:?} succeeded");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    assert!(!f.0.exists(), "a refused run created its file");
    let o = tempo(&["selfplay", "--games", "1", "--out", "/nonexistent-dir/x.txt"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent-dir/x.txt"));
}

#[test]
fn progress_goes_to_standard_error() {
    let f = TempFile::new("progress");
    let path = f.path();
    let o = tempo(&[
        "selfplay", "-v", "english", "--games", "2", "--depth", "2", "--out", &path,
    ]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("2/2 games") && stderr.contains("games/s"),
        "{stderr}"
    );
}

/// Issue 53 item 10: a closing line whose game number was edited (too large for a number, out of
/// range, negative) is refused with the line's number, instead of being taken for a comment and
/// its game played a second time; the file is left as it was.
#[test]
fn an_edited_game_line_is_refused() {
    let args = ["-v", "english", "--depth", "2", "--seed", "3", "--games", "2"];
    let f = TempFile::new("edited");
    selfplay(&f, &args);
    let good = f.read();
    let last = good
        .lines()
        .rev()
        .find(|l| l.starts_with("# game "))
        .unwrap()
        .to_string();
    let path = f.path();
    for number in ["99999999999999999999", "1000000000", "-5", "x"] {
        let k = last.split_whitespace().nth(2).unwrap();
        let edited = good.replace(
            &last,
            &last.replacen(&format!("# game {k} "), &format!("# game {number} "), 1),
        );
        assert_ne!(edited, good);
        std::fs::write(&f.0, &edited).unwrap();
        let o = tempo(&[&["selfplay", "--quiet", "--out", &path][..], &args[..]].concat());
        assert!(!o.status.success(), "{number}: resumed");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.contains("bad game line") && stderr.contains(number),
            "{number}: {stderr}"
        );
        assert_eq!(f.read(), edited, "{number}: the file was changed");
    }
}

/// Issue 53 item 6: an --out that is a device (/dev/zero would be read without end) or a
/// directory is refused with a message, and a file with a line without end is refused at the
/// line's bound.
#[test]
fn special_outputs_are_refused() {
    for out in ["/dev/zero", "/tmp"] {
        let o = tempo(&["selfplay", "-v", "english", "--games", "1", "--out", out]);
        assert!(!o.status.success(), "{out}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains("not a regular file"), "{out}: {stderr}");
    }
    let f = TempFile::new("long-line");
    std::fs::write(&f.0, vec![b'#'; 1 << 20]).unwrap();
    let path = f.path();
    let o = tempo(&["selfplay", "-v", "english", "--games", "1", "--out", &path]);
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("longer than"), "{stderr}");
}

/// Varied moves (`--vary-rate`): the same seed gives the same games, whatever the threads; the
/// header records the setting (a run without it keeps its old header, so old files resume); the
/// varied games differ from the plain ones and stay legal data.
#[test]
fn varied_moves_are_reproducible_and_recorded() {
    let plain = ["-v", "english", "--games", "4", "--depth", "3", "--seed", "11"];
    let varied = [&plain[..], &["--vary-rate", "0.5", "--vary-margin", "0.5"]].concat();
    let a = TempFile::new("vary-a");
    selfplay(&a, &[&varied[..], &["--threads", "1"]].concat());
    let b = TempFile::new("vary-b");
    selfplay(&b, &[&varied[..], &["--threads", "2"]].concat());
    assert_eq!(set(&a.read()), set(&b.read()), "the same seed varied other moves");
    let header = a.read().lines().next().unwrap().to_string();
    assert!(header.ends_with(" vary=0.5:4:50:400"), "{header}");
    check_format::<tempo::draughts::English>(&a.read());

    let p = TempFile::new("vary-plain");
    selfplay(&p, &plain);
    let plain_header = p.read().lines().next().unwrap().to_string();
    assert!(!plain_header.contains("vary"), "{plain_header}");
    assert_ne!(set(&a.read()), set(&p.read()), "varying changed no game");

    // Resuming with another margin is refused: it would mix two recipes in one file.
    let path = a.path();
    let o = tempo(
        &[
            &["selfplay", "--out", &path][..],
            &plain[..],
            &["--vary-rate", "0.5", "--vary-margin", "0.1"],
        ]
        .concat(),
    );
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("other settings"));
}

/// `--starts`: games start from the file's positions (cut by `--start-plies`), the header names
/// the file by checksum, and bad values are clear errors.
#[test]
fn games_start_from_a_file_of_positions() {
    let starts = TempFile::new("starts-in");
    // Two 8x8 positions a few moves into a game, and one move list from the initial position.
    std::fs::write(
        &starts.0,
        "# starts\nB:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15\n\
         W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13\n\
         11-15 23-19 8-11 22-17\n",
    )
    .unwrap();
    let sp = starts.path();
    let args = [
        "-v",
        "english",
        "--games",
        "6",
        "--depth",
        "2",
        "--random-plies",
        "0",
        "--starts",
        &sp,
    ];
    let f = TempFile::new("starts-out");
    selfplay(&f, &args);
    let text = f.read();
    let header = text.lines().next().unwrap();
    assert!(header.contains(" starts=") && header.ends_with("/3"), "{header}");
    check_format::<tempo::draughts::English>(&text);
    // Game 0 starts from the first line: its first recorded position is that FEN (Black to move
    // and quiet there).
    let first = blocks(&text).into_iter().find(|b| game_index(b) == 0).unwrap();
    let fen = first.lines().next().unwrap().split('\t').next().unwrap();
    let want = tempo::draughts::English::from_fen(
        "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
    )
    .unwrap();
    let got = tempo::draughts::English::from_fen(fen).unwrap();
    assert_eq!(
        got.to_fen(),
        want.to_fen(),
        "game 0 did not start from the file's first position"
    );

    // Cut after ply 1 to 2 of each entry (the FEN lines have none): the third entry (four moves)
    // then starts earlier.
    let cut = TempFile::new("starts-cut");
    selfplay(&cut, &[&args[..], &["--start-plies", "1-2"]].concat());
    assert!(cut.read().lines().next().unwrap().contains("start-plies=1-2"));
    assert_ne!(set(&cut.read()), set(&text));

    for (extra, needle) in [
        (vec!["--starts", "/nonexistent-dir/s.txt"], "--starts"),
        (vec!["--vary-rate", "1.5"], "--vary-rate"),
        (vec!["--vary-rate", "0.1", "--vary-margin=-1"], "--vary-margin"),
        (vec!["--start-plies", "5-2", "--starts", &sp], "after the last"),
        (vec!["--start-plies", "2"], "--starts"),
    ] {
        let o = tempo(
            &[
                &[
                    "selfplay",
                    "-v",
                    "english",
                    "--games",
                    "1",
                    "--out",
                    "/tmp/never-written.txt",
                ][..],
                &extra[..],
            ]
            .concat(),
        );
        assert!(!o.status.success(), "{extra:?} succeeded");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains(needle), "{extra:?}: {stderr}");
    }
}

/// The settings of the opponent tests: short English games at depth 2, one thread.
fn opponent_args<'a>(games: &'a str, opponent: &'a str) -> Vec<&'a str> {
    vec![
        "-v",
        "english",
        "--games",
        games,
        "--depth",
        "2",
        "--random-plies",
        "4",
        "--max-plies",
        "20",
        "--threads",
        "1",
        "--opponent",
        opponent,
    ]
}

/// With an opponent, game k's opponent plays Black when k is even and White when k is odd (the
/// closing line says which), and only the positions with Tempo to move are written.
fn check_opponent_sides(text: &str) {
    for block in blocks(text) {
        let k = game_index(&block);
        let (tempo_side, opponent) = if k % 2 == 0 {
            ("W:", "Black")
        } else {
            ("B:", "White")
        };
        let closing = block.lines().last().unwrap();
        assert!(
            closing.ends_with(&format!("[the opponent played {opponent}]")),
            "{closing}"
        );
        for line in block.lines().filter(|l| !l.starts_with('#')) {
            assert!(
                line.starts_with(tempo_side),
                "game {k}: the opponent's position {line}"
            );
        }
    }
}

/// `--opponent eval:EVAL`: Tempo with another evaluation. The same seed gives the same games
/// whatever the threads, a run resumes, and another opponent does not resume the file.
#[test]
fn an_evaluation_opponent_is_reproducible_and_resumes() {
    let whole = TempFile::new("opp-eval-whole");
    let mut args = opponent_args("4", "eval:<hand>");
    selfplay(&whole, &args);
    let text = whole.read();
    let header = text.lines().next().unwrap();
    assert!(header.ends_with(" opponent=eval:<hand>"), "{header}");
    assert_eq!(blocks(&text).len(), 4);
    assert!(check_format::<tempo::draughts::English>(&text) > 10);
    check_opponent_sides(&text);

    // Two games on two threads, then resumed to four: the same games.
    let parts = TempFile::new("opp-eval-parts");
    let mut two = opponent_args("2", "eval:<hand>");
    two[11] = "2";
    selfplay(&parts, &two);
    assert_eq!(blocks(&parts.read()).len(), 2);
    selfplay(&parts, &args);
    assert_eq!(set(&parts.read()), set(&text));

    // The opponent is part of the recipe.
    args[13] = "eval:<default>";
    let path = parts.path();
    let o = tempo(&[&["selfplay", "--quiet", "--out", &path][..], &args[..]].concat());
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("other settings"));
    // Against its own default evaluation, the games differ from those against the hand one.
    let own = TempFile::new("opp-eval-own");
    selfplay(&own, &args);
    assert_ne!(set(&own.read()), set(&text));
}

/// `--opponent engine:ENGINE`: an external engine, here `tempo hub` at its own depth.
#[test]
fn an_external_opponent_plays_its_side() {
    let spec = format!(
        "engine:'{}' hub name=hub-opponent depth=1",
        env!("CARGO_BIN_EXE_tempo")
    );
    let f = TempFile::new("opp-engine");
    selfplay(&f, &opponent_args("3", &spec));
    let text = f.read();
    assert!(text.lines().next().unwrap().contains(" opponent=engine:"));
    assert_eq!(blocks(&text).len(), 3);
    assert!(check_format::<tempo::draughts::English>(&text) > 5);
    check_opponent_sides(&text);
}

/// An opponent that dies in the middle of a game (its output closes) or answers garbage stops the
/// run with an error naming it; every game finished before stays in the file, and a rerun resumes.
#[test]
fn a_failing_opponent_is_a_clear_error_and_loses_no_game() {
    // `tempo hub` for 12 moves, then gone: a game has at most 8 opponent moves here (16 plies
    // after the 4 random ones), so each run finishes one game at least and fails in a later one.
    let spec = format!(
        "engine:bash {}/tests/fake/hub_for.sh '{}' 12 name=flaky",
        env!("CARGO_MANIFEST_DIR"),
        env!("CARGO_BIN_EXE_tempo")
    );
    let f = TempFile::new("opp-crash");
    let path = f.path();
    let args = opponent_args("6", &spec);
    let mut failures = 0;
    let mut done = 0;
    for _ in 0..6 {
        let o = tempo(&[&["selfplay", "--quiet", "--out", &path][..], &args[..]].concat());
        let text = f.read();
        let now = blocks(&text).len();
        if o.status.success() {
            done = now;
            break;
        }
        failures += 1;
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains("opponent flaky failed"), "{stderr}");
        assert!(now > done, "a run finished no game: {stderr}");
        done = now;
    }
    assert!(failures >= 1, "the opponent never failed");
    assert_eq!(done, 6);
    let text = f.read();
    check_format::<tempo::draughts::English>(&text);
    check_opponent_sides(&text);

    // An engine that answers an illegal move: an error naming it, no game written.
    let spec = format!(
        "engine:bash {}/tests/fake/hub.sh illegal name=garbage",
        env!("CARGO_MANIFEST_DIR")
    );
    let g = TempFile::new("opp-garbage");
    let gp = g.path();
    let o = tempo(
        &[
            &["selfplay", "--quiet", "--out", &gp][..],
            &opponent_args("2", &spec)[..],
        ]
        .concat(),
    );
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("opponent garbage played an illegal move"),
        "{stderr}"
    );
    assert!(blocks(&g.read()).is_empty());

    for (spec, needle) in [
        ("tempo", "expected eval:EVAL or engine:ENGINE"),
        ("engine:x tc=10+0.1", "no clocks"),
        ("eval:/nonexistent-dir/w.bin", "--opponent"),
        ("engine:", "no command"),
    ] {
        let o = tempo(
            &[
                &["selfplay", "--out", "/tmp/never-written.txt"][..],
                &opponent_args("1", spec)[..],
            ]
            .concat(),
        );
        assert!(!o.status.success(), "{spec}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(stderr.contains(needle), "{spec}: {stderr}");
    }
}
