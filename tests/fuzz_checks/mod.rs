//! The checks behind the fuzz targets (`fuzz/fuzz_targets/*.rs`), shared with
//! `tests/fuzz_regressions.rs`, which replays every kept input through them in a plain `cargo test`.
//!
//! Each check takes the fuzzer's raw bytes. Where a game is needed, the first byte picks the
//! variant; the rest is the text (invalid UTF-8 replaced). A check panics when an invariant fails:
//! a text that reads must print back to a text that reads to the same position, every legal move
//! must print and read back to itself, and the protocol front-ends must only ever write
//! well-formed lines of their dialect.

#![allow(dead_code)]

use std::io::Cursor;
use tempo::game::{Game, MoveList, MoveStyle};
use tempo::protocol::hub::{Hub, parse_line};
use tempo::protocol::uci::Uci;
use tempo::protocol::{Face, Input, Out, read_line};
use tempo::variant::Variant;
use tempo::with_variant;

/// Most lines one protocol input is cut to (a longer input says nothing more).
const MAX_LINES: usize = 48;

/// A character a client may take for the end of a line (or that has no place in one).
fn breaks_line(c: char) -> bool {
    (c.is_control() && c != '\t') || c == '\u{2028}' || c == '\u{2029}'
}

fn variant_and_text(data: &[u8]) -> Option<(Variant, String)> {
    let (&first, rest) = data.split_first()?;
    let v = Variant::ALL[usize::from(first) % Variant::ALL.len()];
    Some((v, String::from_utf8_lossy(rest).into_owned()))
}

/// Every legal move of `pos` prints in both styles and reads back to itself; playing it keeps the
/// incremental key equal to the key computed from scratch.
pub fn moves_round_trip<G: Game>(pos: &G) {
    let mut list = MoveList::new();
    pos.generate(&mut list);
    for m in list.iter() {
        for style in [MoveStyle::Standard, MoveStyle::Hub] {
            let text = pos.format_move(m, style);
            match pos.parse_move(&text) {
                Ok(back) => assert_eq!(
                    back,
                    *m,
                    "{}: {text:?} reads as another move in {}",
                    G::NAME,
                    pos.to_fen()
                ),
                Err(e) => panic!("{}: {text:?} does not read in {}: {e}", G::NAME, pos.to_fen()),
            }
        }
        let next = pos.play(m);
        assert_eq!(
            next.key(),
            next.key_from_scratch(),
            "{}: {}",
            G::NAME,
            pos.to_fen()
        );
    }
}

/// A position that was read: its FEN and Hub string read back to the same text, and its moves
/// round-trip.
pub fn position_is_sound<G: Game>(p: &G, origin: &str) {
    let fen = p.to_fen();
    let q = G::from_fen(&fen).unwrap_or_else(|e| {
        panic!(
            "{}: {origin:?} gave FEN {fen:?}, which does not read: {e}",
            G::NAME
        )
    });
    assert_eq!(q.to_fen(), fen, "{}: {origin:?}", G::NAME);
    assert_eq!(
        q.key(),
        p.key(),
        "{}: {origin:?}: FEN round trip changes the key",
        G::NAME
    );
    assert_eq!(p.key(), p.key_from_scratch(), "{}: {origin:?}", G::NAME);
    let hub = p.to_hub();
    let h = G::from_hub(&hub).unwrap_or_else(|e| {
        panic!(
            "{}: {origin:?} gave Hub {hub:?}, which does not read: {e}",
            G::NAME
        )
    });
    assert_eq!(h.to_hub(), hub, "{}: {origin:?}", G::NAME);
    let _ = p.outcome();
    moves_round_trip(p);
}

fn fen_of<G: Game>(text: &str) {
    if let Ok(p) = G::from_fen(text) {
        position_is_sound(&p, text);
    }
}

fn hub_of<G: Game>(text: &str) {
    if let Ok(p) = G::from_hub(text) {
        position_is_sound(&p, text);
    }
}

/// Fuzz target `fen`: any text into the PDN FEN reader of the variant the first byte picks.
pub fn fen(data: &[u8]) {
    if let Some((v, text)) = variant_and_text(data) {
        with_variant!(v, G => fen_of::<G>(&text));
    }
}

/// Fuzz target `hub_position`: any text into the Hub position reader.
pub fn hub_position(data: &[u8]) {
    if let Some((v, text)) = variant_and_text(data) {
        with_variant!(v, G => hub_of::<G>(&text));
    }
}

fn notation_of<G: Game>(data: &[u8]) {
    // Bytes 1: plies to play from the start; then one byte per ply choosing the move; the rest is
    // the move text to read in the position reached.
    let plies = data.first().map_or(0, |b| usize::from(*b % 64));
    let mut rest = data.get(1..).unwrap_or_default();
    let mut pos = G::start();
    let mut list = MoveList::new();
    for _ in 0..plies {
        pos.generate(&mut list);
        let Some((&pick, tail)) = rest.split_first() else {
            break;
        };
        if list.is_empty() {
            break;
        }
        pos = pos.play(&list[usize::from(pick) % list.len()]);
        rest = tail;
    }
    let text = String::from_utf8_lossy(rest);
    pos.generate(&mut list);
    if let Ok(m) = pos.parse_move(&text) {
        assert!(
            list.contains(&m),
            "{}: {text:?} read as a move that is not legal",
            G::NAME
        );
        for style in [MoveStyle::Standard, MoveStyle::Hub] {
            let printed = pos.format_move(&m, style);
            assert_eq!(
                pos.parse_move(&printed),
                Ok(m),
                "{}: {text:?} -> {printed:?}",
                G::NAME
            );
        }
    }
    moves_round_trip(&pos);
}

/// Fuzz target `move_notation`: a position reached by moves the bytes choose, then any text into
/// its move reader.
pub fn move_notation(data: &[u8]) {
    if let Some((&first, rest)) = data.split_first() {
        let v = Variant::ALL[usize::from(first) % Variant::ALL.len()];
        with_variant!(v, G => notation_of::<G>(rest));
    }
}

/// The lines of a protocol input, as the engine's reader thread splits them; lines that would
/// resize the table are left out (a fuzzer must not allocate gigabytes; resizing is tested in
/// `tests/hostile.rs`).
fn lines(data: &[u8], skip: &str) -> Vec<String> {
    let mut cursor = Cursor::new(data);
    let mut out = Vec::new();
    while let Some(input) = read_line(&mut cursor) {
        if let Input::Line(l) = input
            && !l.to_ascii_lowercase().contains(skip)
        {
            out.push(l);
        }
        if out.len() == MAX_LINES {
            break;
        }
    }
    out
}

/// The first words of every line a Hub engine writes.
pub const HUB_WORDS: [&str; 8] = ["id", "param", "wait", "ready", "pong", "info", "done", "error"];

/// Every line is a Hub line an engine may write, on one line.
pub fn check_hub_output(input: &str, output: &[String]) {
    for l in output {
        let parsed = parse_line(l).unwrap_or_else(|e| panic!("{input:?}: wrote {l:?}, not a Hub line: {e}"));
        assert!(
            HUB_WORDS.contains(&parsed.command.as_str()),
            "{input:?}: wrote {l:?}"
        );
        assert!(!l.contains(breaks_line), "{input:?}: wrote {l:?}");
    }
}

/// Fuzz target `hub_line`: the Hub front-end fed any lines, with a 1 MiB table.
pub fn hub_lines(data: &[u8]) {
    let mut hub = Hub::with_tt_size(Out::buffer(), 16);
    for line in lines(data, "tt-size") {
        let go_on = hub.handle_line(&line);
        check_hub_output(&line, &hub.take_output());
        if !go_on {
            break;
        }
    }
    hub.finish();
    check_hub_output("(end)", &hub.take_output());
}

/// The first words of every line a UCI-style engine writes.
pub const UCI_WORDS: [&str; 6] = ["id", "option", "uciok", "readyok", "info", "bestmove"];

/// Every line is a UCI-style line an engine may write, on one line.
pub fn check_uci_output(input: &str, output: &[String]) {
    for l in output {
        let first = l.split_whitespace().next().unwrap_or("");
        assert!(UCI_WORDS.contains(&first), "{input:?}: wrote {l:?}");
        assert!(!l.contains(breaks_line), "{input:?}: wrote {l:?}");
        if first == "bestmove" {
            assert!(
                l.split_whitespace().count() == 2 || l.split_whitespace().count() == 4,
                "{l:?}"
            );
        }
    }
}

/// Fuzz target `uci_line`: the UCI-style front-end fed any lines, with a 1 MiB table.
pub fn uci_lines(data: &[u8]) {
    let mut uci = Uci::with_hash(Out::buffer(), 1);
    for line in lines(data, "hash") {
        let go_on = uci.handle_line(&line);
        check_uci_output(&line, &uci.take_output());
        if !go_on {
            break;
        }
    }
    uci.finish();
    check_uci_output("(end)", &uci.take_output());
}
