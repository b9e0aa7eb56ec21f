//! `tempo egdb build | probe | verify`.

use super::build::{Built, build_slice, decided, swapped};
use super::file;
use super::index::{Material, SliceIndex, Walk};
use super::registry::{self, Tables, read_slice, slice_path};
use super::{Code, Source, Value, best_move, parent_code, preference, solve, supports};
use crate::draughts::Draughts;
use crate::draughts::rules::Rules;
use crate::fsutil::write_atomic;
use crate::game::{Game, MoveList, MoveStyle};
use crate::variant::Variant;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Arguments of `tempo egdb`.
#[derive(clap::Args)]
pub struct EgdbArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: EgdbCommand,
}

/// The `tempo egdb` subcommands.
#[derive(clap::Subcommand)]
pub enum EgdbCommand {
    /// Build the tables of every slice up to N pieces (slices already built and sound are kept).
    Build(BuildArgs),
    /// Print the value of a position by the tables, and the best move.
    Probe(ProbeArgs),
    /// Re-check every stored value of every slice file against its successors.
    Verify(VerifyArgs),
    /// Print positions drawn at random from the tables (FEN, one a line), for conversion matches.
    Sample(SampleArgs),
}

/// `--egdb DIR [--egdb-pieces N]`: endgame tables for the command-line searches (`tempo search`,
/// `tempo analyze`), which have no protocol to report a background load on.
#[derive(clap::Args, Clone, Debug)]
pub struct TableArgs {
    /// Endgame tables: the directory holding `<variant>/*.egdb` (built by `tempo egdb build`).
    /// They are mapped and their checksums checked before the search starts (a line on standard
    /// error says what was loaded). Without it, the default tables that `tempo hub` and `tempo
    /// uci` build in their cache folder are used once they exist (TEMPO_EGDB_CACHE=off: none).
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<String>,
    /// The most pieces a position may have to be probed in the tables.
    #[arg(long, value_name = "N", default_value_t = registry::DEFAULT_PIECES, requires = "egdb")]
    pub egdb_pieces: u32,
}

impl TableArgs {
    /// Loads the tables of `variant`, when `--egdb` names a directory, and waits for them.
    /// Without `--egdb`, the default tables that `tempo hub` or `tempo uci` built in the cache
    /// folder are loaded if they are there (`TEMPO_EGDB_CACHE=off` leaves them out), so that an
    /// analysis scores endgames as the engine that played them did.
    ///
    /// # Errors
    /// What [`registry::load_and_wait`] refuses, prefixed with `--egdb DIR`.
    pub fn load(&self, variant: Variant) -> Result<(), String> {
        if let Some(dir) = &self.egdb {
            let loaded = registry::load_and_wait(variant, dir, self.egdb_pieces)
                .map_err(|e| format!("--egdb {dir}: {e}"))?;
            crate::stderr_line!("{loaded}");
        } else if let Some(loaded) = registry::load_built_defaults(variant) {
            // Damaged default files are rebuilt by the next engine that starts; a batch command
            // goes on without tables rather than failing over a cache.
            match loaded {
                Ok(line) => crate::stderr_line!("{line}"),
                Err(e) => crate::stderr_line!("egdb: no default tables: {e}"),
            }
        }
        Ok(())
    }
}

/// Arguments of `tempo egdb sample`.
#[derive(clap::Args)]
pub struct SampleArgs {
    /// Variant.
    #[arg(long, short, default_value = "international")]
    pub variant: String,
    /// Directory of the tables.
    #[arg(long, default_value = "egdb")]
    pub dir: PathBuf,
    /// Pieces on the board.
    #[arg(long, short)]
    pub pieces: u32,
    /// How many positions.
    #[arg(long, default_value_t = 20)]
    pub count: usize,
    /// `win` (the side to move wins in at least --min-plies), `draw`, or `loss`.
    #[arg(long, default_value = "win", value_parser = ["win", "draw", "loss"])]
    pub value: String,
    /// Shortest win kept, in plies.
    #[arg(long, default_value_t = 15)]
    pub min_plies: u32,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The most threads `egdb build` and `egdb verify` start: each takes a block of work at a time,
/// and far more threads than cores only cost their start (100,000 took minutes).
pub const MAX_THREADS: usize = 1024;

fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => {
            let shown: String = text.chars().take(80).collect();
            Err(format!("{shown:?} is not a whole number from 1 to {MAX_THREADS}"))
        }
    }
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Arguments of `tempo egdb build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// Variant (international, russian, brazilian, english, frisian, italian, pool, spanish, portuguese,
    /// czech, thai, canadian, killer).
    #[arg(long, short)]
    pub variant: String,
    /// Most pieces on the board.
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(2..=8))]
    pub pieces: u32,
    /// Directory of the tables (files go to `DIR/<variant>/`).
    #[arg(long, default_value = "egdb")]
    pub dir: PathBuf,
    /// Threads (default: all cores; at most 1024, as `tempo selfplay`).
    #[arg(long, short, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Build only this slice (four digits: White men, White kings, Black men, Black kings, e.g.
    /// 0201); the slices it converts into must be built already.
    #[arg(long)]
    pub slice: Option<String>,
    /// Print the slices in build order (the dependency order) with their pieces, men and indices
    /// (both sides to move; the builder holds two bytes an index while a slice is in memory), and
    /// stop.
    #[arg(long)]
    pub list: bool,
    /// Memory to plan for, in GB (default: three quarters of the machine's). A slice being built
    /// takes about 2.5 bytes an index; the slices it reads are held decoded (two bytes an index)
    /// while they fit, else read from their files.
    #[arg(long)]
    pub memory: Option<f64>,
}

/// Arguments of `tempo egdb probe`.
#[derive(clap::Args)]
pub struct ProbeArgs {
    /// Variant.
    #[arg(long, short, default_value = "international")]
    pub variant: String,
    /// Directory of the tables.
    #[arg(long, default_value = "egdb")]
    pub dir: PathBuf,
    /// The position, as FEN.
    pub fen: String,
}

/// Arguments of `tempo egdb verify`.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Variant.
    #[arg(long, short, default_value = "international")]
    pub variant: String,
    /// Directory of the tables.
    #[arg(long, default_value = "egdb")]
    pub dir: PathBuf,
    /// Most pieces to verify.
    #[arg(long, short, default_value_t = 8)]
    pub pieces: u32,
    /// Threads (default: all cores; at most 1024, as `tempo selfplay`).
    #[arg(long, short, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Verify only this slice (four digits, as `build --slice`), reading the slices it converts
    /// into: a long verification split into jobs, or spread over sessions.
    #[arg(long)]
    pub slice: Option<String>,
}

/// Runs `tempo egdb`.
///
/// # Errors
/// A message for the user.
pub fn run(args: &EgdbArgs) -> Result<(), String> {
    let name = match &args.command {
        EgdbCommand::Build(a) => &a.variant,
        EgdbCommand::Probe(a) => &a.variant,
        EgdbCommand::Verify(a) => &a.variant,
        EgdbCommand::Sample(a) => &a.variant,
    };
    let v: Variant = name.parse().map_err(|e| format!("{e}"))?;
    crate::with_egdb_rules!(v, R => {
        debug_assert!(supports::<R>());
        match &args.command {
            EgdbCommand::Build(a) => build::<R>(a),
            EgdbCommand::Probe(a) => probe::<R>(a),
            EgdbCommand::Verify(a) => verify::<R>(a).map(|_| ()),
            EgdbCommand::Sample(a) => sample::<R>(a),
        }
    }, Err(format!("no endgame tables for {} (supported: the diagonal variants with the normal goal)", v.name())))
}

/// The memory `build` plans for by default: three quarters of the machine's (from
/// `/proc/meminfo`), or 8 GB where that cannot be read.
pub fn default_memory() -> u64 {
    crate::meminfo::kib("MemTotal").map_or(8 << 30, |kib| kib * 1024 / 4 * 3)
}

/// Bytes the builder plans for a slice of `len` indices while it solves and encodes it: two an
/// index for the codes, and the file being written, planned as half a byte an index (the files
/// measured hold 0.06 to 0.46 bytes a position for Frisian's five-piece slices and up to about one
/// for the 8x8 six-piece ones, docs/egdb.md: a plan, not a bound).
fn solve_bytes(len: u64) -> u64 {
    len * 2 + len / 2
}

/// Before a slice of `top` pieces is built: holds decoded what it reads (its twin to mirror, or
/// the slices its promotions lead to) as far as `memory` allows, the rest of those as their
/// files, and drops the other slices of `top` pieces (they are on disk, read again when a later
/// slice needs them). Slices with fewer pieces stay decoded.
fn prepare<R: Rules>(
    built: &mut Built<R>,
    dir: &Path,
    m: Material,
    mirror: bool,
    memory: u64,
) -> Result<(), String> {
    let mut wanted: Vec<Material> = Vec::new();
    if mirror {
        wanted.push(swapped(m));
    } else {
        if m.wm > 0 {
            wanted.push(Material {
                wm: m.wm - 1,
                wk: m.wk + 1,
                ..m
            });
        }
        if m.bm > 0 {
            wanted.push(Material {
                bm: m.bm - 1,
                bk: m.bk + 1,
                ..m
            });
        }
    }
    for held in built.held_at(m.total()) {
        if !wanted.contains(&held) {
            built.remove(held);
        }
    }
    let len = |x: Material| SliceIndex::new::<R>(x).len();
    wanted.sort_by_key(|&x| len(x));
    let own = if mirror { len(m) / 2 } else { solve_bytes(len(m)) };
    for x in wanted {
        let decoded = built.get(x).is_some();
        let packed = built.has(x) && !decoded;
        let others = built.bytes() as u64 - built.bytes_of(x) as u64;
        let fits = mirror || others + own + 2 * len(x) <= memory;
        if decoded && fits || packed && !fits {
            continue;
        }
        built.remove(x);
        let f = read_slice::<R>(dir, x)?;
        if fits {
            let codes = decode_named::<R>(&f, dir, x)?;
            built.insert(super::build::SliceTable {
                index: f.index.clone(),
                codes,
            });
        } else {
            built.insert_packed(f);
        }
    }
    Ok(())
}

/// Builds (or resumes) every slice up to `pieces` of variant `R` in `dir`; returns the figures
/// line of each slice built or kept. `memory` (bytes) bounds what the builder plans to hold: a
/// slice it reads that does not fit decoded is read from its file, a block a look-up.
///
/// # Errors
/// I/O errors, or a missing dependency with `--slice`.
pub fn build_all<R: Rules>(
    dir: &Path,
    pieces: u32,
    threads: usize,
    memory: u64,
    only: Option<Material>,
    log: &mut dyn FnMut(&str),
) -> Result<Vec<String>, String> {
    build_all_while::<R>(dir, pieces, threads, memory, only, log, &|| true)
}

/// The message of a build that [`build_all_while`] stopped because `go_on` said so.
pub const STOPPED: &str = "the build was stopped";

/// [`build_all`], asking `go_on` before each slice and stopping with the error [`STOPPED`] when it
/// says no (the slices already written stay, and a later build keeps them): the default tables
/// of a variant the engine has left are not finished in the background.
///
/// # Errors
/// As [`build_all`], or [`STOPPED`].
pub fn build_all_while<R: Rules>(
    dir: &Path,
    pieces: u32,
    threads: usize,
    memory: u64,
    only: Option<Material>,
    log: &mut dyn FnMut(&str),
    go_on: &dyn Fn() -> bool,
) -> Result<Vec<String>, String> {
    let vdir = dir.join(R::ENDGAME);
    std::fs::create_dir_all(&vdir).map_err(|e| format!("{}: {e}", vdir.display()))?;
    let order = match only {
        Some(m) => Material::all_up_to(m.total())
            .into_iter()
            .take_while(|x| *x != m)
            .chain([m])
            .collect(),
        None => Material::all_up_to(pieces),
    };
    let top = only.map_or(pieces, Material::total);
    let mut built = Built::<R>::default();
    let mut lines = Vec::new();
    let started = Instant::now();
    for m in order {
        if !go_on() {
            return Err(STOPPED.into());
        }
        built.release_before(m, top);
        let path = slice_path(dir, R::ENDGAME, m);
        if path.exists() {
            match read_slice::<R>(dir, m) {
                Ok(f) => {
                    if only.is_none_or(|o| o == m) {
                        log(&format!("slice {m}: kept ({} bytes, checksum sound)", f.bytes()));
                    }
                    if m.total() < top {
                        let codes = decode_named::<R>(&f, dir, m)?;
                        built.insert(super::build::SliceTable {
                            index: f.index.clone(),
                            codes,
                        });
                    }
                    // A slice of `top` pieces is read again when a later one needs it.
                    continue;
                }
                Err(e) => log(&format!("slice {m}: rebuilding: {e}")),
            }
        } else if only.is_some_and(|o| o != m) {
            return Err(format!(
                "slice {m} is missing: build the slices in dependency order (--list)"
            ));
        }
        let t0 = Instant::now();
        let twin = swapped(m);
        let mirror = twin != m && (built.has(twin) || slice_path(dir, R::ENDGAME, twin).exists());
        if m.total() == top {
            prepare(&mut built, dir, m, mirror, memory)?;
        }
        if mirror && let Some(src) = built.get(twin) {
            let bytes = super::build::mirror_file::<R>(src, m, threads);
            write_atomic(&path, &bytes)?;
            let line = format!(
                "{} {m} pieces {} mirrored from {twin} time {:.2} s bytes {}",
                R::ENDGAME,
                m.total(),
                t0.elapsed().as_secs_f64(),
                bytes.len()
            );
            log(&line);
            lines.push(line);
            if m.total() < top {
                let f = file::SliceFile::decode(R::ENDGAME, SliceIndex::new::<R>(m), bytes)?;
                let codes = decode_named::<R>(&f, dir, m)?;
                built.insert(super::build::SliceTable {
                    index: f.index,
                    codes,
                });
            }
            continue;
        }
        let (table, stats) = build_slice::<R, _>(&built, m, threads, log);
        let bytes = file::encode(R::ENDGAME, &table.index, &table.codes);
        write_atomic(&path, &bytes)?;
        let line = format!(
            "{} {m} pieces {} positions {} time {:.2} s bytes {} ({:.3} bytes a position) longest {} plies; memory held {:.1} MB",
            R::ENDGAME,
            m.total(),
            stats.positions,
            t0.elapsed().as_secs_f64(),
            bytes.len(),
            bytes.len() as f64 / stats.positions.max(1) as f64,
            stats.longest,
            (built.bytes() + table.codes.len() * 2 + bytes.len()) as f64 / 1e6
        );
        log(&line);
        lines.push(line);
        built.insert(table);
    }
    log(&format!(
        "{}: done in {:.1} s",
        R::ENDGAME,
        started.elapsed().as_secs_f64()
    ));
    Ok(lines)
}

/// Every code of slice `m`'s file `f` in `dir`, or an error naming the file (a block that does
/// not decode behind a sound checksum).
fn decode_named<R: Rules>(f: &file::SliceFile, dir: &Path, m: Material) -> Result<Vec<Code>, String> {
    f.decode_all()
        .map_err(|e| format!("{}: {e}", slice_path(dir, R::ENDGAME, m).display()))
}

fn build<R: Rules>(a: &BuildArgs) -> Result<(), String> {
    let only = a.slice.as_deref().map(Material::parse).transpose()?;
    if a.list {
        for (i, m) in Material::all_up_to(a.pieces).iter().enumerate() {
            crate::say!(
                "{i} {m} pieces {} men {} indices {}",
                m.total(),
                m.men(),
                SliceIndex::new::<R>(*m).len()
            )?;
        }
        return Ok(());
    }
    let threads = a.threads.unwrap_or_else(default_threads).max(1);
    let memory = a.memory.map_or_else(default_memory, |gb| (gb * 1e9) as u64);
    build_all::<R>(&a.dir, a.pieces, threads, memory, only, &mut |s| {
        crate::stderr_line!("{s}")
    })?;
    Ok(())
}

fn probe<R: Rules>(a: &ProbeArgs) -> Result<(), String> {
    let pos = Draughts::<R>::from_fen(&a.fen).map_err(|e| format!("bad FEN {:?}: {e}", a.fen))?;
    let tables = registry::load::<R>(&a.dir, super::index::MAX_GROUP as u32)?;
    let n = Material::of(&pos).total();
    if n > tables.pieces {
        return Err(format!(
            "{} pieces, but the tables in {} cover {} pieces{}",
            n,
            a.dir.display(),
            tables.pieces,
            tables.why_not_more()
        ));
    }
    let code = solve::<R, Tables>(&tables, &pos).ok_or("a slice is missing")?;
    crate::say!("value {}", Value::of(code))?;
    match best_move::<R, Tables>(&tables, &pos) {
        Some((mv, c)) => crate::say!(
            "bestmove {} ({})",
            pos.format_move(&mv, MoveStyle::Standard),
            Value::of(c)
        )?,
        None => crate::say!("bestmove none")?,
    }
    Ok(())
}

/// Re-checks every slice file of variant `R` in `dir` up to `pieces`: each stored value of a
/// position without a pending capture must equal the best of its successors' values. Returns the
/// positions checked.
///
/// Every file's header is checked first; then the slices are read (their checksums checked) and
/// decoded one by one, in build order, and kept decoded while a later slice can read them (two
/// bytes an index, as `build` keeps them), so a successor's value is an array read rather than
/// the decoding of a block per probe. At the most pieces, a slice's promotions are read as
/// `build` reads them ([`default_memory`] bounds what is held decoded; see `prepare`).
///
/// # Errors
/// A corrupt file, or a value that disagrees (the first few are named).
pub fn verify_all<R: Rules>(
    dir: &Path,
    pieces: u32,
    threads: usize,
    only: Option<Material>,
    log: &mut dyn FnMut(&str),
) -> Result<u64, String> {
    let pieces = only.map_or(pieces, Material::total);
    let (_, order, _) = registry::find::<R>(dir, pieces)?;
    if order.is_empty() {
        return Err(format!("no tables for {} in {}", R::ENDGAME, dir.display()));
    }
    if let Some(o) = only
        && !order.contains(&o)
    {
        return Err(format!("slice {o} of {} is not in {}", R::ENDGAME, dir.display()));
    }
    let top = order.iter().map(|m| m.total()).max().unwrap_or(pieces);
    let memory = default_memory();
    let mut decoded = Built::<R>::default();
    let mut total = 0;
    for m in order {
        let t0 = Instant::now();
        if only.is_some_and(|o| o != m) {
            // Another slice: only what the chosen one reads, the slices with fewer pieces, is
            // loaded here (its promotions are read below, as `build` reads them).
            if m.total() < top {
                let f = read_slice::<R>(dir, m)?;
                let codes = decode_named::<R>(&f, dir, m)?;
                decoded.insert(super::build::SliceTable {
                    index: f.index.clone(),
                    codes,
                });
            }
            continue;
        }
        decoded.release_before(m, top);
        if m.total() == top {
            prepare(&mut decoded, dir, m, false, memory)?;
        }
        let f = read_slice::<R>(dir, m)?;
        let mut codes = decode_named::<R>(&f, dir, m)?;
        let index = f.index.clone();
        drop(f);
        let len = index.len();
        let block = file::BLOCK;
        // First the positions the slice decides (a move and no capture), one bit each; the
        // others' indices hold filler, which is replaced by their value found here (no move:
        // lost; a capture pending: the best capture, from smaller slices). A successor inside the
        // slice is then read straight from the array, instead of being asked whether it must
        // capture and its captures searched again for every position that moves into it (a move
        // generation each, most of the time in Frisian). Later slices read this one only where
        // it decides (`solve` resolves captures itself), so the values left in place are safe.
        let mut words = vec![0u64; usize::try_from(len.div_ceil(64)).unwrap_or(0)];
        // No more threads than blocks: a thread without work would only cost its start.
        let threads = threads.min(usize::try_from(len.div_ceil(block as u64)).unwrap_or(usize::MAX));
        // A slice a successor lies in that is not there: its file is missing (`find` refuses
        // files that are there but unreadable). Its positions would be skipped, and a sound slice
        // blamed for the values they change.
        let absent = std::sync::Mutex::new(None::<Material>);
        let note_absent = |n: &Noting<'_, R>| {
            if let Some(x) = n.missing.get()
                && let Ok(mut a) = absent.lock()
            {
                a.get_or_insert(x);
            }
        };
        {
            let source = &decoded;
            let index = &index;
            let work = std::sync::Mutex::new(
                codes
                    .chunks_mut(block)
                    .zip(words.chunks_mut(block / 64))
                    .enumerate()
                    .collect::<Vec<_>>(),
            );
            std::thread::scope(|s| {
                for _ in 0..threads.max(1) {
                    s.spawn(|| {
                        let source = &Noting::new(source);
                        loop {
                            let item = work.lock().map(|mut w| w.pop()).ok().flatten();
                            let Some((b, (codes, words))) = item else { break };
                            let start = (b * block) as u64;
                            let mut walk = Walk::new();
                            for (j, code) in codes.iter_mut().enumerate() {
                                let i = start + j as u64;
                                let Some(pos) = index.position_in::<R>(&mut walk, i) else {
                                    continue;
                                };
                                if decided(&pos) {
                                    words[j / 64] |= 1 << (j % 64);
                                } else {
                                    *code = solve::<R, Noting<R>>(source, &pos).unwrap_or(super::LOST_NOW);
                                }
                            }
                        }
                        note_absent(source);
                    });
                }
            });
        }
        decoded.insert(super::build::SliceTable { index, codes });
        let Some(table) = decoded.get(m) else { continue };
        let source = &decoded;
        let decided = &words;
        let is_decided = |i: u64| decided[(i / 64) as usize] & (1 << (i % 64)) != 0;
        let next = AtomicU64::new(0);
        let checked = AtomicU64::new(0);
        let bad = std::sync::Mutex::new(Vec::<String>::new());
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| {
                    let source = &Noting::new(source);
                    let mut moves = MoveList::new();
                    let mut local = 0u64;
                    loop {
                        let start = next.fetch_add(block as u64, Ordering::Relaxed);
                        if start >= len {
                            break;
                        }
                        let mut walk = Walk::new();
                        for i in start..(start + block as u64).min(len) {
                            if !is_decided(i) {
                                continue;
                            }
                            let Some(pos) = table.index.position_in::<R>(&mut walk, i) else {
                                continue;
                            };
                            moves.clear();
                            pos.generate(&mut moves);
                            let stored = table.codes.get(i as usize).copied();
                            let mut best: Option<Code> = None;
                            for mv in moves.iter() {
                                let child = pos.play_bare(mv);
                                // A quiet move that does not promote stays in the slice,
                                // where every position's value is in the array now.
                                let c = if mv.promotes {
                                    solve::<R, Noting<R>>(source, &child)
                                } else {
                                    table.codes.get(table.index.index(&child) as usize).copied()
                                };
                                if let Some(c) = c.map(parent_code)
                                    && best.is_none_or(|b| preference(c) > preference(b))
                                {
                                    best = Some(c);
                                }
                            }
                            local += 1;
                            if best != stored
                                && let Ok(mut b) = bad.lock()
                                && b.len() < 5
                            {
                                b.push(format!(
                                    "{}: stored {:?}, successors give {:?}",
                                    pos.to_fen(),
                                    stored.map(Value::of),
                                    best.map(Value::of)
                                ));
                            }
                        }
                    }
                    checked.fetch_add(local, Ordering::Relaxed);
                    note_absent(source);
                });
            }
        });
        if let Some(x) = absent.into_inner().ok().flatten() {
            return Err(format!(
                "slice {m} cannot be checked: it leads to slice {x}, whose file {} is missing",
                registry::slice_path(dir, R::ENDGAME, x).display()
            ));
        }
        let bad = bad.into_inner().unwrap_or_default();
        if !bad.is_empty() {
            return Err(format!(
                "slice {m}: values disagree with successors:\n{}",
                bad.join("\n")
            ));
        }
        let n = checked.load(Ordering::Relaxed);
        total += n;
        log(&format!(
            "slice {m}: {n} positions sound in {:.2} s ({:.1} MB decoded so far)",
            t0.elapsed().as_secs_f64(),
            decoded.bytes() as f64 / 1e6
        ));
    }
    Ok(total)
}

/// The tables a check reads, noting the slice of a position they do not hold.
struct Noting<'a, R: Rules> {
    src: &'a Built<R>,
    missing: std::cell::Cell<Option<Material>>,
}

impl<'a, R: Rules> Noting<'a, R> {
    fn new(src: &'a Built<R>) -> Self {
        Noting {
            src,
            missing: std::cell::Cell::new(None),
        }
    }
}

impl<R: Rules> Source<R> for Noting<'_, R> {
    #[inline]
    fn lookup(&self, pos: &Draughts<R>) -> Option<Code> {
        let c = self.src.lookup(pos);
        if c.is_none() && self.missing.get().is_none() {
            self.missing.set(Some(Material::of(pos)));
        }
        c
    }
}

fn verify<R: Rules>(a: &VerifyArgs) -> Result<u64, String> {
    let threads = a.threads.unwrap_or_else(default_threads).max(1);
    let only = a.slice.as_deref().map(Material::parse).transpose()?;
    let n = verify_all::<R>(&a.dir, a.pieces, threads, only, &mut |s| {
        crate::stderr_line!("{s}")
    })?;
    crate::say!("verified {n} positions of {} in {}", R::ENDGAME, a.dir.display())?;
    Ok(n)
}

fn sample<R: Rules>(a: &SampleArgs) -> Result<(), String> {
    let tables = registry::load::<R>(&a.dir, a.pieces)?;
    let slices: Vec<Material> = Material::all_up_to(a.pieces)
        .into_iter()
        .filter(|m| m.total() == a.pieces && tables.slice(*m).is_some())
        .collect();
    if slices.is_empty() {
        return Err(format!(
            "no {}-piece tables of {} in {}",
            a.pieces,
            R::ENDGAME,
            a.dir.display()
        ));
    }
    // A small xorshift generator: reproducible from --seed, no dependency.
    let mut x = a.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut found = 0;
    let mut moves = MoveList::new();
    for _ in 0..10_000_000 {
        if found == a.count {
            break;
        }
        let m = slices[(next() % slices.len() as u64) as usize];
        let Some(f) = tables.slice(m) else { continue };
        let Some(pos) = f.index.position::<R>(next() % f.index.len()) else {
            continue;
        };
        moves.clear();
        pos.generate(&mut moves);
        if moves.is_empty() || pos.is_capture(&moves[0]) {
            continue;
        }
        let keep = match (
            Value::of(f.get(f.index.index(&pos)).unwrap_or(0)),
            a.value.as_str(),
        ) {
            (Value::Win(n), "win") => n >= a.min_plies,
            (Value::Draw, "draw") => true,
            (Value::Loss(_), "loss") => true,
            _ => false,
        };
        if keep {
            crate::say!("{}", pos.to_fen())?;
            found += 1;
        }
    }
    Ok(())
}

/// The value of a position by in-memory tables (tests and tools).
pub fn value_of<R: Rules, S: Source<R> + ?Sized>(src: &S, pos: &Draughts<R>) -> Option<Value> {
    solve(src, pos).map(Value::of)
}
