//! DXP (`tempo dxp`, `src/protocol/dxp.rs`): complete games between two Tempo processes over
//! loopback, and the faults a network peer can commit: killed mid-game, 10,000 random messages,
//! one byte a second. After each fault the follower logs it and plays the next game.

use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};
use tempo::draughts::International;
use tempo::game::Game;
use tempo::protocol::dxp::Message;

/// A `tempo dxp` process with its standard output read line by line.
struct Dxp {
    child: Child,
    lines: Receiver<String>,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl Dxp {
    fn start(args: &[&str]) -> Dxp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
            .arg("dxp")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tempo starts");
        let out = child.stdout.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        });
        Dxp {
            child,
            lines,
            stderr: Some(stderr),
        }
    }

    /// A follower on a free port, and its address.
    fn listen(extra: &[&str]) -> (Dxp, String) {
        let mut args = vec!["--listen", "127.0.0.1:0", "--tt", "4"];
        args.extend_from_slice(extra);
        let d = Dxp::start(&args);
        let first = d.line(Duration::from_secs(60));
        let addr = first
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("first line {first:?}"))
            .to_string();
        (d, addr)
    }

    fn line(&self, wait: Duration) -> String {
        self.lines
            .recv_timeout(wait)
            .unwrap_or_else(|e| panic!("no line in {wait:?}: {e}"))
    }

    /// Waits for the process to end and returns its standard error.
    fn finish(mut self, wait: Duration) -> String {
        let until = Instant::now() + wait;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "tempo dxp exited with {status}");
                break;
            }
            if Instant::now() > until {
                let _ = self.child.kill();
                panic!("tempo dxp still running after {wait:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.stderr.take().unwrap().join().unwrap()
    }
}

impl Drop for Dxp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `game N WHITE - BLACK RESULT {reason} plies P time T` line: (result, reason, plies).
fn game_line(line: &str) -> (String, String, usize) {
    assert!(line.starts_with("game "), "{line}");
    let open = line.find('{').expect("{");
    let close = line.rfind('}').expect("}");
    let result = line[..open].split_whitespace().last().unwrap().to_string();
    let reason = line[open + 1..close].to_string();
    let plies = line[close + 1..]
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    (result, reason, plies)
}

fn temp(name: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("tempo-dxp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Every game of a PDN file replays legally in Tempo's International rules.
fn check_pdn(path: &std::path::Path, games: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let parsed = tempo::pdn::parse_games(&text).unwrap();
    assert_eq!(parsed.len(), games, "{text}");
    for g in parsed {
        let mut pos = International::start();
        for m in &g.moves {
            let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}\n{text}"));
            pos = pos.play(&mv);
        }
    }
}

#[test]
fn two_tempo_processes_play_complete_games_over_loopback() {
    let pdn_l = temp("listen.pdn");
    let pdn_c = temp("connect.pdn");
    let began = Instant::now();
    let (follower, addr) = Dxp::listen(&[
        "--games",
        "2",
        "--movetime",
        "0.02",
        "--pdn",
        pdn_l.to_str().unwrap(),
    ]);
    let initiator = Dxp::start(&[
        "--connect",
        &addr,
        "--games",
        "2",
        "--movetime",
        "0.02",
        "--tt",
        "4",
        "--minutes",
        "1",
        "--pdn",
        pdn_c.to_str().unwrap(),
    ]);
    let mut seen = Vec::new();
    for _ in 0..2 {
        let f = game_line(&follower.line(Duration::from_secs(120)));
        let i = game_line(&initiator.line(Duration::from_secs(120)));
        assert_eq!(f.0, i.0, "both sides record the same result");
        assert_eq!(f.2, i.2, "and the same number of plies");
        assert_ne!(f.0, "*", "a complete game: {f:?}");
        assert!(f.2 >= 20, "{f:?}");
        seen.push(f);
    }
    let fe = follower.finish(Duration::from_secs(30));
    let ie = initiator.finish(Duration::from_secs(30));
    eprintln!("{seen:?} in {:.1} s\n{fe}\n{ie}", began.elapsed().as_secs_f64());
    check_pdn(&pdn_l, 2);
    check_pdn(&pdn_c, 2);
    let a = std::fs::read_to_string(&pdn_l).unwrap();
    let b = std::fs::read_to_string(&pdn_c).unwrap();
    let moves = |t: &str| -> Vec<Vec<String>> {
        tempo::pdn::parse_games(t)
            .unwrap()
            .into_iter()
            .map(|g| g.moves)
            .collect()
    };
    assert_eq!(moves(&a), moves(&b), "both records hold the same moves");
    // The initiator played White in game 1 and Black in game 2.
    let games = tempo::pdn::parse_games(&b).unwrap();
    assert!(games[0].tag("White").unwrap().starts_with("Tempo"));
    let _ = std::fs::remove_file(pdn_l);
    let _ = std::fs::remove_file(pdn_c);
}

/// Plays one full game against the follower with a Tempo initiator; returns the result line.
fn next_game_is_played(follower: &Dxp, addr: &str) -> (String, String, usize) {
    let initiator = Dxp::start(&[
        "--connect",
        addr,
        "--movetime",
        "0.01",
        "--tt",
        "4",
        "--minutes",
        "1",
    ]);
    let line = follower.line(Duration::from_secs(120));
    let g = game_line(&line);
    assert_ne!(g.0, "*", "{line}");
    initiator.finish(Duration::from_secs(30));
    g
}

fn request() -> Vec<u8> {
    let mut r = Message::GameRequest {
        version: 1,
        name: "fault".into(),
        follower: tempo::game::Side::White,
        minutes: 1,
        moves: 50,
        position: None,
    }
    .format()
    .unwrap()
    .into_bytes();
    r.push(0);
    r
}

#[test]
fn a_peer_killed_mid_game_leaves_the_game_unfinished_and_the_follower_listening() {
    let pdn = temp("killed.pdn");
    let (follower, addr) = Dxp::listen(&[
        "--games",
        "2",
        "--movetime",
        "0.05",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let mut victim = Dxp::start(&[
        "--connect",
        &addr,
        "--movetime",
        "0.05",
        "--tt",
        "4",
        "--minutes",
        "1",
    ]);
    std::thread::sleep(Duration::from_millis(1500));
    victim.child.kill().unwrap();
    let (result, reason, plies) = game_line(&follower.line(Duration::from_secs(30)));
    assert_eq!(result, "*");
    assert!(reason.starts_with("Unfinished"), "{reason}");
    assert!(plies > 0, "the game had begun");
    next_game_is_played(&follower, &addr);
    let err = follower.finish(Duration::from_secs(30));
    assert!(err.contains("closed"), "{err}");
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.contains("Unfinished"), "{text}");
    check_pdn(&pdn, 2);
    let _ = std::fs::remove_file(pdn);
}

/// A random message: a DXP header (or another byte) and up to 150 random bytes, some of them
/// well-formed moves and requests.
fn random_message(rng: &mut impl Rng) -> Vec<u8> {
    let headers = b"RAMECBKX\x00 ";
    let mut m = vec![headers[rng.random_range(0..headers.len())]];
    match rng.random_range(0..3) {
        0 => {
            let n = rng.random_range(0..150);
            m.extend((0..n).map(|_| rng.random_range(1..=255u8)));
        }
        1 => {
            let n = rng.random_range(0..12);
            m.extend((0..n).map(|_| b'0' + rng.random_range(0..10u8)));
        }
        _ => {
            m = format!(
                "M0001{:02}{:02}00",
                rng.random_range(1..=50),
                rng.random_range(1..=50)
            )
            .into_bytes()
        }
    }
    m.push(0);
    m
}

#[test]
fn ten_thousand_random_messages_are_refused_and_the_next_game_is_played() {
    // The codec alone: no random message panics it, and whatever parses formats back the same.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(22);
    for _ in 0..10_000 {
        let m = random_message(&mut rng);
        if let Ok(msg) = Message::parse(&m[..m.len() - 1]) {
            let again = Message::parse(msg.format().unwrap().as_bytes()).unwrap();
            assert_eq!(again, msg);
        }
    }
    let (follower, addr) = Dxp::listen(&["--games", "2", "--movetime", "0.01"]);
    // In a game (a request first), then the flood; the follower closes at the first bad one.
    let mut s = TcpStream::connect(&addr).unwrap();
    let mut all = request();
    for _ in 0..10_000 {
        all.extend(random_message(&mut rng));
    }
    let _ = s.write_all(&all);
    let (result, reason, _) = game_line(&follower.line(Duration::from_secs(30)));
    assert_eq!(result, "*");
    assert!(reason.starts_with("Unfinished"), "{reason}");
    drop(s);
    next_game_is_played(&follower, &addr);
    let err = follower.finish(Duration::from_secs(30));
    assert!(
        err.contains("malformed message") || err.contains("illegal move") || err.contains("a move outside"),
        "{err}"
    );
}

#[test]
fn one_byte_a_second_times_out_and_the_next_game_is_played() {
    let (follower, addr) = Dxp::listen(&["--games", "1", "--movetime", "0.01", "--message-timeout", "2"]);
    let mut s = TcpStream::connect(&addr).unwrap();
    let began = Instant::now();
    let req = request();
    let mut closed = None;
    for b in &req[..10] {
        if s.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_secs(1));
        let mut probe = [0u8; 1];
        s.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
        if let Ok(0) = s.read(&mut probe) {
            closed = Some(began.elapsed());
            break;
        }
    }
    let closed = closed.expect("the follower closes the connection");
    assert!(closed < Duration::from_secs(5), "{closed:?}");
    next_game_is_played(&follower, &addr);
    let err = follower.finish(Duration::from_secs(30));
    assert!(err.contains("no complete message in time"), "{err}");
}

/// pydraughts' `DXPEngine` (the DXP client of pydraughts 0.6.7) plays a complete game against
/// `tempo dxp --listen`, pydraughts refereeing every move (`tests/compat/dxp_game.py`). Needs
/// `TEMPO_PYDRAUGHTS_PYTHON` as `tests/pydraughts.rs` does; mandatory with
/// `TEMPO_REQUIRE_PYDRAUGHTS=1` (`.ci/run`).
#[test]
#[cfg_attr(
    not(pydraughts),
    ignore = "needs pydraughts: set TEMPO_PYDRAUGHTS_PYTHON to a Python with pydraughts 0.6.7"
)]
fn pydraughts_dxp_engine_plays_a_complete_game_against_the_follower() {
    let python = crate::common::pydraughts_python();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/compat/dxp_game.py");
    let mut child = Command::new(&python)
        .args([script, env!("CARGO_BIN_EXE_tempo")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let until = Instant::now() + Duration::from_secs(240);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            panic!("the pydraughts DXP game took more than 240 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    eprintln!("{stdout}");
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.lines().any(|l| l == "ok"), "{stdout}\n{stderr}");
    let tempo_line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("TEMPO "))
        .expect("Tempo's game line");
    let (result, _, plies) = game_line(tempo_line);
    assert_ne!(result, "*", "{tempo_line}");
    assert!(plies > 0);
}

/// `tempo match` starts a DXP engine (`cmd=`: here `tempo dxp --listen`), connects to it and
/// plays it against Tempo's Hub engine, both colours, after a random opening (sent to the DXP
/// engine as the request's start position); the PDN replays in Tempo's rules.
#[test]
fn the_match_manager_plays_a_dxp_engine_it_starts() {
    let tempo = env!("CARGO_BIN_EXE_tempo");
    let port = 20_000 + std::process::id() % 20_000;
    let pdn = temp("match.pdn");
    let dxp = format!(
        "dxp://127.0.0.1:{port} cmd={tempo} dxp --listen 127.0.0.1:{port} --movetime 0.02 --tt 4 name=DXP"
    );
    let hub = format!("{tempo} hub name=Hub");
    let out = Command::new(tempo)
        .args([
            "match",
            "--engine",
            &dxp,
            "--engine",
            &hub,
            "--games",
            "2",
            "--movetime",
            "0.02",
            "--random-plies",
            "4",
            "--pdn",
            pdn.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Finished match"), "{stdout}");
    assert_eq!(stdout.matches("Finished game").count(), 2, "{stdout}");
    for l in stdout.lines().filter(|l| l.starts_with("Finished game")) {
        assert!(!l.contains("disconnects") && !l.contains("loses:"), "{l}");
    }
    let text = std::fs::read_to_string(&pdn).unwrap();
    let games = tempo::pdn::parse_games(&text).unwrap();
    assert_eq!(games.len(), 2);
    for g in games {
        let mut pos = g
            .tag("FEN")
            .map_or_else(International::start, |f| International::from_fen(f).unwrap());
        for m in &g.moves {
            let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}\n{text}"));
            pos = pos.play(&mv);
        }
    }
    let _ = std::fs::remove_file(pdn);
}

/// A back request is answered from Tempo's game record: `B001W` goes back to the start, `K0`,
/// and Tempo (White) moves again; the peer's `E` with an unknown reason leaves the game `*`.
#[test]
fn a_back_request_takes_the_game_back_and_tempo_moves_again() {
    use tempo::protocol::dxp::{MessageReader, move_from_hub, move_to_hub, send};
    let (follower, addr) = Dxp::listen(&["--games", "1", "--movetime", "0.01"]);
    let mut s = TcpStream::connect(&addr).unwrap();
    let mut r = MessageReader::new();
    let mut get = |s: &mut TcpStream| {
        let bytes = r
            .next(
                s,
                Instant::now() + Duration::from_secs(30),
                Duration::from_secs(5),
            )
            .unwrap();
        Message::parse(&bytes).unwrap()
    };
    s.write_all(&request()).unwrap();
    assert!(matches!(get(&mut s), Message::GameAccept { code: '0', .. }));
    let Message::Move {
        from, to, captured, ..
    } = get(&mut s)
    else {
        panic!("a move")
    };
    let start = International::start();
    let first = start.parse_move(&move_to_hub(from, to, &captured)).unwrap();
    let pos = start.play(&first);
    let mut list = tempo::game::MoveList::new();
    pos.generate(&mut list);
    let (from, to, captured) =
        move_from_hub(&pos.format_move(&list[0], tempo::game::MoveStyle::Hub)).unwrap();
    send(
        &mut s,
        &Message::Move {
            seconds: 0,
            from,
            to,
            captured,
        },
    )
    .unwrap();
    assert!(matches!(get(&mut s), Message::Move { .. }), "Tempo's second move");
    send(
        &mut s,
        &Message::BackRequest {
            move_number: 1,
            side: tempo::game::Side::White,
        },
    )
    .unwrap();
    assert_eq!(get(&mut s), Message::BackAccept { code: '0' });
    let Message::Move {
        from, to, captured, ..
    } = get(&mut s)
    else {
        panic!("a move again")
    };
    assert!(
        start.parse_move(&move_to_hub(from, to, &captured)).is_ok(),
        "a first move again"
    );
    send(
        &mut s,
        &Message::GameEnd {
            reason: '0',
            stop: '1',
        },
    )
    .unwrap();
    assert!(
        matches!(get(&mut s), Message::GameEnd { .. }),
        "the end is confirmed"
    );
    let (result, reason, plies) = game_line(&follower.line(Duration::from_secs(30)));
    assert_eq!((result.as_str(), plies), ("*", 1), "{reason}");
    follower.finish(Duration::from_secs(30));
}

/// A follower whose standard output nobody reads any more (its reader gone, as with `| head`)
/// still plays its game to the end, records it, and exits cleanly: the result line it can no
/// longer print is dropped, not a panic.
#[test]
fn a_follower_plays_on_when_its_standard_output_is_closed() {
    let pdn = temp("closed.pdn");
    let mut follower = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(["dxp", "--listen", "127.0.0.1:0", "--tt", "4", "--games", "1"])
        .args(["--movetime", "0.01", "--pdn", pdn.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tempo starts");
    let mut first = String::new();
    BufReader::new(follower.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: the follower's standard output is now a closed pipe.
    let addr = first
        .trim()
        .strip_prefix("listening ")
        .expect("listening")
        .to_string();
    let initiator = Dxp::start(&[
        "--connect",
        &addr,
        "--games",
        "1",
        "--movetime",
        "0.01",
        "--tt",
        "4",
    ]);
    let (result, _, _) = game_line(&initiator.line(Duration::from_secs(120)));
    assert_ne!(result, "*", "a complete game");
    initiator.finish(Duration::from_secs(30));
    let until = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = follower.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < until, "the follower is still running");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    follower.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(status.success(), "{status}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    check_pdn(&pdn, 1);
    let _ = std::fs::remove_file(pdn);
}

/// `tempo dxp` with these arguments, run to its end (it must end within `limit`): status, stderr.
fn dxp_exits(args: &[&str], limit: Duration) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .arg("dxp")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tempo starts");
    let began = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            return (status.success(), err);
        }
        if began.elapsed() > limit {
            let _ = child.kill();
            panic!("tempo dxp {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Issue 53 items 9 and 10, issue 54: outputs that cannot be written and meaningless settings are
/// refused before any game; a connection that cannot be made says why, and says first what it
/// waits for.
#[test]
fn bad_settings_and_unwritable_records_are_refused_before_play() {
    let quick = Duration::from_secs(20);
    for (args, needle) in [
        (
            &["--listen", "127.0.0.1:0", "--pdn", "/nonexistent/x.pdn"][..],
            "--pdn /nonexistent/x.pdn",
        ),
        (
            &["--listen", "127.0.0.1:0", "--pdn", "/dev/full"][..],
            "not a regular file",
        ),
        (
            &["--listen", "127.0.0.1:0", "--log", "/dev/full"][..],
            "--log /dev/full",
        ),
        (&["--listen", "127.0.0.1:0", "--tt", "0"][..], "--tt"),
        (
            &["--listen", "127.0.0.1:0", "--message-timeout", "0"][..],
            "--message-timeout must be",
        ),
    ] {
        let (ok, err) = dxp_exits(args, quick);
        assert!(!ok, "{args:?} must fail: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // Port 1 on loopback: nothing listens there, and the refusal is named.
    let (ok, err) = dxp_exits(&["--connect", "127.0.0.1:1", "--idle-timeout", "1"], quick);
    assert!(!ok, "{err}");
    assert!(err.contains("connecting to 127.0.0.1:1"), "{err}");
    assert!(
        err.contains("cannot connect to 127.0.0.1:1: ") && err.to_lowercase().contains("refused"),
        "{err}"
    );
}
