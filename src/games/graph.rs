//! Board graphs for boards that are not squares: points (cells) with integer coordinates, their
//! neighbours by direction, and the straight lines through them.
//!
//! A graph is built once, at compile time (`const fn`), from a short source list: either the
//! straight lines drawn on the board (Sixteen Soldiers) or the cells of a grid with its direction
//! vectors (MuchADo's hexagons). Only integer arithmetic is used. Point `i` is bit `i` of a `u64`
//! set (at most 64 points).

/// No point: the value of a neighbour slot that leads off the board.
pub const NONE: u8 = 255;
/// The most points a graph can have (a `u64` set).
pub const MAX_POINTS: usize = 64;
/// The most directions a graph can have.
pub const MAX_DIRS: usize = 8;

/// A straight line of the board's drawing: `len` points from `(x, y)`, each `(dx, dy)` from the
/// previous one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// First point, x.
    pub x: i8,
    /// First point, y.
    pub y: i8,
    /// Step, x.
    pub dx: i8,
    /// Step, y.
    pub dy: i8,
    /// Number of points on the line.
    pub len: u8,
}

/// A board graph: points, neighbour by direction, and the point beyond a neighbour on the same
/// straight line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Graph {
    /// Number of points; points are `0..len`.
    pub len: usize,
    /// Number of directions; directions are `0..dirs`, and `d` and `opposite(d)` are inverse.
    pub dirs: usize,
    /// Coordinates of each point.
    pub coords: [(i8, i8); MAX_POINTS],
    /// The unit vector (a sign pattern for line graphs) naming each direction.
    pub dir_vectors: [(i8, i8); MAX_DIRS],
    /// `next[p][d]`: the neighbour of `p` in direction `d`, or [`NONE`].
    pub next: [[u8; MAX_DIRS]; MAX_POINTS],
    /// `beyond[p][d]`: the point after `next[p][d]` on the same straight line (same vector), or
    /// [`NONE`]: where a short leap from `p` over `next[p][d]` lands.
    pub beyond: [[u8; MAX_DIRS]; MAX_POINTS],
}

const fn sign(v: i8) -> i8 {
    if v > 0 {
        1
    } else if v < 0 {
        -1
    } else {
        0
    }
}

impl Graph {
    const EMPTY: Graph = Graph {
        len: 0,
        dirs: 0,
        coords: [(0, 0); MAX_POINTS],
        dir_vectors: [(0, 0); MAX_DIRS],
        next: [[NONE; MAX_DIRS]; MAX_POINTS],
        beyond: [[NONE; MAX_DIRS]; MAX_POINTS],
    };

    /// The point at `(x, y)`, or [`NONE`].
    pub const fn find(&self, x: i8, y: i8) -> u8 {
        let mut i = 0;
        while i < self.len {
            if self.coords[i].0 == x && self.coords[i].1 == y {
                return i as u8;
            }
            i += 1;
        }
        NONE
    }

    /// The direction whose vector is `(dx, dy)`, or [`NONE`].
    pub const fn direction(&self, dx: i8, dy: i8) -> u8 {
        let mut d = 0;
        while d < self.dirs {
            if self.dir_vectors[d].0 == dx && self.dir_vectors[d].1 == dy {
                return d as u8;
            }
            d += 1;
        }
        NONE
    }

    /// The direction opposite `d` (directions are listed so that the second half reverses the
    /// first).
    #[inline(always)]
    pub const fn opposite(&self, d: usize) -> usize {
        (d + self.dirs / 2) % self.dirs
    }

    const fn with_points(points: &[(i8, i8)], dirs: &[(i8, i8)]) -> Graph {
        let mut g = Graph::EMPTY;
        assert!(points.len() <= MAX_POINTS && dirs.len() <= MAX_DIRS && dirs.len() % 2 == 0);
        let mut i = 0;
        while i < points.len() {
            g.coords[i] = points[i];
            i += 1;
        }
        g.len = points.len();
        let mut d = 0;
        while d < dirs.len() {
            g.dir_vectors[d] = dirs[d];
            d += 1;
        }
        g.dirs = dirs.len();
        g
    }

    /// Fills `beyond` from `next`: the leap over a neighbour lands on that neighbour's neighbour in
    /// the same direction, provided the two steps are the same vector (one straight line).
    const fn fill_beyond(mut self) -> Graph {
        let mut p = 0;
        while p < self.len {
            let mut d = 0;
            while d < self.dirs {
                let a = self.next[p][d];
                if a != NONE {
                    let b = self.next[a as usize][d];
                    if b != NONE {
                        let (px, py) = self.coords[p];
                        let (ax, ay) = self.coords[a as usize];
                        let (bx, by) = self.coords[b as usize];
                        if bx - ax == ax - px && by - ay == ay - py {
                            self.beyond[p][d] = b;
                        }
                    }
                }
                d += 1;
            }
            p += 1;
        }
        self
    }

    /// A graph whose edges are the consecutive points of the given straight lines; the direction
    /// of an edge is the sign pattern of its step, looked up in `dirs` (which must hold every
    /// sign pattern used, each opposite `d + dirs.len() / 2`). Every line point must be in
    /// `points`.
    pub const fn from_lines(points: &[(i8, i8)], lines: &[Line], dirs: &[(i8, i8)]) -> Graph {
        let mut g = Graph::with_points(points, dirs);
        let mut l = 0;
        while l < lines.len() {
            let line = lines[l];
            let d = g.direction(sign(line.dx), sign(line.dy));
            assert!(d != NONE);
            let back = g.opposite(d as usize);
            let mut k = 0;
            while k + 1 < line.len as usize {
                let (x, y) = (line.x + line.dx * k as i8, line.y + line.dy * k as i8);
                let a = g.find(x, y);
                let b = g.find(x + line.dx, y + line.dy);
                assert!(a != NONE && b != NONE);
                g.next[a as usize][d as usize] = b;
                g.next[b as usize][back] = a;
                k += 1;
            }
            l += 1;
        }
        g.fill_beyond()
    }

    /// A grid graph: each point's neighbour in direction `d` is the point at its coordinates plus
    /// `dirs[d]`, when there is one.
    pub const fn from_cells(points: &[(i8, i8)], dirs: &[(i8, i8)]) -> Graph {
        let mut g = Graph::with_points(points, dirs);
        let mut p = 0;
        while p < g.len {
            let mut d = 0;
            while d < g.dirs {
                let (x, y) = g.coords[p];
                g.next[p][d] = g.find(x + dirs[d].0, y + dirs[d].1);
                d += 1;
            }
            p += 1;
        }
        g.fill_beyond()
    }

    /// All points as a set.
    pub const fn all(&self) -> u64 {
        if self.len == 64 {
            u64::MAX
        } else {
            (1u64 << self.len) - 1
        }
    }

    /// The points whose y coordinate is `y`, as a set.
    pub const fn row(&self, y: i8) -> u64 {
        let mut s = 0u64;
        let mut i = 0;
        while i < self.len {
            if self.coords[i].1 == y {
                s |= 1 << i;
            }
            i += 1;
        }
        s
    }

    /// The neighbour of `p` in direction `d`, or [`NONE`].
    #[inline(always)]
    pub fn step(&self, p: u32, d: usize) -> u8 {
        self.next[p as usize][d]
    }

    /// The number of edges (each counted once).
    pub fn edges(&self) -> usize {
        (0..self.len)
            .map(|p| self.next[p][..self.dirs].iter().filter(|&&q| q != NONE).count())
            .sum::<usize>()
            / 2
    }

    /// The number of directed short leaps (point, neighbour, point beyond on one line).
    pub fn leaps(&self) -> usize {
        (0..self.len)
            .map(|p| self.beyond[p][..self.dirs].iter().filter(|&&q| q != NONE).count())
            .sum()
    }
}
