//! The book file: a header, a table of fixed-size entries sorted by position key, and a CRC-32.
//!
//! All numbers are little-endian. docs/book.md describes the layout for other readers.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `TEMPOBK1` |
//! | 8 | 4 | version ([`VERSION`]) |
//! | 12 | 4 | number of entries `n` |
//! | 16 | 24 | variant name, ASCII, padded with zero bytes |
//! | 40 | 8 | key of the root (the variant's initial position) |
//! | 48 | 16 `n` | entries, keys strictly increasing |
//! | 48 + 16 `n` | 4 | CRC-32 (IEEE, as `crc32fast`) of every byte before it |
//!
//! An entry: key (8), score (2, signed, hundredths of a man for the side to move), depth (2,
//! plies of search behind the score), ply (2, fewest plies from the root), flags (1:
//! [`EXPANDED`], [`TERMINAL`]), one reserved zero byte.
//!
//! The entries are kept as the file's bytes (the memory image) and searched in place: a probe is
//! a binary search over fixed-size records, with no parsing and no allocation.

/// The first eight bytes of a book file.
pub const MAGIC: &[u8; 8] = b"TEMPOBK1";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;
/// Bytes before the first entry.
pub const HEADER: usize = 48;
/// Bytes of one entry.
pub const ENTRY: usize = 16;
/// Bytes of the trailing checksum.
pub const TRAILER: usize = 4;
/// Bytes of the variant name field.
pub const NAME_FIELD: usize = 24;
/// The most entries a book may hold (a file of 1 GiB): a bound on what a reader accepts, so a
/// damaged count cannot ask for the memory of a larger file.
pub const MAX_ENTRIES: usize = 1 << 26;
/// The largest book file a reader accepts.
pub const MAX_BYTES: u64 = (HEADER + ENTRY * MAX_ENTRIES + TRAILER) as u64;
/// The largest score magnitude an entry may hold: a win at once ([`crate::search::WIN`]). The
/// search's scores never go beyond it, so a larger one (up to the search's infinity) is damage,
/// refused when the book is read for play as `verify` refuses it.
pub const MAX_SCORE: i32 = crate::search::WIN;

/// Flag: every legal move of the position leads to a position of the book, so the book may
/// choose a move there.
pub const EXPANDED: u8 = 1;
/// Flag: the game is over at the position (no move, or a rule decides it); it is never expanded.
pub const TERMINAL: u8 = 2;

/// One position of the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's Zobrist key ([`crate::game::Game::key`]).
    pub key: u64,
    /// Its minimax score, in hundredths of a man for the side to move.
    pub score: i32,
    /// Plies of search behind the score (a leaf's search depth; one more than the chosen child's
    /// for an expanded position).
    pub depth: u32,
    /// The fewest plies from the root to the position.
    pub ply: u32,
    /// [`EXPANDED`] and [`TERMINAL`] bits.
    pub flags: u8,
}

impl Entry {
    /// Whether every legal move's position is in the book.
    pub fn expanded(&self) -> bool {
        self.flags & EXPANDED != 0
    }
    /// Whether the game is over at the position.
    pub fn terminal(&self) -> bool {
        self.flags & TERMINAL != 0
    }
}

/// A book held as its file's bytes, checked once when read.
#[derive(Clone, Debug)]
pub struct Book {
    image: Vec<u8>,
    count: usize,
    variant: String,
    root: u64,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// The bytes of a book for `variant` rooted at `root`, its entries sorted by key here.
///
/// # Errors
/// A variant name longer than the field, too many entries, a key given twice, a score or a
/// depth or ply outside its field.
pub fn encode(variant: &str, root: u64, entries: &mut [Entry]) -> Result<Vec<u8>, String> {
    if variant.len() > NAME_FIELD || !variant.is_ascii() {
        return Err(format!("variant name {variant:?} does not fit the book header"));
    }
    if entries.len() > MAX_ENTRIES {
        return Err(format!(
            "{} positions: a book holds at most {MAX_ENTRIES}",
            entries.len()
        ));
    }
    entries.sort_unstable_by_key(|e| e.key);
    let mut out = Vec::with_capacity(HEADER + ENTRY * entries.len() + TRAILER);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    let mut name = [0u8; NAME_FIELD];
    name[..variant.len()].copy_from_slice(variant.as_bytes());
    out.extend_from_slice(&name);
    out.extend_from_slice(&root.to_le_bytes());
    for (i, e) in entries.iter().enumerate() {
        if i > 0 && entries[i - 1].key == e.key {
            return Err(format!("key {:016x} given twice", e.key));
        }
        let score = i16::try_from(e.score)
            .ok()
            .filter(|s| i32::from(*s).abs() <= MAX_SCORE)
            .ok_or_else(|| format!("score {} out of range", e.score))?;
        let depth = u16::try_from(e.depth).map_err(|_| format!("depth {} out of range", e.depth))?;
        let ply = u16::try_from(e.ply).map_err(|_| format!("ply {} out of range", e.ply))?;
        out.extend_from_slice(&e.key.to_le_bytes());
        out.extend_from_slice(&score.to_le_bytes());
        out.extend_from_slice(&depth.to_le_bytes());
        out.extend_from_slice(&ply.to_le_bytes());
        out.push(e.flags & (EXPANDED | TERMINAL));
        out.push(0);
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    Ok(out)
}

impl Book {
    /// Reads a book from its file's bytes, checking everything a probe relies on.
    ///
    /// # Errors
    /// The reason the bytes are no book: wrong magic or version, a length that does not match the
    /// count, a checksum mismatch, keys out of order, a bad field.
    pub fn from_bytes(image: Vec<u8>) -> Result<Book, String> {
        if image.len() < HEADER + TRAILER {
            return Err(format!("too short for a book ({} bytes)", image.len()));
        }
        if &image[..8] != MAGIC {
            return Err("not a Tempo book (wrong magic bytes)".into());
        }
        let version = u32_at(&image, 8);
        if version != VERSION {
            return Err(format!(
                "book format version {version}; this Tempo reads version {VERSION}"
            ));
        }
        let count = u32_at(&image, 12) as usize;
        let expected = HEADER + ENTRY * count + TRAILER;
        if count > MAX_ENTRIES || image.len() != expected {
            return Err(format!(
                "the header says {count} positions ({expected} bytes) but the file has {} bytes \
                 (cut short or damaged)",
                image.len()
            ));
        }
        // The checksum first: any other complaint about a damaged file would be a guess.
        let body = image.len() - TRAILER;
        let stored = u32_at(&image, body);
        let computed = crc32fast::hash(&image[..body]);
        if stored != computed {
            return Err(format!(
                "checksum mismatch: stored {stored:08x}, computed {computed:08x} (the file is damaged)"
            ));
        }
        let name = &image[16..16 + NAME_FIELD];
        let end = name.iter().position(|&b| b == 0).unwrap_or(NAME_FIELD);
        let variant = std::str::from_utf8(&name[..end])
            .ok()
            .filter(|n| n.is_ascii() && name[end..].iter().all(|&b| b == 0))
            .ok_or("bad variant name in the header")?
            .to_string();
        let root = u64_at(&image, 40);
        let book = Book {
            image,
            count,
            variant,
            root,
        };
        for i in 0..count {
            let at = HEADER + ENTRY * i;
            let e = book.entry(i);
            if i > 0 && book.key(i - 1) >= e.key {
                return Err(format!("entry {i}: keys not in increasing order"));
            }
            if e.score.abs() > MAX_SCORE {
                return Err(format!("entry {i}: score {} out of range", e.score));
            }
            if e.flags & !(EXPANDED | TERMINAL) != 0 || book.image[at + 15] != 0 {
                return Err(format!("entry {i}: unknown flags"));
            }
        }
        Ok(book)
    }

    /// The variant the book was built for.
    pub fn variant(&self) -> &str {
        &self.variant
    }

    /// The key of the root position.
    pub fn root(&self) -> u64 {
        self.root
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The size of the file in bytes.
    pub fn bytes(&self) -> usize {
        self.image.len()
    }

    fn key(&self, i: usize) -> u64 {
        u64_at(&self.image, HEADER + ENTRY * i)
    }

    /// The `i`-th entry in key order; `i` must be below [`Book::len`].
    pub fn entry(&self, i: usize) -> Entry {
        let at = HEADER + ENTRY * i;
        let b = &self.image;
        Entry {
            key: u64_at(b, at),
            score: i32::from(u16_at(b, at + 8) as i16),
            depth: u32::from(u16_at(b, at + 10)),
            ply: u32::from(u16_at(b, at + 12)),
            flags: b[at + 14],
        }
    }

    /// The entry of the position with this key, by binary search over the image.
    pub fn find(&self, key: u64) -> Option<Entry> {
        let (mut lo, mut hi) = (0, self.count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.key(mid).cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(self.entry(mid)),
            }
        }
        None
    }

    /// Every entry, in key order.
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        (0..self.count).map(|i| self.entry(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Entry> {
        vec![
            Entry {
                key: 30,
                score: -5,
                depth: 4,
                ply: 1,
                flags: 0,
            },
            Entry {
                key: 10,
                score: 5,
                depth: 5,
                ply: 0,
                flags: EXPANDED,
            },
            Entry {
                key: 20,
                score: -30_000,
                depth: 0,
                ply: 2,
                flags: TERMINAL,
            },
        ]
    }

    #[test]
    fn books_round_trip_sorted_and_are_found_by_key() {
        let bytes = encode("international", 10, &mut sample()).unwrap();
        assert_eq!(bytes.len(), HEADER + 3 * ENTRY + TRAILER);
        let book = Book::from_bytes(bytes).unwrap();
        assert_eq!(book.variant(), "international");
        assert_eq!((book.root(), book.len()), (10, 3));
        let keys: Vec<u64> = book.entries().map(|e| e.key).collect();
        assert_eq!(keys, [10, 20, 30]);
        assert_eq!(book.find(20).unwrap().score, -30_000);
        assert!(book.find(20).unwrap().terminal());
        assert!(book.find(10).unwrap().expanded());
        assert_eq!(book.find(30).unwrap().depth, 4);
        assert!(book.find(25).is_none() && book.find(0).is_none() && book.find(99).is_none());
    }

    #[test]
    fn damaged_books_are_refused_with_the_reason() {
        let good = encode("russian", 10, &mut sample()).unwrap();
        let mut flipped = good.clone();
        flipped[HEADER + 9] ^= 0x40;
        assert!(Book::from_bytes(flipped).unwrap_err().contains("checksum"));
        let cut = good[..good.len() - 1].to_vec();
        assert!(Book::from_bytes(cut).unwrap_err().contains("cut short"));
        let mut magic = good.clone();
        magic[0] = b'X';
        assert!(Book::from_bytes(magic).unwrap_err().contains("magic"));
        assert!(Book::from_bytes(vec![0; 3]).unwrap_err().contains("too short"));
        let mut twice = sample();
        twice[0].key = 10;
        assert!(encode("russian", 10, &mut twice).unwrap_err().contains("twice"));
        assert!(encode("a-name-longer-than-the-field", 1, &mut []).is_err());
    }
}
