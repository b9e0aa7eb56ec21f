//! Weight files of the learned evaluation: the bytes of a [`Net`] written, read and checked. Which
//! weights a variant evaluates with is [`super::choice`]'s business.
//!
//! # File format (versions 1 to 5, all integers little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `TEMPOPAT` |
//! | 4 | version, u32: 1 without edge patterns, 2 with them, 3 with big windows, 4 with king squares, 5 as 4 with the pattern weights stored sparse |
//! | 1 + n | variant name: length n (u8), then n bytes of ASCII (`international`) |
//! | 1, 1 | board width, height (u8) |
//! | 2 | regions, u16 (16 on 10x10, 9 on 8x8, 25 on 12x12) |
//! | 1 | squares a region, u8 = 8 |
//! | 2 | linear terms, u16 = 11 before version 4, 12 from it (their order: [`super::features::LINEAR_NAMES`]) |
//! | 2, 1 | versions 2 to 5: edge patterns, u16 = 4 (versions 3 to 5: 0 or 4), and squares an edge pattern, u8 = 9 |
//! | 2, 1 | versions 3 to 5: big windows, u16 (8 on 10x10, 6 on 8x8, 10 on 12x12, or 0 in versions 4 and 5: [`super::features::Windows`]), and squares a window, u8 = 12 |
//! | 2 | versions 4 and 5: king-table entries, u16 (twice the dark squares, 100 on 10x10, or 0) |
//! | 1 | phases, u8 = 2 (middle game, endgame) |
//! | 1 | fraction bits of the weights, u8 = 3 (a weight `w` is `w / 8` hundredths of a man) |
//! | 4 | K, f32: the logistic scale the weights were fitted with (informative) |
//! | regions x 6561 x 2 x 2 | pattern weights, i16: region by region, configuration by configuration (the ternary number of the region's squares, in bit order, 0 empty, 1 side to move's man, 2 the other's), middle game then endgame |
//! | edges x 19683 x 2 x 2 | edge-pattern weights (if any), the same way ([`super::features::Edges`] gives their squares) |
//! | windows x 531441 x 2 x 2 | versions 3 to 5: big-window weights, the same way ([`super::features::Windows`]) |
//! | kings x 2 x 2 | versions 4 and 5: king-table weights, i16, the entries of [`super::features::king_indices`] in order |
//! | linear x 2 x 4 | linear weights, i32, middle game then endgame |
//! | 8 | checksum, u64: FNV-1a of every byte before it |
//!
//! **Version 5** stores the same pattern weights (regions, edges, windows, king table, in that
//! order) as runs, because a fit leaves most configurations of a big window unseen and at zero
//! (95 % of the pairs of an 8x8 fit on 2 M positions): until every entry is covered, an unsigned
//! LEB128 count of `[0, 0]` pairs, an unsigned LEB128 count `n` of pairs stored as they are, then
//! those `n` pairs (i16 middle game, i16 endgame). An 8x8 fit with big windows shrinks from
//! 13 MB to well under 1 MB; decoding gives the same net as the dense file. Nets with big windows are
//! written as version 5; the others keep the oldest version that holds them.
//!
//! A file is refused, with the reason, when it is too short or too long, the magic, version, sizes
//! or checksum are wrong, or it is for another variant or board.

use super::features::{
    EDGE_ENTRIES, EDGE_SQUARES, EDGES, ENTRIES, KING_ATTACKED, LINEAR, LINEAR_V3, REGION_SQUARES, Regions,
    WINDOW_ENTRIES, WINDOW_SQUARES, Windows,
};
use super::table::{Net, SHIFT, king_entries};
use crate::bytes::{ByteReader, push_varint};
use crate::draughts::geom::Geometry;
use crate::draughts::rules::Rules;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"TEMPOPAT";
/// The format version of a net without edge patterns (what every file was before them).
pub const VERSION: u32 = 1;
/// The format version of a net with edge patterns.
pub const VERSION_EDGES: u32 = 2;
/// The format version of a net with big windows (with or without edge patterns).
pub const VERSION_WINDOWS: u32 = 3;
/// The format version of a net with the king table and the attacked king squares (with or
/// without edge patterns and big windows).
pub const VERSION_KINGS: u32 = 4;
/// The format version of version 4 with its pattern weights stored as runs of zero and stored
/// pairs (the version of every net with big windows).
pub const VERSION_SPARSE: u32 = 5;

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Appends a pattern weight pair, middle game then endgame.
fn push_pair(out: &mut Vec<u8>, w: [i16; 2]) {
    out.extend_from_slice(&w[0].to_le_bytes());
    out.extend_from_slice(&w[1].to_le_bytes());
}

/// Reads a pattern weight pair, middle game then endgame (what [`push_pair`] writes).
fn read_pair(r: &mut ByteReader) -> Result<[i16; 2], String> {
    Ok([r.u16("patterns")? as i16, r.u16("patterns")? as i16])
}

/// Appends `patterns` as version 5's runs: a count of zero pairs, a count of stored pairs, the
/// stored pairs, until the end.
fn push_sparse(out: &mut Vec<u8>, patterns: &[[i16; 2]]) {
    let mut at = 0;
    while at < patterns.len() {
        let zeros = patterns[at..].iter().take_while(|w| **w == [0, 0]).count();
        let stored = patterns[at + zeros..]
            .iter()
            .take_while(|w| **w != [0, 0])
            .count();
        push_varint(out, zeros as u32);
        push_varint(out, stored as u32);
        for w in &patterns[at + zeros..at + zeros + stored] {
            push_pair(out, *w);
        }
        at += zeros + stored;
    }
}

/// Reads `entries` pattern weight pairs stored as version 5's runs.
fn read_sparse(r: &mut ByteReader, entries: usize) -> Result<Vec<[i16; 2]>, String> {
    let mut patterns = vec![[0i16; 2]; entries];
    let mut at = 0;
    while at < entries {
        let zeros = r.varint("pattern runs")? as usize;
        let stored = r.varint("pattern runs")? as usize;
        if zeros + stored == 0 || at + zeros + stored > entries {
            return Err(format!(
                "a run of {zeros} zero and {stored} stored pattern weights at entry {at} of {entries}"
            ));
        }
        at += zeros;
        for w in &mut patterns[at..at + stored] {
            *w = read_pair(r)?;
        }
        at += stored;
    }
    Ok(patterns)
}

/// The file bytes of `net`.
pub fn encode(net: &Net) -> Vec<u8> {
    // Nets with big windows are mostly zero and go sparse; the others keep the oldest version
    // that holds them, so that their files stay the same byte for byte.
    let version = if net.windows > 0 {
        VERSION_SPARSE
    } else if net.kings > 0 || net.linear[KING_ATTACKED] != [0, 0] {
        VERSION_KINGS
    } else if net.edges > 0 {
        VERSION_EDGES
    } else {
        VERSION
    };
    encode_as(net, version)
}

/// The file bytes of `net` in format `version`, which must hold it (a version before 4 has no
/// king terms, before 3 no big windows, before 2 no edge patterns).
fn encode_as(net: &Net, version: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + net.patterns.len() * 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.push(net.variant.len() as u8);
    out.extend_from_slice(net.variant.as_bytes());
    out.push(net.width as u8);
    out.push(net.height as u8);
    out.extend_from_slice(&(net.regions as u16).to_le_bytes());
    out.push(REGION_SQUARES as u8);
    let linear = if version >= VERSION_KINGS {
        LINEAR
    } else {
        LINEAR_V3
    };
    out.extend_from_slice(&(linear as u16).to_le_bytes());
    if version >= VERSION_EDGES {
        out.extend_from_slice(&(net.edges as u16).to_le_bytes());
        out.push(EDGE_SQUARES as u8);
    }
    if version >= VERSION_WINDOWS {
        out.extend_from_slice(&(net.windows as u16).to_le_bytes());
        out.push(WINDOW_SQUARES as u8);
    }
    if version >= VERSION_KINGS {
        out.extend_from_slice(&(net.kings as u16).to_le_bytes());
    }
    out.push(2);
    out.push(SHIFT as u8);
    out.extend_from_slice(&net.k.to_le_bytes());
    if version == VERSION_SPARSE {
        push_sparse(&mut out, &net.patterns);
    } else {
        for w in &net.patterns {
            push_pair(&mut out, *w);
        }
    }
    for w in &net.linear[..linear] {
        out.extend_from_slice(&w[0].to_le_bytes());
        out.extend_from_slice(&w[1].to_le_bytes());
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Decodes a weight file for variant `variant` on a `width` x `height` board.
///
/// # Errors
/// Not a weight file, another version, a bad checksum, truncated or trailing bytes, or weights of
/// another variant or board; the message says which.
pub fn decode(bytes: &[u8], variant: &str, width: u32, height: u32) -> Result<Net, String> {
    let mut r = ByteReader::new(bytes);
    if r.take(MAGIC.len(), "magic")? != MAGIC {
        return Err("not a Tempo weight file (the magic TEMPOPAT is missing)".into());
    }
    let version = r.u32("version")?;
    if !(VERSION..=VERSION_SPARSE).contains(&version) {
        return Err(format!(
            "weight file version {version}; this Tempo reads versions {VERSION} to {VERSION_SPARSE}"
        ));
    }
    if bytes.len() < 8 || fnv1a(&bytes[..bytes.len() - 8]).to_le_bytes() != bytes[bytes.len() - 8..] {
        return Err("bad checksum: the file is corrupt or truncated".into());
    }
    let n = usize::from(r.u8("variant name")?);
    let name = String::from_utf8_lossy(r.take(n, "variant name")?).into_owned();
    if name != variant {
        return Err(format!("the weights are for {name}, not for {variant}"));
    }
    let (w, h) = (u32::from(r.u8("board size")?), u32::from(r.u8("board size")?));
    if (w, h) != (width, height) {
        return Err(format!(
            "the weights are for a {w}x{h} board, {variant} is played on {width}x{height}"
        ));
    }
    let regions = usize::from(r.u16("region count")?);
    let expected = Regions::new(width, height).count;
    if regions != expected {
        return Err(format!(
            "{regions} regions; a {width}x{height} board has {expected}"
        ));
    }
    let squares = usize::from(r.u8("region size")?);
    let linear = usize::from(r.u16("linear count")?);
    let edges = if version >= VERSION_EDGES {
        let edges = usize::from(r.u16("edge-pattern count")?);
        let squares = usize::from(r.u8("edge-pattern size")?);
        // Versions 3 to 5 say whether they have them; version 2 always has them.
        let none = version >= VERSION_WINDOWS && edges == 0;
        if !none && (edges != EDGES || squares != EDGE_SQUARES) {
            return Err(format!(
                "{edges} edge patterns of {squares} squares; this Tempo uses {EDGES} of {EDGE_SQUARES}"
            ));
        }
        edges
    } else {
        0
    };
    let windows = if version >= VERSION_WINDOWS {
        let windows = usize::from(r.u16("window count")?);
        let squares = usize::from(r.u8("window size")?);
        let expected = Windows::new(width, height).count;
        // Versions 4 and 5 say whether they have them; version 3 always has them.
        let none = version >= VERSION_KINGS && windows == 0;
        if !none && (windows != expected || squares != WINDOW_SQUARES) {
            return Err(format!(
                "{windows} big windows of {squares} squares; this Tempo uses {expected} of \
                 {WINDOW_SQUARES} on a {width}x{height} board"
            ));
        }
        windows
    } else {
        0
    };
    let kings = if version >= VERSION_KINGS {
        let kings = usize::from(r.u16("king-table entries")?);
        let expected = king_entries(width, height);
        if kings != 0 && kings != expected {
            return Err(format!(
                "{kings} king-table entries; a {width}x{height} board has {expected}"
            ));
        }
        kings
    } else {
        0
    };
    let phases = r.u8("phase count")?;
    let shift = u32::from(r.u8("fraction bits")?);
    let terms = if version >= VERSION_KINGS {
        LINEAR
    } else {
        LINEAR_V3
    };
    if squares != REGION_SQUARES || linear != terms || phases != 2 || shift != SHIFT {
        return Err(format!(
            "feature counts {squares} squares a region, {linear} linear terms, {phases} phases, \
             {shift} fraction bits; version {version} has {REGION_SQUARES}, {terms}, 2, {SHIFT}"
        ));
    }
    let k = r.f32("K")?;
    let entries = regions * ENTRIES + edges * EDGE_ENTRIES + windows * WINDOW_ENTRIES + kings;
    let patterns = if version == VERSION_SPARSE {
        read_sparse(&mut r, entries)?
    } else {
        let dense = entries * 4;
        if r.rest().len() != dense + terms * 8 + 8 {
            return Err(format!(
                "the file has {} bytes of weights and checksum, {} expected",
                r.rest().len(),
                dense + terms * 8 + 8
            ));
        }
        (0..entries)
            .map(|_| read_pair(&mut r))
            .collect::<Result<Vec<_>, _>>()?
    };
    if r.rest().len() != terms * 8 + 8 {
        return Err(format!(
            "the file has {} bytes of linear weights and checksum after the patterns, {} expected",
            r.rest().len(),
            terms * 8 + 8
        ));
    }
    // Terms a file before version 4 does not have weigh nothing.
    let mut lin = [[0i32; 2]; LINEAR];
    for w in &mut lin[..terms] {
        *w = [r.u32("linear")? as i32, r.u32("linear")? as i32];
    }
    Ok(Net {
        variant: name,
        width,
        height,
        regions,
        edges,
        windows,
        kings,
        patterns,
        linear: lin,
        k,
    })
}

/// Decodes a weight file for variant `R`.
///
/// # Errors
/// As [`decode`].
pub fn decode_for<R: Rules>(bytes: &[u8]) -> Result<Net, String> {
    decode(
        bytes,
        R::NAME,
        <R::Board as Geometry>::WIDTH,
        <R::Board as Geometry>::HEIGHT,
    )
}

/// The largest weight file read: a version-2 12x12 file is a few MB.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::BrazilianRules;

    fn sample_net() -> Net {
        let mut net = Net::initial::<BrazilianRules>();
        for (i, w) in net.patterns.iter_mut().enumerate() {
            *w = [(i % 97) as i16 - 48, -((i % 31) as i16)];
        }
        net.linear[3] = [12, -7];
        net.k = 321.5;
        net
    }

    #[test]
    fn a_weight_file_round_trips() {
        let net = sample_net();
        let bytes = encode(&net);
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), VERSION);
        assert_eq!(decode_for::<BrazilianRules>(&bytes).unwrap(), net);
    }

    #[test]
    fn a_weight_file_with_edge_patterns_round_trips_as_version_2() {
        let mut net = Net::initial_with::<BrazilianRules>(true);
        for (i, w) in net.patterns.iter_mut().enumerate() {
            *w = [(i % 89) as i16 - 44, (i % 13) as i16];
        }
        let bytes = encode(&net);
        assert_eq!(
            u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
            VERSION_EDGES
        );
        let back = decode_for::<BrazilianRules>(&bytes).unwrap();
        assert_eq!(back.edges, EDGES);
        assert_eq!(back, net);
        // The same weights without the edge patterns' table are a version-1 file of another size.
        assert!(bytes.len() > encode(&sample_net()).len() + EDGES * EDGE_ENTRIES * 4 - 4);
    }

    /// A net with a king table, or with only the attacked king squares weighted, is a version-4
    /// file that reads back as the same net, with or without big windows; a king table of the
    /// wrong size is refused (that a shipped, older file reads the new term as zero is checked
    /// with the shipped weights, in [`super::super::choice`]).
    #[test]
    fn a_weight_file_with_king_terms_round_trips_as_version_4() {
        for (windows, kings) in [(false, true), (true, true), (false, false)] {
            let mut net = Net::initial_of::<BrazilianRules>(true, windows).with_kings(kings);
            assert_eq!(net.kings, if kings { 64 } else { 0 });
            for (i, w) in net.patterns.iter_mut().enumerate() {
                *w = [(i % 83) as i16 - 40, (i % 11) as i16];
            }
            net.linear[KING_ATTACKED] = [-40, -25];
            let bytes = encode_as(&net, VERSION_KINGS);
            assert_eq!(
                u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
                VERSION_KINGS
            );
            assert_eq!(decode_for::<BrazilianRules>(&bytes).unwrap(), net);
            if !windows {
                assert_eq!(encode(&net), bytes);
            }
        }
        // The king-table count is the last u16 before the phases, fraction bits and K.
        let net = Net::initial::<BrazilianRules>().with_kings(true);
        let bytes = encode(&net);
        let at = 12 + 1 + "brazilian".len() + 2 + 2 + 1 + 2 + 3 + 3;
        assert_eq!(bytes[at], 64);
        let mut recounted = bytes[..bytes.len() - 8].to_vec();
        recounted[at] = 50;
        let sum = fnv1a(&recounted);
        recounted.extend_from_slice(&sum.to_le_bytes());
        let err = decode_for::<BrazilianRules>(&recounted).unwrap_err();
        assert!(err.contains("50 king-table entries"), "{err}");
    }

    /// A net with big windows (and weights everywhere) written as a dense version-3 file reads back
    /// as the same net, with or without edge patterns; a corrupt one is refused.
    #[test]
    fn a_weight_file_with_big_windows_round_trips_as_version_3() {
        use crate::draughts::rules::InternationalRules;
        for edges in [false, true] {
            let mut net = Net::initial_of::<InternationalRules>(edges, true);
            assert_eq!(net.windows, 8);
            for (i, w) in net.patterns.iter_mut().enumerate() {
                *w = [(i % 89) as i16 - 44, (i % 13) as i16];
            }
            net.linear[2] = [-5, 9];
            let bytes = encode_as(&net, VERSION_WINDOWS);
            assert_eq!(
                u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
                VERSION_WINDOWS
            );
            let tables = 16 * ENTRIES + net.edges * EDGE_ENTRIES + 8 * WINDOW_ENTRIES;
            assert!(bytes.len() > tables * 4, "{}", bytes.len());
            let back = decode_for::<InternationalRules>(&bytes).unwrap();
            assert_eq!(back.windows, 8);
            assert_eq!(back.edges, net.edges);
            assert_eq!(back, net);
            // One bit flipped in the windows' weights, near the end of the file.
            let mut flipped = bytes.clone();
            let at = bytes.len() - 1000;
            flipped[at] ^= 0x10;
            let err = decode_for::<InternationalRules>(&flipped).unwrap_err();
            assert!(err.contains("checksum"), "{err}");
            // A window count that is not the board's, with a checksum that matches.
            let mut recounted = bytes[..bytes.len() - 8].to_vec();
            let count_at = 12 + 1 + "international".len() + 2 + 2 + 1 + 2 + 3;
            assert_eq!(recounted[count_at], 8);
            recounted[count_at] = 7;
            let sum = fnv1a(&recounted);
            recounted.extend_from_slice(&sum.to_le_bytes());
            let err = decode_for::<InternationalRules>(&recounted).unwrap_err();
            assert!(err.contains("7 big windows"), "{err}");
            // Truncated by the last window's table.
            let mut short = bytes[..bytes.len() - 8 - WINDOW_ENTRIES * 4].to_vec();
            let sum = fnv1a(&short);
            short.extend_from_slice(&sum.to_le_bytes());
            let err = decode_for::<InternationalRules>(&short).unwrap_err();
            assert!(err.contains("bytes of weights"), "{err}");
        }
        // Without windows a net keeps its old version.
        let old = Net::initial_of::<InternationalRules>(true, false);
        assert_eq!(
            u32::from_le_bytes(encode(&old)[8..12].try_into().unwrap()),
            VERSION_EDGES
        );
    }

    /// A net with big windows is written as version 5: the zero runs take a few bytes, the file
    /// reads back as the same net as the dense version-4 file, and runs that overflow the table,
    /// stop short of it, or make no progress are refused.
    #[test]
    fn a_net_with_big_windows_is_written_sparse_as_version_5() {
        let mut net = Net::initial_of::<BrazilianRules>(true, true).with_kings(true);
        let entries = net.patterns.len();
        // Zero except a scattering of entries, some in runs, as a fit leaves a big window.
        for (i, w) in net.patterns.iter_mut().enumerate() {
            if i % 37 == 0 || (i % 1000 < 3) || i == entries - 1 {
                *w = [(i % 89) as i16 - 44, -((i % 7) as i16) - 1];
            } else {
                *w = [0, 0];
            }
        }
        net.linear[KING_ATTACKED] = [-3, 4];
        let bytes = encode(&net);
        assert_eq!(
            u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
            VERSION_SPARSE
        );
        let stored = net.patterns.iter().filter(|w| **w != [0, 0]).count();
        assert!(bytes.len() < stored * 4 + 3 * 2 * stored + 200, "{}", bytes.len());
        assert!(bytes.len() * 10 < entries * 4);
        let back = decode_for::<BrazilianRules>(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(
            decode_for::<BrazilianRules>(&encode_as(&net, VERSION_KINGS)).unwrap(),
            back
        );
        // An all-zero net is its header, one run and its linear weights.
        let zero = Net::initial_of::<BrazilianRules>(false, true);
        assert!(encode(&zero).len() < 60 + LINEAR * 8, "{}", encode(&zero).len());
        assert_eq!(decode_for::<BrazilianRules>(&encode(&zero)).unwrap(), zero);
        // Hand-made run sections after the header of `bytes`, each closed by the linear weights
        // and a checksum that matches.
        let header = bytes.len() - sparse_len(&net.patterns) - LINEAR * 8 - 8;
        let with_runs = |runs: &[u8]| {
            let mut f = bytes[..header].to_vec();
            f.extend_from_slice(runs);
            f.extend_from_slice(&[0; LINEAR * 8]);
            let sum = fnv1a(&f);
            f.extend_from_slice(&sum.to_le_bytes());
            decode_for::<BrazilianRules>(&f)
        };
        let mut all = Vec::new();
        push_varint(&mut all, entries as u32);
        push_varint(&mut all, 0);
        assert!(with_runs(&all).unwrap().patterns.iter().all(|w| *w == [0, 0]));
        let mut over = Vec::new();
        push_varint(&mut over, entries as u32);
        push_varint(&mut over, 1);
        over.extend_from_slice(&[1, 0, 2, 0]);
        let err = with_runs(&over).unwrap_err();
        assert!(err.contains("run of"), "{err}");
        let err = with_runs(&[0, 0]).unwrap_err();
        assert!(err.contains("run of 0 zero and 0 stored"), "{err}");
        let mut short = Vec::new();
        push_varint(&mut short, entries as u32 - 1);
        push_varint(&mut short, 0);
        assert!(with_runs(&short).is_err());
        let mut long = all.clone();
        long.push(0);
        let err = with_runs(&long).unwrap_err();
        assert!(err.contains("linear weights and checksum"), "{err}");
    }

    /// The length of `patterns` as version 5's runs.
    fn sparse_len(patterns: &[[i16; 2]]) -> usize {
        let mut out = Vec::new();
        push_sparse(&mut out, patterns);
        out.len()
    }

    #[test]
    fn corrupt_files_are_refused_with_the_reason() {
        let bytes = encode(&sample_net());
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert!(
            decode_for::<BrazilianRules>(&flipped)
                .unwrap_err()
                .contains("checksum")
        );
        let truncated = &bytes[..bytes.len() - 100];
        assert!(
            decode_for::<BrazilianRules>(truncated)
                .unwrap_err()
                .contains("checksum")
        );
        assert!(
            decode_for::<BrazilianRules>(&bytes[..10])
                .unwrap_err()
                .contains("truncated")
        );
        let err = decode(&bytes, "russian", 8, 8).unwrap_err();
        assert!(err.contains("for brazilian, not for russian"), "{err}");
        assert!(
            decode_for::<BrazilianRules>(b"hello world")
                .unwrap_err()
                .contains("magic")
        );
        let mut longer = bytes[..bytes.len() - 8].to_vec();
        longer.extend_from_slice(&[0, 0]);
        let sum = fnv1a(&longer);
        longer.extend_from_slice(&sum.to_le_bytes());
        assert!(
            decode_for::<BrazilianRules>(&longer)
                .unwrap_err()
                .contains("bytes of weights")
        );
    }
}
