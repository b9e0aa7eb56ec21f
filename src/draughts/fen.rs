//! Positions as text: PDN FEN and the Hub position string.
//!
//! FEN (PDN 3.0, rules.md §7.2): `Turn:Colour[K]sq,...:Colour[K]sq,...`, squares as numbers,
//! ranges (`31-50`) or algebraic names (`c3`), any order, an optional trailing `.`. The draw-rule
//! clocks travel in lidraughts' `H<n>` field (plies since the last capture or man move) and in
//! Tempo's `E<n>` field (plies since the last capture or promotion), each written only when not
//! zero; lidraughts' `F<n>` (move number) is read and ignored. Tempo adds one
//! field of its own for the Frisian king-move runs (Art. 17, D-F3), written only when a run exists:
//! `R` followed by `W<square>=<count>` and/or `B<square>=<count>`, comma separated, e.g.
//! `W:W31-37,39-50,K28:B1-20:RW28=2`.
//!
//! The Hub position string (Scan's `pos pos=`): the side letter, then one character per square in
//! numbering order: `w`/`b` man, `W`/`B` king, `e` empty. That is 51 characters on 10x10 and, Tempo's
//! definition for 8x8, 33 characters in the variant's own square numbering (square 1 first).

use super::geom::Geometry;
use super::rules::Rules;
use super::{BitsOf, Clocks, Draughts, KingRun, notation};
use crate::bits::Bits;
use crate::game::{PositionError, Side};

fn parse_side(s: &str) -> Result<Side, PositionError> {
    match s {
        "W" | "w" => Ok(Side::White),
        "B" | "b" => Ok(Side::Black),
        _ => Err(PositionError::Syntax(format!(
            "side to move must be W or B, not {s:?}"
        ))),
    }
}

fn parse_number<R: Rules>(s: &str) -> Result<usize, PositionError> {
    match s.parse::<usize>() {
        Ok(n) if (1..=R::Board::SQUARES).contains(&n) => Ok(n),
        _ => Err(PositionError::BadSquare(s.to_string())),
    }
}

/// Reads a PDN FEN.
pub(super) fn from_fen<R: Rules>(text: &str) -> Result<Draughts<R>, PositionError> {
    let mut t = text.trim();
    if let Some(inner) = t.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
        t = inner.trim();
    }
    let t = t.strip_suffix('.').unwrap_or(t);
    if t.is_empty() {
        return Err(PositionError::Syntax("empty FEN".into()));
    }
    let mut fields = t.split(':');
    let side = parse_side(fields.next().unwrap_or("").trim())?;
    let mut pieces = [BitsOf::<R>::EMPTY; 2];
    let mut kings = BitsOf::<R>::EMPTY;
    let mut runs = [KingRun::default(); 2];
    let mut seen = [false; 2];
    let mut clocks = Clocks::default();
    for field in fields {
        let field = field.trim();
        let Some(first) = field.chars().next() else {
            return Err(PositionError::Syntax("empty field".into()));
        };
        let rest = &field[first.len_utf8()..];
        match first {
            'W' | 'B' => {
                let colour = if first == 'W' { Side::White } else { Side::Black };
                if seen[colour.index()] {
                    return Err(PositionError::Syntax(format!("two piece lists for {first}")));
                }
                seen[colour.index()] = true;
                read_pieces::<R>(rest, colour, &mut pieces, &mut kings)?;
            }
            'H' | 'E' | 'D' | 'F' => {
                let Ok(n) = rest.parse::<u16>() else {
                    return Err(PositionError::Syntax(format!("bad counter field {field:?}")));
                };
                match first {
                    'H' => clocks.reversible = n,
                    'E' => clocks.ending = n,
                    'D' => clocks.road = n,
                    _ => {}
                }
            }
            'R' => read_runs::<R>(rest, &mut runs)?,
            _ => return Err(PositionError::Syntax(format!("unknown field {field:?}"))),
        }
    }
    // One side without pieces is a position (its game is over); an empty board is not one a
    // user means (a bare `W`, a FEN cut short).
    if pieces[0] == BitsOf::<R>::EMPTY && pieces[1] == BitsOf::<R>::EMPTY {
        return Err(PositionError::Syntax(
            "no pieces on the board (a FEN lists them, as in W:W31-50:B1-20)".into(),
        ));
    }
    Ok(Draughts::from_parts(pieces[0], pieces[1], kings, side, runs)?.with_clocks(clocks))
}

fn read_pieces<R: Rules>(
    list: &str,
    colour: Side,
    pieces: &mut [BitsOf<R>; 2],
    kings: &mut BitsOf<R>,
) -> Result<(), PositionError> {
    for item in list.split(',') {
        let item = item.trim();
        if item.is_empty() {
            if list.trim().is_empty() {
                break;
            }
            return Err(PositionError::Syntax("empty square in a piece list".into()));
        }
        let (king, sq) = match item.strip_prefix('K') {
            Some(s) => (true, s),
            None => (false, item),
        };
        let bits: Vec<u32> = if let Some((a, b)) = sq.split_once('-') {
            let (a, b) = (parse_number::<R>(a)?, parse_number::<R>(b)?);
            if a > b {
                return Err(PositionError::Syntax(format!("range {sq} runs backwards")));
            }
            (a..=b)
                .map(|n| R::Board::bit_of(n).expect("checked range"))
                .collect()
        } else {
            let b =
                notation::parse_square::<R>(sq).ok_or_else(|| PositionError::BadSquare(sq.to_string()))?;
            vec![b]
        };
        for b in bits {
            let bit = BitsOf::<R>::bit(b);
            if !((pieces[0] | pieces[1]) & bit).is_empty() {
                return Err(PositionError::Occupied(notation::square_name::<R>(b)));
            }
            pieces[colour.index()] |= bit;
            if king {
                *kings |= bit;
            }
        }
    }
    Ok(())
}

fn read_runs<R: Rules>(list: &str, runs: &mut [KingRun; 2]) -> Result<(), PositionError> {
    for item in list.split(',') {
        let item = item.trim();
        let bad = || PositionError::Syntax(format!("bad king-move run {item:?}; expected W<square>=<count>"));
        let mut chars = item.chars();
        let side = match chars.next() {
            Some('W') => Side::White,
            Some('B') => Side::Black,
            _ => return Err(bad()),
        };
        let (sq, count) = chars.as_str().split_once('=').ok_or_else(bad)?;
        let square =
            notation::parse_square::<R>(sq).ok_or_else(|| PositionError::BadSquare(sq.to_string()))?;
        let count: u8 = count.parse().map_err(|_| bad())?;
        runs[side.index()] = KingRun {
            count,
            square: square as u8,
        };
    }
    Ok(())
}

/// Writes a PDN FEN with numeric squares (lidraughts writes Russian FEN numerically too).
pub(super) fn to_fen<R: Rules>(pos: &Draughts<R>) -> String {
    let mut s = String::new();
    s.push(pos.side.letter());
    for side in [Side::White, Side::Black] {
        s.push(':');
        s.push(side.letter());
        // Ascending square numbers (on a mirrored board bit order is not numbering order).
        let mut squares: Vec<(usize, bool)> = pos.pieces[side.index()]
            .iter()
            .map(|b| {
                (
                    R::Board::number_of(b).expect("pieces stand on playing squares"),
                    pos.kings.has(b),
                )
            })
            .collect();
        squares.sort_unstable();
        let items: Vec<String> = squares
            .iter()
            .map(|&(n, king)| if king { format!("K{n}") } else { n.to_string() })
            .collect();
        s.push_str(&items.join(","));
    }
    let runs: Vec<String> = [Side::White, Side::Black]
        .iter()
        .filter(|side| pos.runs[side.index()].count > 0)
        .map(|side| {
            let run = pos.runs[side.index()];
            let n = R::Board::number_of(u32::from(run.square)).expect("runs are on playing squares");
            format!("{}{}={}", side.letter(), n, run.count)
        })
        .collect();
    if !runs.is_empty() {
        s.push_str(":R");
        s.push_str(&runs.join(","));
    }
    let clocks = pos.clocks();
    if clocks.reversible > 0 {
        s.push_str(&format!(":H{}", clocks.reversible));
    }
    if clocks.ending > 0 {
        s.push_str(&format!(":E{}", clocks.ending));
    }
    if clocks.road > 0 {
        s.push_str(&format!(":D{}", clocks.road));
    }
    s
}

/// Reads a Hub position string.
pub(super) fn from_hub<R: Rules>(text: &str) -> Result<Draughts<R>, PositionError> {
    let t = text.trim();
    let expected = R::Board::SQUARES + 1;
    let found = t.chars().count();
    if found != expected {
        return Err(PositionError::Length { expected, found });
    }
    let mut chars = t.chars();
    let side = parse_side(&chars.next().expect("length checked").to_string())?;
    let mut pieces = [BitsOf::<R>::EMPTY; 2];
    let mut kings = BitsOf::<R>::EMPTY;
    for (i, c) in chars.enumerate() {
        let bit = BitsOf::<R>::bit(R::Board::SQUARE_TO_BIT[i].into());
        match c {
            'w' => pieces[0] |= bit,
            'b' => pieces[1] |= bit,
            'W' => {
                pieces[0] |= bit;
                kings |= bit;
            }
            'B' => {
                pieces[1] |= bit;
                kings |= bit;
            }
            'e' | '.' => {}
            _ => {
                return Err(PositionError::Syntax(format!(
                    "square {} is {c:?}; expected w, b, W, B or e",
                    i + 1
                )));
            }
        }
    }
    Draughts::from_parts(pieces[0], pieces[1], kings, side, [KingRun::default(); 2])
}

/// Writes the Hub position string.
pub(super) fn to_hub<R: Rules>(pos: &Draughts<R>) -> String {
    let mut s = String::with_capacity(R::Board::SQUARES + 1);
    s.push(pos.side.letter());
    for &b in R::Board::SQUARE_TO_BIT {
        let b = u32::from(b);
        let king = pos.kings.has(b);
        s.push(match (pos.pieces[0].has(b), pos.pieces[1].has(b), king) {
            (true, _, false) => 'w',
            (true, _, true) => 'W',
            (_, true, false) => 'b',
            (_, true, true) => 'B',
            _ => 'e',
        });
    }
    s
}
