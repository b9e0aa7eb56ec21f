//! The on-disk format of one slice, `<dir>/<variant>/<slice>.egdb` (all integers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `TEMPOEG1` |
//! | 1 + n | length and name of the variant |
//! | 4 | material: White men, White kings, Black men, Black kings |
//! | 8 | indices per side to move (checks the indexing) |
//! | 1 | bytes per code, 1 or 2 |
//! | 4 | codes per block ([`BLOCK`]) |
//! | 4 | number of blocks `B` |
//! | 2 | largest code |
//! | 4 (B + 1) | offset of each block in the payload, and the payload's length |
//! | ... | payload: the blocks |
//! | 4 | CRC-32 (IEEE) of everything before it |
//!
//! A block starts with a tag byte: 0, the codes follow raw; 1, they follow as runs (a code, then
//! the run length as an LEB128 number). The writer picks the shorter. Indices whose value the
//! tables do not decide (no position, a capture pending, no legal move) hold the code before them,
//! which lengthens runs; the prober decides those positions itself.

use super::Code;
use super::index::{Material, SliceIndex};
use crate::bytes::ByteReader;

/// File magic, version 1.
pub const MAGIC: &[u8; 8] = b"TEMPOEG1";
/// Codes per block: a probe decodes at most one block.
pub const BLOCK: usize = 1024;
/// File name extension.
pub const EXTENSION: &str = "egdb";

/// CRC-32 (IEEE 802.3, as zlib computes it). `crc32fast` uses the carry-less multiply of the CPU
/// where it has one: the checksum was most of the load time with a byte-at-a-time table (English to
/// 5 pieces, docs/records/egdb.md).
pub fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

/// A slice file's bytes: read into the process's memory, or mapped from the file, so that the
/// operating system's page cache holds them once for every process that probes them (two engines
/// of a match, a GUI's analysis engine beside a bot) and they need not be copied at loading.
pub enum FileBytes {
    /// Read into memory (tables built in memory, tests, and the fallback when mapping fails).
    Read(Vec<u8>),
    /// Mapped read-only from the file.
    Mapped(memmap2::Mmap),
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Read(v) => v,
            FileBytes::Mapped(m) => m,
        }
    }
}

impl From<Vec<u8>> for FileBytes {
    fn from(v: Vec<u8>) -> FileBytes {
        FileBytes::Read(v)
    }
}

/// One slice in its compressed form, as loaded for probing: the file's bytes as read or mapped
/// (the block offsets and the blocks are used in place, never copied).
pub struct SliceFile {
    /// The slice's indexing.
    pub index: SliceIndex,
    width: usize,
    /// The whole file.
    bytes: FileBytes,
    /// Where the block offsets start in `bytes`.
    offsets_at: usize,
    /// Where the payload starts in `bytes`.
    payload_at: usize,
    /// Number of blocks.
    blocks: usize,
    /// The largest code stored.
    pub max_code: Code,
}

/// The fields of a file's header that the reader keeps.
struct Header {
    width: usize,
    blocks: usize,
    max_code: Code,
    /// The header's length in bytes (where the block offsets start).
    len: usize,
}

/// Reads a header and checks it against `variant` and `index`.
fn read_header(variant: &str, index: &SliceIndex, bytes: &[u8]) -> Result<Header, String> {
    let mut r = ByteReader::new(bytes);
    if r.take(8, "magic")? != MAGIC {
        return Err("not a Tempo egdb file (bad magic)".into());
    }
    let n = usize::from(r.u8("variant name")?);
    let name = r.take(n, "variant name")?;
    if name != variant.as_bytes() {
        return Err(format!(
            "file is for variant {:?}, not {variant}",
            String::from_utf8_lossy(name)
        ));
    }
    let m = r.take(4, "material")?;
    let material = Material {
        wm: m[0],
        wk: m[1],
        bm: m[2],
        bk: m[3],
    };
    if material != index.material {
        return Err(format!("file holds slice {material}, not {}", index.material));
    }
    let per_side = r.u64("positions a side")?;
    if per_side != index.per_side {
        return Err(format!(
            "indexing differs: {per_side} positions a side, expected {}",
            index.per_side
        ));
    }
    let width = usize::from(r.u8("code width")?);
    let block = r.u32("block size")? as usize;
    let blocks = r.u32("block count")? as usize;
    let max_code = r.u16("largest code")?;
    if !(width == 1 || width == 2) || block != BLOCK || blocks != index.len().div_ceil(BLOCK as u64) as usize
    {
        return Err("bad header (width, block size or block count)".into());
    }
    Ok(Header {
        width,
        blocks,
        max_code,
        len: bytes.len() - r.rest().len(),
    })
}

/// The most bytes a header takes (a variant name is at most 255 bytes).
pub const HEADER_MAX: usize = 32 + 255;

/// A quick check of a file from its first bytes (at least [`HEADER_MAX`] of them, or the whole
/// file) and its length: the header is `variant`'s and `index`'s, and the file is long enough for
/// its block offsets. The checksum is not checked: [`SliceFile::decode`] does that.
///
/// # Errors
/// A message naming what is wrong.
pub fn check_header(variant: &str, index: &SliceIndex, head: &[u8], file_len: u64) -> Result<(), String> {
    let h = read_header(variant, index, head)?;
    let least = (h.len + 4 * (h.blocks + 1) + 4) as u64;
    if file_len < least {
        return Err(format!(
            "the file is truncated ({file_len} bytes; its header needs at least {least})"
        ));
    }
    Ok(())
}

fn put_code(out: &mut Vec<u8>, c: Code, width: usize) {
    if width == 1 {
        out.push(c as u8);
    } else {
        out.extend_from_slice(&c.to_le_bytes());
    }
}

fn encode_block(codes: &[Code], width: usize, out: &mut Vec<u8>) {
    let mut rle = vec![1u8];
    let mut i = 0;
    while i < codes.len() {
        let c = codes[i];
        let mut j = i + 1;
        while j < codes.len() && codes[j] == c {
            j += 1;
        }
        put_code(&mut rle, c, width);
        let mut n = (j - i) as u32;
        loop {
            let byte = (n & 0x7F) as u8;
            n >>= 7;
            if n == 0 {
                rle.push(byte);
                break;
            }
            rle.push(byte | 0x80);
        }
        i = j;
    }
    if rle.len() < 1 + codes.len() * width {
        out.extend_from_slice(&rle);
    } else {
        out.push(0);
        for &c in codes {
            put_code(out, c, width);
        }
    }
}

/// The bytes of a slice file.
pub fn encode(variant: &str, index: &SliceIndex, codes: &[Code]) -> Vec<u8> {
    let max_code = codes.iter().copied().max().unwrap_or(0);
    let mut enc = Encoder::new(max_code);
    enc.push(codes);
    enc.finish(variant, index)
}

/// A slice file written block by block, for slices too large to hold decoded twice (the mirrored
/// Frisian 5-piece slices): the codes arrive in index order, in pieces whose lengths are whole
/// blocks (the last may be short). The largest code must be known first: it sets the width of
/// the raw blocks.
pub struct Encoder {
    width: usize,
    max_code: Code,
    payload: Vec<u8>,
    offsets: Vec<u32>,
}

impl Encoder {
    /// An encoder for codes no larger than `max_code`.
    pub fn new(max_code: Code) -> Encoder {
        Encoder {
            width: if max_code <= 0xFF { 1 } else { 2 },
            max_code,
            payload: Vec::new(),
            offsets: Vec::new(),
        }
    }

    /// Appends codes: whole blocks, except in the last call.
    ///
    /// # Panics
    /// If the payload passes 4 GiB (its offsets are 32-bit): about 2^31 raw two-byte codes, far
    /// beyond the largest slice built (Frisian 1112, 6.9 G indices, compresses to about a third of
    /// a byte an index).
    pub fn push(&mut self, codes: &[Code]) {
        for block in codes.chunks(BLOCK) {
            debug_assert!(block.iter().all(|&c| c <= self.max_code));
            let at = u32::try_from(self.payload.len()).expect("slice file payload above 4 GiB");
            self.offsets.push(at);
            encode_block(block, self.width, &mut self.payload);
        }
    }

    /// The file's bytes, for slice `index` of `variant`.
    pub fn finish(mut self, variant: &str, index: &SliceIndex) -> Vec<u8> {
        let end = u32::try_from(self.payload.len()).expect("slice file payload above 4 GiB");
        self.offsets.push(end);
        let m = index.material;
        let mut head = Vec::with_capacity(64 + 4 * self.offsets.len());
        head.extend_from_slice(MAGIC);
        head.push(variant.len() as u8);
        head.extend_from_slice(variant.as_bytes());
        head.extend_from_slice(&[m.wm, m.wk, m.bm, m.bk]);
        head.extend_from_slice(&index.per_side.to_le_bytes());
        head.push(self.width as u8);
        head.extend_from_slice(&(BLOCK as u32).to_le_bytes());
        head.extend_from_slice(&((self.offsets.len() - 1) as u32).to_le_bytes());
        head.extend_from_slice(&self.max_code.to_le_bytes());
        for o in &self.offsets {
            head.extend_from_slice(&o.to_le_bytes());
        }
        // The payload's own buffer becomes the file (moved up in place, not copied to a second
        // buffer: the largest payloads are gigabytes).
        let mut out = self.payload;
        let body = out.len();
        out.reserve_exact(head.len() + 4);
        out.resize(body + head.len(), 0);
        out.copy_within(..body, head.len());
        out[..head.len()].copy_from_slice(&head);
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }
}

impl SliceFile {
    /// Reads a slice file's bytes, checking the checksum and that it holds `index`'s slice of
    /// `variant`. The bytes are kept as they are (the blocks are read in place).
    ///
    /// # Errors
    /// A message naming what is wrong (checksum, magic, variant, slice, sizes).
    pub fn decode(
        variant: &str,
        index: SliceIndex,
        bytes: impl Into<FileBytes>,
    ) -> Result<SliceFile, String> {
        let bytes = bytes.into();
        if bytes.len() < MAGIC.len() + 4 {
            return Err("file too short".into());
        }
        let (body, tail) = bytes.split_at(bytes.len() - 4);
        let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        if crc32(body) != stored {
            return Err("checksum mismatch (corrupt file)".into());
        }
        let h = read_header(variant, &index, body)?;
        let mut r = ByteReader::new(&body[h.len..]);
        let mut prev = 0;
        for _ in 0..=h.blocks {
            let o = r.u32("block offsets")?;
            if o < prev {
                return Err("bad block offsets".into());
            }
            prev = o;
        }
        if prev as usize != r.rest().len() {
            return Err("bad block offsets".into());
        }
        Ok(SliceFile {
            index,
            width: h.width,
            offsets_at: h.len,
            payload_at: h.len + 4 * (h.blocks + 1),
            blocks: h.blocks,
            bytes,
            max_code: h.max_code,
        })
    }

    /// The file's length: bytes held in memory, or mapped.
    pub fn bytes(&self) -> usize {
        self.bytes.len()
    }

    /// Tells the system that a mapped file is read at random from now on (a block a probe), so
    /// that a probe does not read ahead of its block; nothing for bytes read into memory.
    pub fn advise_random(&self) {
        #[cfg(unix)]
        if let FileBytes::Mapped(m) = &self.bytes {
            // Only advice: a system that refuses it reads ahead as before.
            let _ = m.advise(memmap2::Advice::Random);
        }
    }

    /// Whether the bytes are mapped from the file rather than read into memory.
    pub fn is_mapped(&self) -> bool {
        matches!(self.bytes, FileBytes::Mapped(_))
    }

    /// The bytes of block `b`, if it exists.
    #[inline]
    fn block(&self, b: usize) -> Option<&[u8]> {
        if b >= self.blocks {
            return None;
        }
        let at = self.offsets_at + 4 * b;
        let o = self.bytes.get(at..at + 8)?;
        let lo = u32::from_le_bytes([o[0], o[1], o[2], o[3]]) as usize;
        let hi = u32::from_le_bytes([o[4], o[5], o[6], o[7]]) as usize;
        self.bytes.get(self.payload_at + lo..self.payload_at + hi)
    }

    fn code_at(&self, data: &[u8], k: usize) -> Code {
        if self.width == 1 {
            Code::from(data[k])
        } else {
            u16::from_le_bytes([data[2 * k], data[2 * k + 1]])
        }
    }

    /// Every code of the slice, in index order.
    ///
    /// # Errors
    /// A block shorter than its codes or holding runs that do not add up to them (a file crafted
    /// or damaged with its checksum recomputed): a message naming the block.
    pub fn decode_all(&self) -> Result<Vec<Code>, String> {
        let len = self.index.len() as usize;
        let mut out = Vec::with_capacity(len);
        let bad = |b: usize, why: &str| Err(format!("block {b} of {}: {why}", self.blocks));
        for b in 0..self.blocks {
            let Some(data) = self.block(b) else {
                return bad(b, "its offsets point outside the file");
            };
            let want = BLOCK.min(len - out.len());
            let Some((&tag, rest)) = data.split_first() else {
                return bad(b, "empty");
            };
            if tag == 0 {
                if rest.len() < want * self.width {
                    return bad(b, "a raw block shorter than its codes");
                }
                out.extend((0..want).map(|k| self.code_at(rest, k)));
                continue;
            }
            let mut at = 0;
            let mut got = 0;
            while got < want && at + self.width <= rest.len() {
                let c = self.code_at(&rest[at..], 0);
                at += self.width;
                let mut n = 0usize;
                let mut shift = 0;
                while let Some(&byte) = rest.get(at) {
                    at += 1;
                    if shift > 28 {
                        return bad(b, "a run length too long");
                    }
                    n |= usize::from(byte & 0x7F) << shift;
                    shift += 7;
                    if byte & 0x80 == 0 {
                        break;
                    }
                }
                let n = n.min(want - got);
                out.extend(std::iter::repeat_n(c, n));
                got += n;
            }
            if got < want {
                return bad(b, "runs shorter than the block");
            }
        }
        if out.len() < len {
            return Err(format!("{} codes, {len} expected", out.len()));
        }
        Ok(out)
    }

    /// The code stored at an index (`None` past the end or in a malformed block).
    pub fn get(&self, i: u64) -> Option<Code> {
        let b = usize::try_from(i / BLOCK as u64).ok()?;
        let off = (i % BLOCK as u64) as usize;
        let data = self.block(b)?;
        let (&tag, rest) = data.split_first()?;
        if tag == 0 {
            return (off < rest.len() / self.width).then(|| self.code_at(rest, off));
        }
        let mut at = 0;
        let mut seen = 0usize;
        while at + self.width <= rest.len() {
            let c = self.code_at(&rest[at..], 0);
            at += self.width;
            let mut n = 0usize;
            let mut shift = 0;
            loop {
                let byte = *rest.get(at)?;
                at += 1;
                if shift > 28 {
                    // A run length no block has: a malformed block.
                    return None;
                }
                n |= usize::from(byte & 0x7F) << shift;
                shift += 7;
                if byte & 0x80 == 0 {
                    break;
                }
            }
            seen += n;
            if off < seen {
                return Some(c);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::RussianRules;

    #[test]
    fn crc_of_known_string() {
        // The check value of CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn encode_decode_round_trip_and_corruption() {
        let m = Material {
            wm: 0,
            wk: 1,
            bm: 1,
            bk: 0,
        };
        let index = SliceIndex::new::<RussianRules>(m);
        let codes: Vec<Code> = (0..index.len()).map(|i| ((i / 7) % 300) as Code).collect();
        let bytes = encode("russian", &index, &codes);
        let f = SliceFile::decode("russian", index.clone(), bytes.clone()).unwrap();
        for (i, &c) in codes.iter().enumerate() {
            assert_eq!(f.get(i as u64), Some(c));
        }
        assert_eq!(f.decode_all().unwrap(), codes);
        let mut bad = bytes.clone();
        bad[bytes.len() / 2] ^= 1;
        assert!(
            SliceFile::decode("russian", index.clone(), bad)
                .err()
                .is_some_and(|e| e.contains("checksum"))
        );
        assert!(SliceFile::decode("english", index.clone(), bytes.clone()).is_err());
        assert!(
            check_header(
                "russian",
                &index,
                &bytes[..HEADER_MAX.min(bytes.len())],
                bytes.len() as u64
            )
            .is_ok()
        );
        assert!(check_header("russian", &index, &bytes[..40], 40).is_err());
    }
}
