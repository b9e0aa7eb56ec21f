//! Tables loaded for play, and the probe the search calls.
//!
//! The tables of a variant are read from `<dir>/<variant>/*.egdb` into memory in their compressed
//! form (a probe decodes one block of [`super::file::BLOCK`] codes). They are held process-wide, as
//! the evaluation weights are, so that the search reaches them through [`super::Probe`] without a
//! handle. With nothing loaded a probe is one relaxed atomic load and the search behaves exactly as
//! without this module.

use super::file::{EXTENSION, SliceFile};
use super::index::{Material, SliceIndex};
use super::{Code, Source, solve, supports};
use crate::bits::Bits;
use crate::draughts::Draughts;
use crate::draughts::rules::Rules;
use crate::game::Side;
use crate::variant::Variant;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

/// The tables of one variant.
pub struct Tables {
    /// The variant's name.
    pub variant: &'static str,
    /// Probes stop above this many pieces: every slice up to it is loaded.
    pub pieces: u32,
    slices: HashMap<Material, SliceFile>,
}

impl Tables {
    /// Slices loaded.
    pub fn len(&self) -> usize {
        self.slices.len()
    }
    /// Whether no slice is loaded.
    pub fn is_empty(&self) -> bool {
        self.slices.is_empty()
    }
    /// Bytes held in memory.
    pub fn bytes(&self) -> usize {
        self.slices.values().map(SliceFile::bytes).sum()
    }
    /// A loaded slice.
    pub fn slice(&self, m: Material) -> Option<&SliceFile> {
        self.slices.get(&m)
    }
}

impl<R: Rules> Source<R> for Tables {
    #[inline]
    fn lookup(&self, pos: &Draughts<R>) -> Option<Code> {
        let f = self.slices.get(&Material::of(pos))?;
        f.get(f.index.index(pos))
    }
}

/// The file of a slice.
pub fn slice_path(dir: &Path, variant: &str, m: Material) -> PathBuf {
    dir.join(variant).join(format!("{}.{EXTENSION}", m.name()))
}

/// Reads and checks one slice file.
///
/// # Errors
/// The file cannot be read or fails its checks; the message names the file.
pub fn read_slice<R: Rules>(dir: &Path, m: Material) -> Result<SliceFile, String> {
    let path = slice_path(dir, R::NAME, m);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    SliceFile::decode(R::NAME, SliceIndex::new::<R>(m), &bytes)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Loads the tables of variant `R` from `dir`, every slice of up to `pieces` pieces that exists;
/// probing then covers the largest piece count all of whose slices were found.
///
/// # Errors
/// A slice file that exists but fails its checks (a corrupt file is refused, never used).
pub fn load<R: Rules>(dir: &Path, pieces: u32) -> Result<Tables, String> {
    let mut slices = HashMap::new();
    let mut complete = 1;
    for n in 2..=pieces {
        let mut all = true;
        for m in Material::all_up_to(n).into_iter().filter(|m| m.total() == n) {
            if !slice_path(dir, R::NAME, m).exists() {
                all = false;
                continue;
            }
            slices.insert(m, read_slice::<R>(dir, m)?);
        }
        if all && complete == n - 1 {
            complete = n;
        }
    }
    Ok(Tables {
        variant: R::NAME,
        pieces: if complete < 2 { 0 } else { complete },
        slices,
    })
}

static TABLES: RwLock<Vec<Arc<Tables>>> = RwLock::new(Vec::new());
/// The most pieces any loaded table covers (0: nothing loaded, probes return at once).
static ACTIVE: AtomicU32 = AtomicU32::new(0);
/// The options: directory and piece limit.
static SETTINGS: Mutex<(String, u32)> = Mutex::new((String::new(), DEFAULT_PIECES));
/// The default of the `egdb-pieces` option.
pub const DEFAULT_PIECES: u32 = 6;
/// The most pieces the option accepts.
pub const MAX_PIECES: u32 = 8;

fn refresh_active(list: &[Arc<Tables>]) {
    ACTIVE.store(
        list.iter().map(|t| t.pieces).max().unwrap_or(0),
        Ordering::Release,
    );
}

/// Makes `t` the tables of its variant (replacing any), or removes the variant's tables when `t`
/// covers nothing.
pub fn install(t: Tables) {
    let Ok(mut list) = TABLES.write() else { return };
    list.retain(|x| x.variant != t.variant);
    if t.pieces > 0 {
        list.push(Arc::new(t));
    }
    refresh_active(&list);
}

/// Drops every loaded table.
pub fn clear() {
    if let Ok(mut list) = TABLES.write() {
        list.clear();
        refresh_active(&list);
    }
}

/// The table value of a position, if tables of its variant covering it are loaded.
#[inline]
pub fn probe<R: Rules>(pos: &Draughts<R>) -> Option<Code> {
    let active = ACTIVE.load(Ordering::Relaxed);
    if active == 0 {
        return None;
    }
    let n = pos.pieces(Side::White).count() + pos.pieces(Side::Black).count();
    if n > active {
        return None;
    }
    let list = TABLES.read().ok()?;
    let t = list.iter().find(|t| t.variant == R::NAME)?;
    if n > t.pieces {
        return None;
    }
    solve::<R, Tables>(t, pos)
}

/// Calls `$body` with `$r` the rules type of a variant that has tables ([`supports`]), or
/// evaluates `$none` for the others.
#[macro_export]
macro_rules! with_egdb_rules {
    ($v:expr, $r:ident => $body:expr, $none:expr) => {{
        use $crate::draughts::rules as egdb_rules;
        use $crate::variant::Variant as V;
        match $v {
            V::International => {
                type $r = egdb_rules::InternationalRules;
                $body
            }
            V::Russian => {
                type $r = egdb_rules::RussianRules;
                $body
            }
            V::Brazilian => {
                type $r = egdb_rules::BrazilianRules;
                $body
            }
            V::English => {
                type $r = egdb_rules::EnglishRules;
                $body
            }
            V::Italian => {
                type $r = egdb_rules::ItalianRules;
                $body
            }
            V::Spanish => {
                type $r = egdb_rules::SpanishRules;
                $body
            }
            V::Portuguese => {
                type $r = egdb_rules::PortugueseRules;
                $body
            }
            V::Czech => {
                type $r = egdb_rules::CzechRules;
                $body
            }
            V::Pool => {
                type $r = egdb_rules::PoolRules;
                $body
            }
            V::Thai => {
                type $r = egdb_rules::ThaiRules;
                $body
            }
            V::Canadian => {
                type $r = egdb_rules::CanadianRules;
                $body
            }
            V::Killer => {
                type $r = egdb_rules::KillerRules;
                $body
            }
            _ => $none,
        }
    }};
}

/// Loads (or drops) the tables of `variant` by the current options; returns a line for the user.
fn apply(variant: Variant) -> Result<String, String> {
    let (dir, pieces) = SETTINGS
        .lock()
        .map(|s| s.clone())
        .map_err(|_| "egdb settings poisoned")?;
    if dir.is_empty() || pieces < 2 {
        install(Tables {
            variant: variant.name(),
            pieces: 0,
            slices: HashMap::new(),
        });
        return Ok("egdb off".into());
    }
    let started = Instant::now();
    let t = with_egdb_rules!(variant, R => {
        debug_assert!(supports::<R>());
        load::<R>(Path::new(&dir), pieces)?
    }, return Ok(format!("egdb: no tables for {}", variant.name())));
    let msg = format!(
        "egdb {}: {} slices up to {} pieces, {:.1} MB in {:.2} s",
        variant.name(),
        t.len(),
        t.pieces,
        t.bytes() as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    install(t);
    Ok(msg)
}

/// Sets the `egdb-dir` option (empty: no tables) and loads the variant's tables.
///
/// # Errors
/// A corrupt slice file (the tables are then left off).
pub fn set_dir(variant: Variant, dir: &str) -> Result<String, String> {
    if let Ok(mut s) = SETTINGS.lock() {
        s.0 = dir.trim().to_string();
    }
    apply(variant).inspect_err(|_| clear())
}

/// Sets the `egdb-pieces` option (0 or 1: no probing) and reloads the variant's tables.
///
/// # Errors
/// Out of range, or a corrupt slice file.
pub fn set_pieces(variant: Variant, pieces: u32) -> Result<String, String> {
    if pieces > MAX_PIECES {
        return Err(format!("egdb-pieces={pieces} is out of range 0-{MAX_PIECES}"));
    }
    if let Ok(mut s) = SETTINGS.lock() {
        s.1 = pieces;
    }
    apply(variant).inspect_err(|_| clear())
}

/// The current options: directory and piece limit.
pub fn settings() -> (String, u32) {
    SETTINGS.lock().map(|s| s.clone()).unwrap_or_default()
}

/// After a variant change: loads the new variant's tables if a directory is set.
pub fn follow_variant(variant: Variant) -> Result<String, String> {
    if settings().0.is_empty() {
        return Ok(String::new());
    }
    apply(variant).inspect_err(|_| clear())
}
