//! DXP, the DamExchange Protocol: the messages that 10x10 tournament engines (Scan, Kingsrow,
//! Moby Dam, GWDGUI, pydraughts' `DXPEngine`) exchange over TCP. `protocol.md` §6 lists the
//! layouts; this module reads and writes them and splits a byte stream into messages.
//!
//! Every message is a header letter, fixed-width fields (numbers right-aligned with leading `0`,
//! names left-aligned with trailing spaces) and a terminating NUL byte:
//!
//! | header | message | fields after the header |
//! |---|---|---|
//! | `R` | game request | version (2), initiator name (32), follower colour `W`/`Z` (1), minutes (3), moves (3), start `A` or `B` + side to move (1) + 50 squares `e w z W Z` |
//! | `A` | game accept | follower name (32), acceptance code (1): `0` yes, `1` no (version), `2` no (this initiator), `3` no (no more games) |
//! | `M` | move | seconds used (4), from (2), to (2), captured count (2), each captured square (2) |
//! | `E` | game end | reason (1): `0` unknown, `1` I lose, `2` draw, `3` I win; stop code (1): `0` another game may follow, `1` none |
//! | `C` | chat | free text |
//! | `B` | back request | move number (3), side to move (1) |
//! | `K` | back accept | code (1): `0` yes, `1` no, `2` continue |

use crate::game::Side;
use std::io::Read;
use std::time::{Duration, Instant};

/// The longest message Tempo reads (NUL excluded). The longest fixed message is a game request
/// with a position (95 bytes) or a move capturing 20 pieces (51); chat is the only free field,
/// and DXP clients cut messages at 127 bytes. A longer message is refused.
pub const MAX_MESSAGE: usize = 512;

/// The longest name field.
pub const NAME_WIDTH: usize = 32;

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: the initiator asks for a game.
    GameRequest {
        /// Protocol version (1).
        version: u32,
        /// The initiator's name (at most 32 characters).
        name: String,
        /// The colour the follower (the receiver) plays.
        follower: Side,
        /// Thinking time in minutes for `moves` moves.
        minutes: u32,
        /// Moves in the time control (0: the whole game).
        moves: u32,
        /// A start position other than the initial one: the side to move and 50 squares, one
        /// character each (`e` empty, `w`/`z` white/black man, `W`/`Z` kings), square 1 first.
        position: Option<(Side, String)>,
    },
    /// `A`: the follower's answer to a game request.
    GameAccept {
        /// The follower's name.
        name: String,
        /// `'0'`: accepted; `'1'`..`'3'`: refused.
        code: char,
    },
    /// `M`: a move.
    Move {
        /// Seconds spent on the move.
        seconds: u32,
        /// The square the piece leaves (1-50).
        from: u8,
        /// The square it ends on.
        to: u8,
        /// The captured squares (any order).
        captured: Vec<u8>,
    },
    /// `E`: the game ends.
    GameEnd {
        /// `'0'` unknown, `'1'` the sender loses, `'2'` draw, `'3'` the sender wins.
        reason: char,
        /// `'0'`: another game may follow; `'1'`: no more games.
        stop: char,
    },
    /// `C`: chat text.
    Chat(String),
    /// `B`: take back to a move.
    BackRequest {
        /// The move number to go back to.
        move_number: u32,
        /// The side to move there.
        side: Side,
    },
    /// `K`: the answer to a back request.
    BackAccept {
        /// `'0'` yes, `'1'` no, `'2'` continue the game instead.
        code: char,
    },
}

fn colour_char(s: Side) -> char {
    match s {
        Side::White => 'W',
        Side::Black => 'Z',
    }
}

fn colour(c: u8) -> Result<Side, String> {
    match c {
        b'W' | b'w' => Ok(Side::White),
        b'Z' | b'z' | b'B' | b'b' => Ok(Side::Black),
        _ => Err(format!("bad colour {:?}", char::from(c))),
    }
}

/// A number in exactly `width` digits.
fn number(n: u32, width: usize) -> Result<String, String> {
    let s = format!("{n:0width$}");
    if s.len() > width {
        return Err(format!("{n} does not fit in {width} digits"));
    }
    Ok(s)
}

/// Reads the fields of one message left to right.
struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Fields<'a> {
    fn take(&mut self, width: usize, what: &str) -> Result<&'a [u8], String> {
        if self.bytes.len() - self.at < width {
            return Err(format!(
                "message too short: {what} needs {width} bytes at offset {}",
                self.at
            ));
        }
        let s = &self.bytes[self.at..self.at + width];
        self.at += width;
        Ok(s)
    }

    fn byte(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }

    fn number(&mut self, width: usize, what: &str) -> Result<u32, String> {
        let s = self.take(width, what)?;
        // Leading spaces are tolerated (some clients pad numbers with blanks).
        let t = std::str::from_utf8(s)
            .map_err(|_| format!("{what}: not a number"))?
            .trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{what}: not a number: {:?}", String::from_utf8_lossy(s)));
        }
        t.parse().map_err(|_| format!("{what}: not a number: {t:?}"))
    }

    fn text(&mut self, width: usize, what: &str) -> Result<String, String> {
        let s = self.take(width, what)?;
        Ok(String::from_utf8_lossy(s).trim().to_string())
    }

    fn end(&self) -> Result<(), String> {
        if self.at != self.bytes.len() {
            return Err(format!(
                "{} unexpected bytes at the end of the message",
                self.bytes.len() - self.at
            ));
        }
        Ok(())
    }
}

/// Whether `c` is a square character of a DXP position.
fn is_square_char(c: u8) -> bool {
    matches!(c, b'e' | b'w' | b'z' | b'W' | b'Z')
}

/// A name cut to [`NAME_WIDTH`] characters of printable ASCII, padded with spaces.
fn name_field(name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| if c.is_ascii_graphic() || c == ' ' { c } else { '?' })
        .take(NAME_WIDTH)
        .collect();
    format!("{clean:<NAME_WIDTH$}")
}

impl Message {
    /// Reads one message (without its NUL).
    ///
    /// # Errors
    /// An unknown header, a field that is missing, not a number or out of range, or extra bytes.
    pub fn parse(bytes: &[u8]) -> Result<Message, String> {
        let Some((&header, rest)) = bytes.split_first() else {
            return Err("empty message".into());
        };
        let mut f = Fields { bytes: rest, at: 0 };
        let msg = match header {
            b'R' => {
                let version = f.number(2, "version")?;
                let name = f.text(NAME_WIDTH, "initiator name")?;
                let follower = colour(f.byte("follower colour")?)?;
                let minutes = f.number(3, "minutes")?;
                let moves = f.number(3, "moves")?;
                let position = match f.byte("start position")? {
                    b'A' => None,
                    b'B' => {
                        let side = colour(f.byte("colour to move")?)?;
                        let squares = f.take(50, "position")?;
                        if let Some(&c) = squares.iter().find(|&&c| !is_square_char(c)) {
                            return Err(format!("bad square {:?} in the position", char::from(c)));
                        }
                        Some((side, String::from_utf8_lossy(squares).into_owned()))
                    }
                    c => return Err(format!("bad start position code {:?}", char::from(c))),
                };
                Message::GameRequest {
                    version,
                    name,
                    follower,
                    minutes,
                    moves,
                    position,
                }
            }
            b'A' => {
                let name = f.text(NAME_WIDTH, "follower name")?;
                let code = f.byte("acceptance code")?;
                if !code.is_ascii_digit() {
                    return Err(format!("bad acceptance code {:?}", char::from(code)));
                }
                Message::GameAccept {
                    name,
                    code: char::from(code),
                }
            }
            b'M' => {
                let seconds = f.number(4, "time")?;
                let mut square = |what: &str| -> Result<u8, String> {
                    let n = f.number(2, what)?;
                    if !(1..=50).contains(&n) {
                        return Err(format!("{what}: square {n} is not 1-50"));
                    }
                    Ok(n as u8)
                };
                let from = square("from")?;
                let to = square("to")?;
                let count = f.number(2, "captured count")?;
                if count > 20 {
                    return Err(format!("{count} captured pieces (at most 20)"));
                }
                let mut captured = Vec::with_capacity(count as usize);
                for _ in 0..count {
                    let n = f.number(2, "captured square")?;
                    if !(1..=50).contains(&n) {
                        return Err(format!("captured square {n} is not 1-50"));
                    }
                    captured.push(n as u8);
                }
                Message::Move {
                    seconds,
                    from,
                    to,
                    captured,
                }
            }
            b'E' => {
                let reason = f.byte("reason")?;
                let stop = f.byte("stop code")?;
                if !(b'0'..=b'3').contains(&reason) || !(b'0'..=b'1').contains(&stop) {
                    return Err(format!(
                        "bad game end {:?}{:?}",
                        char::from(reason),
                        char::from(stop)
                    ));
                }
                Message::GameEnd {
                    reason: char::from(reason),
                    stop: char::from(stop),
                }
            }
            b'C' => {
                f.at = rest.len();
                Message::Chat(String::from_utf8_lossy(rest).into_owned())
            }
            b'B' => {
                let move_number = f.number(3, "move number")?;
                let side = colour(f.byte("colour to move")?)?;
                Message::BackRequest { move_number, side }
            }
            b'K' => {
                let code = f.byte("acceptance code")?;
                if !(b'0'..=b'2').contains(&code) {
                    return Err(format!("bad back acceptance code {:?}", char::from(code)));
                }
                Message::BackAccept {
                    code: char::from(code),
                }
            }
            h => {
                return Err(format!(
                    "unknown message type {:?}",
                    char::from(h).escape_default().to_string()
                ));
            }
        };
        f.end()?;
        Ok(msg)
    }

    /// Writes the message (without its NUL).
    ///
    /// # Errors
    /// A number too wide for its field, a square out of 1-50, a bad position.
    pub fn format(&self) -> Result<String, String> {
        Ok(match self {
            Message::GameRequest {
                version,
                name,
                follower,
                minutes,
                moves,
                position,
            } => {
                let mut s = format!(
                    "R{}{}{}{}{}",
                    number(*version, 2)?,
                    name_field(name),
                    colour_char(*follower),
                    number(*minutes, 3)?,
                    number(*moves, 3)?
                );
                match position {
                    None => s.push('A'),
                    Some((side, squares)) => {
                        if squares.len() != 50 || !squares.bytes().all(is_square_char) {
                            return Err(format!("bad DXP position {squares:?}"));
                        }
                        s.push('B');
                        s.push(colour_char(*side));
                        s.push_str(squares);
                    }
                }
                s
            }
            Message::GameAccept { name, code } => format!("A{}{code}", name_field(name)),
            Message::Move {
                seconds,
                from,
                to,
                captured,
            } => {
                let mut s = format!(
                    "M{}{}{}{}",
                    number((*seconds).min(9999), 4)?,
                    number(u32::from(*from), 2)?,
                    number(u32::from(*to), 2)?,
                    number(captured.len() as u32, 2)?
                );
                for &c in captured {
                    s.push_str(&number(u32::from(c), 2)?);
                }
                s
            }
            Message::GameEnd { reason, stop } => format!("E{reason}{stop}"),
            Message::Chat(text) => {
                let clean: String = text
                    .chars()
                    .filter(|&c| c != '\0')
                    .take(MAX_MESSAGE - 1)
                    .collect();
                format!("C{clean}")
            }
            Message::BackRequest { move_number, side } => {
                format!("B{}{}", number(*move_number, 3)?, colour_char(*side))
            }
            Message::BackAccept { code } => format!("K{code}"),
        })
    }
}

/// A DXP position (50 squares) from a Hub position string of the 10x10 board (`W` or `B`, then
/// 50 squares `e w b W B`).
///
/// # Errors
/// Not a 51-character Hub string.
pub fn position_from_hub(hub: &str) -> Result<(Side, String), String> {
    let b = hub.as_bytes();
    if b.len() != 51 {
        return Err(format!("not a 10x10 Hub position: {hub:?}"));
    }
    let side = colour(b[0])?;
    let squares = b[1..]
        .iter()
        .map(|&c| match c {
            b'b' => Ok('z'),
            b'B' => Ok('Z'),
            b'w' | b'W' | b'e' => Ok(char::from(c)),
            _ => Err(format!("bad square {:?}", char::from(c))),
        })
        .collect::<Result<String, String>>()?;
    Ok((side, squares))
}

/// The Hub position string of a DXP position.
pub fn position_to_hub(side: Side, squares: &str) -> String {
    let mut s = String::with_capacity(51);
    s.push(if side == Side::White { 'W' } else { 'B' });
    for c in squares.chars() {
        s.push(match c {
            'z' => 'b',
            'Z' => 'B',
            c => c,
        });
    }
    s
}

/// The Hub notation of a DXP move (`from-to`, or `fromxto` and the captured squares in
/// ascending order), which Tempo's move parser matches against the legal moves.
pub fn move_to_hub(from: u8, to: u8, captured: &[u8]) -> String {
    if captured.is_empty() {
        return format!("{from}-{to}");
    }
    let mut caps = captured.to_vec();
    caps.sort_unstable();
    let mut s = format!("{from}x{to}");
    for c in caps {
        s.push_str(&format!("x{c}"));
    }
    s
}

/// The from, to and captured squares of a move written in Hub notation.
///
/// # Errors
/// Not Hub notation.
pub fn move_from_hub(hub: &str) -> Result<(u8, u8, Vec<u8>), String> {
    let bad = || format!("not a Hub move: {hub:?}");
    let parts: Vec<&str> = if hub.contains('x') {
        hub.split('x').collect()
    } else {
        hub.split('-').collect()
    };
    let nums = parts
        .iter()
        .map(|p| p.parse::<u8>().map_err(|_| bad()))
        .collect::<Result<Vec<u8>, String>>()?;
    if nums.len() < 2 || (!hub.contains('x') && nums.len() != 2) {
        return Err(bad());
    }
    Ok((nums[0], nums[1], nums[2..].to_vec()))
}

/// What [`MessageReader::next`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The peer closed the connection (or it broke: the text says how).
    Closed(String),
    /// Nothing (or no complete message) before the deadline.
    Timeout,
    /// A message longer than [`MAX_MESSAGE`] bytes; the connection cannot be trusted after it.
    TooLong,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Closed(s) => write!(f, "connection closed ({s})"),
            ReadError::Timeout => write!(f, "timeout"),
            ReadError::TooLong => write!(f, "message longer than {MAX_MESSAGE} bytes"),
        }
    }
}

/// A stream that can wait with a time limit (a TCP stream; memory in tests).
pub trait TimedRead: Read {
    /// Sets the longest one read waits (`None`: forever).
    fn set_wait(&mut self, wait: Option<Duration>) -> std::io::Result<()>;
}

impl TimedRead for std::net::TcpStream {
    fn set_wait(&mut self, wait: Option<Duration>) -> std::io::Result<()> {
        self.set_read_timeout(wait)
    }
}

impl TimedRead for &[u8] {
    fn set_wait(&mut self, _: Option<Duration>) -> std::io::Result<()> {
        Ok(())
    }
}

/// Splits a byte stream into NUL-terminated messages, whatever the pieces it arrives in.
#[derive(Debug, Default)]
pub struct MessageReader {
    buf: Vec<u8>,
    /// When the first byte of the message under way arrived.
    started: Option<Instant>,
}

impl MessageReader {
    /// A reader with nothing buffered.
    pub fn new() -> Self {
        Self::default()
    }

    /// The next message's bytes (without the NUL). Waits until `deadline` for it to begin; once a
    /// message has begun it must end within `message_time` of its first byte (a peer that sends
    /// one byte a second is cut off), and both limits apply.
    ///
    /// # Errors
    /// [`ReadError`].
    pub fn next(
        &mut self,
        stream: &mut impl TimedRead,
        deadline: Instant,
        message_time: Duration,
    ) -> Result<Vec<u8>, ReadError> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == 0) {
                let msg: Vec<u8> = self.buf.drain(..=i).take(i).collect();
                self.started = if self.buf.is_empty() {
                    None
                } else {
                    Some(Instant::now())
                };
                return Ok(msg);
            }
            if self.buf.len() > MAX_MESSAGE {
                return Err(ReadError::TooLong);
            }
            let now = Instant::now();
            let mut until = deadline;
            if let Some(t) = self.started {
                until = until.min(t + message_time);
            }
            if now >= until {
                return Err(ReadError::Timeout);
            }
            // Short waits, so that a deadline is kept however the peer trickles.
            let wait = (until - now).clamp(Duration::from_millis(1), Duration::from_millis(200));
            stream
                .set_wait(Some(wait))
                .map_err(|e| ReadError::Closed(e.to_string()))?;
            let mut chunk = [0u8; 1024];
            match stream.read(&mut chunk) {
                Ok(0) => {
                    return Err(ReadError::Closed(if self.buf.is_empty() {
                        "end of stream".into()
                    } else {
                        format!("end of stream inside a message of {} bytes", self.buf.len())
                    }));
                }
                Ok(n) => {
                    if self.started.is_none() {
                        self.started = Some(Instant::now());
                    }
                    self.buf.extend_from_slice(&chunk[..n]);
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock
                            | std::io::ErrorKind::TimedOut
                            | std::io::ErrorKind::Interrupted
                    ) => {}
                Err(e) => return Err(ReadError::Closed(e.to_string())),
            }
        }
    }
}

/// Writes a message and its NUL, whole (`write_all` goes on through partial writes).
///
/// # Errors
/// The message cannot be formatted, or the write fails.
pub fn send(stream: &mut impl std::io::Write, msg: &Message) -> Result<String, String> {
    let text = msg.format()?;
    let mut bytes = text.clone().into_bytes();
    bytes.push(0);
    stream
        .write_all(&bytes)
        .and_then(|()| stream.flush())
        .map_err(|e| format!("cannot send {text:?}: {e}"))?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(m: &Message) {
        let text = m.format().unwrap();
        assert_eq!(&Message::parse(text.as_bytes()).unwrap(), m, "{text}");
    }

    #[test]
    fn messages_have_their_fixed_widths() {
        let req = Message::GameRequest {
            version: 1,
            name: "Tempo".into(),
            follower: Side::Black,
            minutes: 5,
            moves: 75,
            position: None,
        };
        let text = req.format().unwrap();
        assert_eq!(text, format!("R01{:<32}Z005075A", "Tempo"));
        assert_eq!(text.len(), 1 + 2 + 32 + 1 + 3 + 3 + 1);
        round_trip(&req);
        let mv = Message::Move {
            seconds: 12,
            from: 32,
            to: 21,
            captured: vec![27, 17],
        };
        assert_eq!(mv.format().unwrap(), "M00123221022717");
        round_trip(&mv);
        let quiet = Message::Move {
            seconds: 0,
            from: 32,
            to: 28,
            captured: vec![],
        };
        assert_eq!(quiet.format().unwrap(), "M0000322800");
        assert_eq!(
            Message::GameAccept {
                name: "Scan 2.0".into(),
                code: '0'
            }
            .format()
            .unwrap(),
            format!("A{:<32}0", "Scan 2.0")
        );
        for m in [
            Message::GameEnd {
                reason: '3',
                stop: '0',
            },
            Message::Chat("good game".into()),
            Message::BackRequest {
                move_number: 12,
                side: Side::White,
            },
            Message::BackAccept { code: '1' },
        ] {
            round_trip(&m);
        }
        assert_eq!(
            Message::BackRequest {
                move_number: 5,
                side: Side::Black
            }
            .format()
            .unwrap(),
            "B005Z"
        );
    }

    #[test]
    fn the_messages_of_other_programs_parse() {
        // pydraughts' example request and Scan's accept.
        let r = Message::parse(b"R01Tornado voor Windows 4.0        W060065A").unwrap();
        assert_eq!(
            r,
            Message::GameRequest {
                version: 1,
                name: "Tornado voor Windows 4.0".into(),
                follower: Side::White,
                minutes: 60,
                moves: 65,
                position: None
            }
        );
        let m = Message::parse(b"M001205250422122320").unwrap();
        assert_eq!(
            m,
            Message::Move {
                seconds: 12,
                from: 5,
                to: 25,
                captured: vec![22, 12, 23, 20]
            }
        );
        let squares = "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
        let with_pos = format!("R01{:<32}W001000BW{squares}", "x");
        assert!(matches!(
            Message::parse(with_pos.as_bytes()),
            Ok(Message::GameRequest {
                position: Some((Side::White, _)),
                ..
            })
        ));
    }

    #[test]
    fn bad_messages_are_refused() {
        for bad in [
            &b""[..],
            b"X",
            b"M00",
            b"M0000322800x",
            b"M0000992800",
            b"M000032280199",
            b"E9",
            b"E40",
            b"R01short",
            b"K7",
            b"M00003228\xff\xff",
        ] {
            assert!(Message::parse(bad).is_err(), "{:?}", String::from_utf8_lossy(bad));
        }
        assert!(
            Message::Move {
                seconds: 0,
                from: 100,
                to: 1,
                captured: vec![]
            }
            .format()
            .is_err()
        );
    }

    #[test]
    fn positions_and_moves_convert() {
        let hub = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        let (side, squares) = position_from_hub(&hub).unwrap();
        assert_eq!(side, Side::White);
        assert_eq!(
            squares,
            format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20))
        );
        assert_eq!(position_to_hub(side, &squares), hub);
        assert_eq!(move_to_hub(32, 28, &[]), "32-28");
        assert_eq!(move_to_hub(28, 17, &[22, 12]), "28x17x12x22");
        assert_eq!(move_from_hub("28x17x12x22").unwrap(), (28, 17, vec![12, 22]));
        assert_eq!(move_from_hub("32-28").unwrap(), (32, 28, vec![]));
        assert!(move_from_hub("32-28-23").is_err());
    }

    #[test]
    fn the_reader_joins_pieces_and_splits_runs() {
        let data: &[u8] = b"E00\0M0000322800\0K1\0tail";
        let mut r = MessageReader::new();
        let far = Instant::now() + Duration::from_secs(5);
        let mut s = data;
        assert_eq!(r.next(&mut s, far, Duration::from_secs(5)).unwrap(), b"E00");
        assert_eq!(
            r.next(&mut s, far, Duration::from_secs(5)).unwrap(),
            b"M0000322800"
        );
        assert_eq!(r.next(&mut s, far, Duration::from_secs(5)).unwrap(), b"K1");
        assert!(matches!(
            r.next(&mut s, far, Duration::from_secs(5)),
            Err(ReadError::Closed(_))
        ));
        let long = vec![b'C'; MAX_MESSAGE + 10];
        let mut s = &long[..];
        assert_eq!(
            MessageReader::new().next(&mut s, far, Duration::from_secs(5)),
            Err(ReadError::TooLong)
        );
    }
}
