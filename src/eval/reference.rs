//! For the tests: the features of a position computed from scratch, square by square from the
//! board's coordinates (no square sets, no bit tricks), to check the fast code of
//! [`super::features`] and [`super::table`] against; and the positions of random games to check
//! them on.

use super::features::{EDGE_SQUARES, KING_ATTACKED, LINEAR, REGION_SQUARES, Regions, WINDOW_SQUARES};
use crate::bits::Bits;
use crate::draughts::geom::Geometry;
use crate::draughts::rules::Rules;
use crate::draughts::{BitsOf, Draughts};
use crate::game::{Game, MoveList, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The configuration of the dark squares in columns `c0..c0 + cols` of rows `r0..r0 + rows`,
/// from coordinates alone and the side to move's view (the board turned when Black moves):
/// row by row, by bit within a row, each square 0 empty or king, 1 a man of the side to move,
/// 2 one of the other side's. Also the number of squares read.
fn reference_window<R: Rules>(pos: &Draughts<R>, c0: u32, cols: u32, r0: u32, rows: u32) -> (u32, usize) {
    type G<R> = <R as Rules>::Board;
    let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
    let me = pos.side_to_move();
    let mut index = 0u32;
    let mut digit = 1u32;
    let mut count = 0;
    for row in r0..r0 + rows {
        let mut bits: Vec<u32> = (c0..c0 + cols).filter_map(|c| G::<R>::at(c, row)).collect();
        bits.sort_unstable();
        for b in bits {
            let (c, r) = G::<R>::coords(b);
            let seen = if me == Side::Black {
                G::<R>::at(w - 1 - c, h - 1 - r).unwrap()
            } else {
                b
            };
            let man = !pos.kings().has(seen);
            let v = if man && pos.pieces(me).has(seen) {
                1
            } else if man && pos.pieces(me.opponent()).has(seen) {
                2
            } else {
                0
            };
            index += v * digit;
            digit *= 3;
            count += 1;
        }
    }
    (index, count)
}

/// The region configurations by a loop over squares, from coordinates alone.
pub(super) fn reference_indices<R: Rules>(pos: &Draughts<R>) -> Vec<u16> {
    type G<R> = <R as Rules>::Board;
    let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
    let mut out = Vec::new();
    for r0 in (0..=h - 4).step_by(2) {
        for c0 in (0..=w - 4).step_by(2) {
            let (index, count) = reference_window(pos, c0, 4, r0, 4);
            assert_eq!(count, REGION_SQUARES);
            let first = (c0..c0 + 4).filter_map(|c| G::<R>::at(c, r0)).min().unwrap();
            out.push((r0, first, index as u16));
        }
    }
    // Regions in layout order: by band of rows, then by first bit (on mirrored boards the
    // layout runs from the right).
    out.sort_unstable();
    out.into_iter().map(|(_, _, i)| i).collect()
}

/// The big-window configurations by a loop over squares, from coordinates alone: four
/// columns at every even offset, rows 0-5 and the last six, in layout order.
pub(super) fn reference_windows<R: Rules>(pos: &Draughts<R>) -> Vec<u32> {
    type G<R> = <R as Rules>::Board;
    let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
    let mut out = Vec::new();
    for r0 in [0, h - 6] {
        for c0 in (0..=w - 4).step_by(2) {
            let (index, count) = reference_window(pos, c0, 4, r0, 6);
            assert_eq!(count, WINDOW_SQUARES);
            let first = (c0..c0 + 4).filter_map(|c| G::<R>::at(c, r0)).min().unwrap();
            out.push((r0, first, index));
        }
    }
    out.sort_unstable();
    out.into_iter().map(|(_, _, i)| i).collect()
}

/// The edge-pattern configurations by a loop over squares, from coordinates alone: columns 0-2
/// and the last three, rows 0-5 and the last six.
pub(super) fn reference_edges<R: Rules>(pos: &Draughts<R>) -> Vec<u16> {
    type G<R> = <R as Rules>::Board;
    let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
    let mut out = Vec::new();
    for r0 in [0, h - 6] {
        for c0 in [0, w - 3] {
            let (index, count) = reference_window(pos, c0, 3, r0, 6);
            assert_eq!(count, EDGE_SQUARES);
            out.push(index as u16);
        }
    }
    out
}

/// The linear terms by a walk over every piece with its coordinates (no square sets).
pub(super) fn reference_linear<R: Rules>(pos: &Draughts<R>) -> [i32; LINEAR] {
    type G<R> = <R as Rules>::Board;
    let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
    let me = pos.side_to_move();
    let mut t = [0; LINEAR];
    for (side, sign) in [(me, 1), (me.opponent(), -1)] {
        let own = pos.pieces(side);
        let kings = own & pos.kings();
        let men = own & !pos.kings();
        let (mut left, mut right) = (0i32, 0i32);
        for sq in men.iter() {
            let (col, row) = G::<R>::coords(sq);
            let to_go = if side == Side::White { row } else { h - 1 - row };
            t[3] += sign * (h - 1 - to_go) as i32;
            if col < w / 2 {
                left += 1;
            } else {
                right += 1;
            }
            if (1..=3).contains(&to_go) {
                // Runaway: no enemy piece on the squares of the cone ahead, row by row.
                let forward = |r: u32| if side == Side::White { row - r } else { row + r };
                let free = (1..=to_go).all(|k| {
                    let r = forward(k);
                    (col.saturating_sub(k)..=(col + k).min(w - 1))
                        .filter_map(|c| G::<R>::at(c, r))
                        .all(|b| !pos.pieces(side.opponent()).has(b))
                });
                if free {
                    t[3 + to_go as usize] += sign;
                }
            }
        }
        t[0] += sign * men.count() as i32;
        t[1] += sign * kings.count() as i32;
        t[2] += sign * i32::from(!kings.is_empty());
        t[9] += sign * (left - right).abs();
        // King mobility, walked square by square; a reached square is attacked when an
        // enemy man stands next to it with an empty square on the other side.
        let empty = |c: i32, r: i32| {
            (0..w as i32).contains(&c)
                && (0..h as i32).contains(&r)
                && G::<R>::at(c as u32, r as u32).is_some_and(|b| pos.empty().has(b))
        };
        let enemy_man = |c: i32, r: i32| {
            (0..w as i32).contains(&c)
                && (0..h as i32).contains(&r)
                && G::<R>::at(c as u32, r as u32)
                    .is_some_and(|b| (pos.pieces(side.opponent()) & !pos.kings()).has(b))
        };
        let steps = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
        for sq in kings.iter() {
            let (col, row) = G::<R>::coords(sq);
            for (dc, dr) in steps {
                let (mut c, mut r) = (col as i32 + dc, row as i32 + dr);
                while empty(c, r) {
                    t[8] += sign;
                    if steps
                        .iter()
                        .any(|&(ec, er)| enemy_man(c + ec, r + er) && empty(c - ec, r - er))
                    {
                        t[KING_ATTACKED] += sign;
                    }
                    if !R::FLYING_KINGS {
                        break;
                    }
                    (c, r) = (c + dc, r + dr);
                }
            }
        }
    }
    t
}

/// The king-table entries by coordinates: a king's square seen from its owner's side (the
/// board turned for Black), plus the squares for the other side's kings.
pub(super) fn reference_kings<R: Rules>(pos: &Draughts<R>) -> Vec<usize> {
    type G<R> = <R as Rules>::Board;
    let (w, h) = (G::<R>::WIDTH, G::<R>::HEIGHT);
    let me = pos.side_to_move();
    let mut out = Vec::new();
    for (side, offset) in [(me, 0), (me.opponent(), G::<R>::SQUARES)] {
        for sq in (pos.pieces(side) & pos.kings()).iter() {
            let (c, r) = G::<R>::coords(sq);
            let (c, r) = if side == Side::Black {
                (w - 1 - c, h - 1 - r)
            } else {
                (c, r)
            };
            let seen = G::<R>::at(c, r).expect("a dark square turns to a dark square");
            out.push(offset + usize::from(G::<R>::BIT_TO_SQUARE[seen as usize]));
        }
    }
    out
}

/// Positions along random games from the start (seeded), up to 120 plies each.
pub(super) fn random_positions<R: Rules>(n: usize, seed: u64) -> Vec<Draughts<R>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Draughts::<R>::start();
        for _ in 0..rng.random_range(0..120) {
            let mut list = MoveList::new();
            pos.generate(&mut list);
            if list.is_empty() {
                break;
            }
            let i = rng.random_range(0..list.len());
            pos = pos.play(&list[i]);
            out.push(pos);
        }
    }
    out
}

/// The position turned 180 degrees with colours and the side to move swapped.
pub(super) fn flip<R: Rules>(pos: &Draughts<R>) -> Draughts<R> {
    let span = Regions::of::<R::Board>().span;
    let turn = |x: BitsOf<R>| {
        let mut y = BitsOf::<R>::EMPTY;
        for b in x.iter() {
            y |= BitsOf::<R>::bit(span - 1 - b);
        }
        y
    };
    Draughts::<R>::from_parts(
        turn(pos.pieces(Side::Black)),
        turn(pos.pieces(Side::White)),
        turn(pos.kings()),
        pos.side_to_move().opponent(),
        Default::default(),
    )
    .unwrap()
}

/// Visits the positions along `games` pseudo-random games of at most `plies` plies from the
/// start (a fixed linear congruential sequence from `seed` picks the moves), with each
/// position's generated moves, so that men stand on every row and column of the board.
pub(super) fn along_random_games<R: Rules>(
    seed: u64,
    games: usize,
    plies: usize,
    visit: impl FnMut(&Draughts<R>, &MoveList<<Draughts<R> as Game>::Move>),
) {
    along_random_games_from(&vec![Draughts::<R>::start(); games], seed, plies, visit);
}

/// [`along_random_games`] with one game from each of `starts`, the one sequence of `seed` running
/// on from game to game.
pub(super) fn along_random_games_from<R: Rules>(
    starts: &[Draughts<R>],
    mut seed: u64,
    plies: usize,
    mut visit: impl FnMut(&Draughts<R>, &MoveList<<Draughts<R> as Game>::Move>),
) {
    for &start in starts {
        let mut pos = start;
        for _ply in 0..plies {
            let mut moves = MoveList::new();
            pos.generate(&mut moves);
            visit(&pos, &moves);
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos = pos.play(&moves[(seed >> 33) as usize % moves.len()]);
        }
    }
}
