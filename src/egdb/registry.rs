//! Tables loaded for play, and the probe the search calls.
//!
//! The tables of a variant are mapped from `<dir>/<variant>/*.egdb` (read into memory where a
//! file cannot be mapped) in their compressed form (a probe decodes one block of
//! [`super::file::BLOCK`] codes). They are held process-wide, as
//! the evaluation weights are, so that the search reaches them through [`super::Probe`] without a
//! handle. With nothing loaded a probe is one relaxed atomic load and the search behaves exactly as
//! without this module.
//!
//! Loading for play ([`set_dir`], [`set_pieces`], [`follow_variant`]) answers at once: it finds the
//! files and checks their headers (a missing directory or a bad header is an error then), and a
//! background thread reads them, smallest slices first, checks each checksum and publishes each
//! slice when it is sound. A probe that needs a slice not yet published is a miss (`None`), never
//! a guess, so the search sees the tables grow from the bottom while they load. A checksum that
//! fails drops the variant's tables, and the error goes to the caller's `notify`, as does the line
//! that says the load is complete.
//!
//! An empty `egdb-dir` means the default tables ([`super::cache`]): once a front-end wants them
//! ([`want_defaults`]), a background thread builds the variant's small tables into the cache
//! folder if they are not there yet and then loads them as above.

use super::file::{EXTENSION, FileBytes, HEADER_MAX, SliceFile, check_header};
use super::index::{Material, SliceIndex};
use super::{Code, Source, solve, supports};
use crate::bits::Bits;
use crate::draughts::Draughts;
use crate::draughts::rules::Rules;
use crate::game::Side;
use crate::variant::Variant;
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Instant;

/// The tables of one variant.
pub struct Tables {
    /// The variant's name.
    pub variant: &'static str,
    /// Probes stop above this many pieces: every slice up to it was found (loaded, or loading).
    pub pieces: u32,
    /// The first file missing among the slices of `pieces + 1` pieces (up to the piece limit
    /// asked for): why the tables stop where they do, for messages.
    pub missing: Option<PathBuf>,
    /// Every slice found, published once read and checked.
    slices: HashMap<Material, OnceLock<SliceFile>>,
}

impl Tables {
    /// Why the tables cover no more pieces, for a message: empty when no slice was missing,
    /// else " (<file> is missing)".
    pub fn why_not_more(&self) -> String {
        self.missing
            .as_ref()
            .map_or_else(String::new, |p| format!(" ({} is missing)", p.display()))
    }
    /// Slices loaded.
    pub fn len(&self) -> usize {
        self.slices.values().filter(|s| s.get().is_some()).count()
    }
    /// Whether no slice is loaded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Bytes of the loaded slice files (held in memory or mapped).
    pub fn bytes(&self) -> usize {
        self.slices
            .values()
            .filter_map(OnceLock::get)
            .map(SliceFile::bytes)
            .sum()
    }
    /// A loaded slice.
    pub fn slice(&self, m: Material) -> Option<&SliceFile> {
        self.slices.get(&m)?.get()
    }
}

impl<R: Rules> Source<R> for Tables {
    #[inline]
    fn lookup(&self, pos: &Draughts<R>) -> Option<Code> {
        let f = self.slices.get(&Material::of(pos))?.get()?;
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
    let path = slice_path(dir, R::ENDGAME, m);
    let named = |e: String| format!("{}: {e}", path.display());
    // A FIFO or a device in the tables' place is refused, never opened for a blocking read.
    let file = crate::fsutil::open_regular(&path)?;
    let bytes = match map(&file) {
        Some(map) => FileBytes::Mapped(map),
        None => {
            let mut v = Vec::new();
            (&file).read_to_end(&mut v).map_err(|e| named(e.to_string()))?;
            FileBytes::Read(v)
        }
    };
    let f = SliceFile::decode(R::ENDGAME, SliceIndex::new::<R>(m), bytes).map_err(named)?;
    // Checked; from now on a probe reads one block here and there.
    f.advise_random();
    Ok(f)
}

/// A read-only map of a whole table file, or `None` where the system cannot map it (then the
/// file is read into memory instead).
#[allow(unsafe_code)]
fn map(file: &std::fs::File) -> Option<memmap2::Mmap> {
    // SAFETY: a map is undefined behaviour if the file changes under it. Table files are written
    // once: `tempo egdb build` writes a new file under a temporary name and renames it over the
    // old (`crate::fsutil::write_atomic`), which leaves a mapped file's contents as they were; the checksum
    // is checked through the map before any probe. Editing a table file in place while an
    // engine uses it is outside what Tempo supports (docs/egdb.md).
    unsafe { memmap2::Mmap::map(file) }.ok()
}

/// Checks the header of one slice file (not its checksum); returns the file's length.
fn check_slice<R: Rules>(path: &Path, m: Material) -> Result<u64, String> {
    let named = |e: String| format!("{}: {e}", path.display());
    let mut f = crate::fsutil::open_regular(path)?;
    let len = f.metadata().map_err(|e| named(e.to_string()))?.len();
    let mut head = Vec::with_capacity(HEADER_MAX);
    f.by_ref()
        .take(HEADER_MAX as u64)
        .read_to_end(&mut head)
        .map_err(|e| named(e.to_string()))?;
    check_header(R::ENDGAME, &SliceIndex::new::<R>(m), &head, len).map_err(named)?;
    Ok(len)
}

/// The slices of variant `R` in `dir` up to `pieces`, found and with sound headers, in loading
/// order (fewer pieces first), with empty slots; and the bytes of their files.
///
/// # Errors
/// No directory `<dir>/<variant>`, or a file whose header is wrong (it names the file).
pub(crate) fn find<R: Rules>(dir: &Path, pieces: u32) -> Result<(Tables, Vec<Material>, u64), String> {
    let vdir = dir.join(R::ENDGAME);
    if !vdir.is_dir() {
        return Err(format!(
            "no tables for {} in {}: {} is not a directory",
            R::ENDGAME,
            dir.display(),
            vdir.display()
        ));
    }
    let mut slices = HashMap::new();
    let mut order = Vec::new();
    let mut bytes = 0;
    let mut complete = 1;
    let mut missing = None;
    for n in 2..=pieces {
        let mut all = true;
        for m in Material::all_up_to(n).into_iter().filter(|m| m.total() == n) {
            let path = slice_path(dir, R::ENDGAME, m);
            // Only a name that is not there is missing; anything else that is there (a link to
            // nowhere or to itself, a FIFO, a file that cannot be read) is checked below and its
            // error names it, rather than the tables quietly covering fewer pieces.
            if let Err(e) = std::fs::symlink_metadata(&path)
                && e.kind() == std::io::ErrorKind::NotFound
            {
                if all && complete == n - 1 {
                    missing = Some(path);
                }
                all = false;
                continue;
            }
            bytes += check_slice::<R>(&path, m)?;
            slices.insert(m, OnceLock::new());
            order.push(m);
        }
        if all && complete == n - 1 {
            complete = n;
        }
    }
    let t = Tables {
        variant: R::ENDGAME,
        pieces: if complete < 2 { 0 } else { complete },
        missing,
        slices,
    };
    Ok((t, order, bytes))
}

/// Reads the slices of `order` into `t`'s slots, stopping early when `go_on` says so.
fn fill<R: Rules>(
    t: &Tables,
    dir: &Path,
    order: &[Material],
    go_on: impl Fn() -> bool,
) -> Result<(), String> {
    for &m in order {
        if !go_on() {
            break;
        }
        let f = read_slice::<R>(dir, m)?;
        if let Some(slot) = t.slices.get(&m) {
            let _ = slot.set(f);
        }
    }
    Ok(())
}

/// Loads the tables of variant `R` from `dir`, every slice of up to `pieces` pieces that exists,
/// and waits until all are read; probing then covers the largest piece count all of whose slices
/// were found.
///
/// # Errors
/// No directory `<dir>/<variant>`, or a slice file that exists but fails its checks (a corrupt
/// file is refused, never used).
pub fn load<R: Rules>(dir: &Path, pieces: u32) -> Result<Tables, String> {
    let (t, order, _) = find::<R>(dir, pieces)?;
    fill::<R>(&t, dir, &order, || true)?;
    Ok(t)
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

/// Where a background load sends its last word: the line saying it is complete, or the error that
/// made it drop the tables.
pub type Notify = Box<dyn FnOnce(Result<String, String>) + Send>;

fn refresh_active(list: &[Arc<Tables>]) {
    ACTIVE.store(
        list.iter().map(|t| t.pieces).max().unwrap_or(0),
        Ordering::Release,
    );
}

/// Makes `t` the tables of its variant (replacing any), or removes the variant's tables when `t`
/// covers nothing.
pub fn install(t: Tables) {
    install_arc(Arc::new(t));
}

fn install_arc(t: Arc<Tables>) {
    let Ok(mut list) = TABLES.write() else { return };
    list.retain(|x| x.variant != t.variant);
    if t.pieces > 0 {
        list.push(t);
    }
    refresh_active(&list);
}

/// Removes `t` if it is still installed; says whether it was.
fn uninstall(t: &Arc<Tables>) -> bool {
    let Ok(mut list) = TABLES.write() else {
        return false;
    };
    let before = list.len();
    list.retain(|x| !Arc::ptr_eq(x, t));
    refresh_active(&list);
    list.len() < before
}

/// Whether `t` is installed: a background load stops once its tables were replaced or dropped.
fn installed(t: &Arc<Tables>) -> bool {
    TABLES
        .read()
        .map(|list| list.iter().any(|x| Arc::ptr_eq(x, t)))
        .unwrap_or(false)
}

/// Drops every loaded table (a background load then stops at its next slice).
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
    let t = list.iter().find(|t| t.variant == R::ENDGAME)?;
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
            V::Frisian => {
                type $r = egdb_rules::FrisianRules;
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
            // Frysk! reads Frisian's tables (`Rules::ENDGAME`).
            V::Frysk => {
                type $r = egdb_rules::FryskRules;
                $body
            }
            _ => $none,
        }
    }};
}

/// Loads the tables of `R` from `dir` for play, up to `pieces`: finds the files and checks their
/// headers now, installs the tables empty (replacing the variant's), and reads the files on a
/// background thread, publishing each slice once its checksum is sound. `notify` gets the line
/// that says the load is complete, or the error that turned the tables off. Returns the line for
/// the user.
///
/// # Errors
/// No directory `<dir>/<variant>`, or a slice file with a bad header.
pub fn load_in_background<R: Rules>(dir: &Path, pieces: u32, notify: Notify) -> Result<String, String> {
    start::<R>(dir, pieces, notify, true)
}

fn start<R: Rules>(dir: &Path, pieces: u32, notify: Notify, strict: bool) -> Result<String, String> {
    let dir = dir.to_path_buf();
    if !strict && !dir.join(R::ENDGAME).is_dir() {
        // A variant change to a variant without tables in the directory is not an error.
        install_arc(Arc::new(Tables {
            variant: R::ENDGAME,
            pieces: 0,
            missing: None,
            slices: HashMap::new(),
        }));
        return Ok(format!("egdb: no tables for {} in {}", R::ENDGAME, dir.display()));
    }
    let (t, order, bytes) = find::<R>(&dir, pieces)?;
    let (count, covered) = (order.len(), t.pieces);
    // Slices found above what the tables cover: a file below them is missing, which the user
    // is told rather than left to wonder why the tables do less (or nothing).
    let unused = order.iter().any(|m| m.total() > covered);
    let why = t.why_not_more();
    let t = Arc::new(t);
    install_arc(Arc::clone(&t));
    if unused && covered == 0 && strict {
        return Err(format!(
            "egdb {}: {count} slices found in {}, but the tables cover no piece count{why}; the {} \
             tables are off",
            R::ENDGAME,
            dir.display(),
            R::ENDGAME
        ));
    }
    let note = if unused {
        format!("; slices of more pieces are not used{why}")
    } else {
        String::new()
    };
    let started = Instant::now();
    let job = move || {
        let current = || installed(&t);
        match fill::<R>(&t, &dir, &order, current) {
            Ok(()) if current() => notify(Ok(format!(
                "egdb {}: {} slices up to {} pieces loaded, {:.1} MB in {:.2} s",
                R::ENDGAME,
                t.len(),
                t.pieces,
                t.bytes() as f64 / 1e6,
                started.elapsed().as_secs_f64()
            ))),
            Ok(()) => {}
            Err(e) => {
                if uninstall(&t) {
                    notify(Err(format!("{e}; the {} tables are off", R::ENDGAME)));
                }
            }
        }
    };
    // A load of the same variant still running stops at its next slice; it is not waited for.
    std::thread::Builder::new()
        .name("egdb-load".into())
        .spawn(job)
        .map_err(|e| {
            clear();
            format!("egdb: the loading thread could not be started ({e})")
        })?;
    Ok(format!(
        "egdb {}: loading {count} slices up to {covered} pieces, {:.1} MB{note}",
        R::ENDGAME,
        bytes as f64 / 1e6
    ))
}

/// Where the default tables ([`super::cache`]) report: `Ok` for news (a first build begins or
/// ends, the tables are loaded), `Err` for what the user should be told (no default tables and
/// why, a damaged cache file rebuilt, a load that failed). Neither is an error of the protocol:
/// the engine plays on without the tables.
pub type DefaultNotify = Arc<dyn Fn(Result<String, String>) + Send + Sync>;

/// Set once a front-end wants the default tables ([`want_defaults`]).
static DEFAULTS: Mutex<Option<DefaultNotify>> = Mutex::new(None);
/// Counts the changes of what is to be loaded ([`apply`]); a default build that sees it move on
/// stops, and never installs its tables over those of a later setting. Held while tables are
/// installed.
static EPOCH: Mutex<u64> = Mutex::new(0);
/// Held by the default build of this process: one at a time (they would write the same files).
static BUILDING: Mutex<()> = Mutex::new(());

/// Says that the front-end wants the default tables ([`super::cache`]) while `egdb-dir` is empty,
/// and where they report; the first call starts them for `variant`, later calls do nothing.
/// Hub calls it at `init` and `go`, UCI at `isready` and `go`: after the options a client sends
/// first, so that a client that names its own tables does not start a default build.
pub fn want_defaults(variant: Variant, notify: DefaultNotify) {
    let Ok(mut wanted) = DEFAULTS.lock() else {
        return;
    };
    if wanted.is_some() {
        return;
    }
    *wanted = Some(notify);
    drop(wanted);
    if settings().0.is_empty() {
        drop(apply(variant, Box::new(drop), false));
    }
}

/// Installs no tables for `variant`.
fn install_none(variant: Variant) {
    let name = with_egdb_rules!(variant, R => R::ENDGAME, variant.name());
    install(Tables {
        variant: name,
        pieces: 0,
        missing: None,
        slices: HashMap::new(),
    });
}

/// With `egdb-dir` empty: no tables for now, and the default tables of `variant` up to `pieces`
/// built (if need be) and loaded in the background once a front-end wants them. Returns a line
/// for the user.
fn defaults(variant: Variant, pieces: u32, epoch: u64) -> String {
    install_none(variant);
    let Some(n) = super::cache::default_pieces(variant).map(|top| top.min(pieces)) else {
        return format!("egdb: no default tables for {}", variant.name());
    };
    let wanted = DEFAULTS.lock().ok().and_then(|d| d.clone());
    let dir = match super::cache::place() {
        super::cache::Place::Off => {
            return format!("egdb off ({}={})", super::cache::ENV, super::cache::OFF);
        }
        super::cache::Place::Unknown(why) => {
            let line = format!("egdb: no default tables: {why}");
            if let Some(notify) = wanted {
                notify(Err(line.clone()));
            }
            return line;
        }
        super::cache::Place::Dir(d) => d,
    };
    with_egdb_rules!(variant, R => {
        let line = format!("egdb {}: default tables up to {n} pieces in {}", R::ENDGAME, dir.display());
        if let Some(notify) = wanted {
            // A folder that cannot be made is told now, in the reply's turn, not by the thread.
            let vdir = dir.join(R::ENDGAME);
            if let Err(e) = std::fs::create_dir_all(&vdir) {
                let line = format!(
                    "egdb {}: no default tables: cannot make {}: {e}",
                    R::ENDGAME,
                    vdir.display()
                );
                notify(Err(line.clone()));
                return line;
            }
            let job_dir = dir.clone();
            let on_fail = Arc::clone(&notify);
            let started = std::thread::Builder::new()
                .name("egdb-default".into())
                .spawn(move || default_job::<R>(&job_dir, n, epoch, &notify));
            if let Err(e) = started {
                on_fail(Err(format!("egdb: no default tables: the thread could not be started ({e})")));
            }
        }
        line
    }, format!("egdb: no default tables for {}", variant.name()))
}

/// The background work of the default tables: builds what is missing or damaged in `dir` (at
/// `nice` 19, under the folder's lock), then loads them, unless the settings changed
/// meanwhile (`epoch`).
fn default_job<R: Rules>(dir: &Path, n: u32, epoch: u64, notify: &DefaultNotify) {
    super::cache::lower_priority();
    let current = || EPOCH.lock().map(|e| *e == epoch).unwrap_or(false);
    let Ok(building) = BUILDING.lock() else {
        return;
    };
    if !current() {
        return;
    }
    let fresh = !super::cache::complete::<R>(dir, n);
    if fresh {
        notify(Ok(format!(
            "egdb {}: building the default tables up to {n} pieces in {} (once; at low priority, the \
             search goes on without them meanwhile)",
            R::ENDGAME,
            dir.display()
        )));
    }
    let t0 = Instant::now();
    let mut note = |line: &str| notify(Err(line.to_string()));
    match super::cache::ensure::<R>(dir, n, &mut note, &current) {
        Ok(()) => {}
        Err(e) if e == super::cli::STOPPED => return,
        Err(e) => {
            notify(Err(format!("egdb {}: no default tables: {e}", R::ENDGAME)));
            return;
        }
    }
    drop(building);
    if fresh {
        notify(Ok(format!(
            "egdb {}: default tables up to {n} pieces built in {:.1} s",
            R::ENDGAME,
            t0.elapsed().as_secs_f64()
        )));
    }
    let Ok(now) = EPOCH.lock() else { return };
    if *now != epoch {
        return;
    }
    let loaded = Arc::clone(notify);
    let shown = dir.display().to_string();
    let load_notify: Notify = Box::new(move |r| loaded(r.map(|l| format!("{l} (default tables, {shown})"))));
    if let Err(e) = start::<R>(dir, n, load_notify, false) {
        notify(Err(format!("egdb {}: no default tables: {e}", R::ENDGAME)));
    }
}

/// Loads (or drops) the tables of `variant` by the current options; returns a line for the user.
fn apply(variant: Variant, notify: Notify, strict: bool) -> Result<String, String> {
    let mut epoch = EPOCH.lock().map_err(|_| "egdb state poisoned")?;
    *epoch += 1;
    let (dir, pieces) = SETTINGS
        .lock()
        .map(|s| s.clone())
        .map_err(|_| "egdb settings poisoned")?;
    if pieces < 2 {
        install_none(variant);
        return Ok("egdb off".into());
    }
    if dir.is_empty() {
        return Ok(defaults(variant, pieces, *epoch));
    }
    with_egdb_rules!(variant, R => {
        debug_assert!(supports::<R>());
        start::<R>(Path::new(&dir), pieces, notify, strict)
    }, Ok(format!("egdb: no tables for {}", variant.name())))
}

/// Sets the `egdb-dir` option (empty: no tables) and starts loading the variant's tables (see the
/// module's documentation); `notify` gets the end of the load.
///
/// # Errors
/// No directory for the variant, or a slice file with a bad header (the tables are then left
/// off).
pub fn set_dir(variant: Variant, dir: &str, notify: Notify) -> Result<String, String> {
    if let Ok(mut s) = SETTINGS.lock() {
        s.0 = dir.trim().to_string();
    }
    apply(variant, notify, true).inspect_err(|_| clear())
}

/// Sets the `egdb-pieces` option (0 or 1: no probing) and reloads the variant's tables.
///
/// # Errors
/// Out of range, or as [`set_dir`].
pub fn set_pieces(variant: Variant, pieces: u32, notify: Notify) -> Result<String, String> {
    if pieces > MAX_PIECES {
        return Err(format!("egdb-pieces={pieces} is out of range 0-{MAX_PIECES}"));
    }
    if let Ok(mut s) = SETTINGS.lock() {
        s.1 = pieces;
    }
    apply(variant, notify, true).inspect_err(|_| clear())
}

/// Loads the tables of `variant` from `dir` up to `pieces` and waits until every slice is read and
/// checked (the command-line searches, which have no protocol to report a background load on).
/// Returns the line that says what was loaded.
///
/// # Errors
/// Pieces out of range, an empty directory name, no directory for the variant, a variant without
/// tables, or a slice file that fails its checks.
pub fn load_and_wait(variant: Variant, dir: &str, pieces: u32) -> Result<String, String> {
    if !(2..=MAX_PIECES).contains(&pieces) {
        return Err(format!("egdb pieces {pieces} is out of range 2-{MAX_PIECES}"));
    }
    if dir.trim().is_empty() {
        return Err("no directory given".into());
    }
    if !with_egdb_rules!(variant, R => supports::<R>(), false) {
        return Err(format!("{} has no endgame tables", variant.name()));
    }
    if let Ok(mut s) = SETTINGS.lock() {
        *s = (dir.trim().to_string(), pieces);
    }
    let (send, receive) = std::sync::mpsc::channel();
    apply(variant, Box::new(move |r| drop(send.send(r))), true).inspect_err(|_| clear())?;
    // The loading thread always notifies, unless its tables were replaced meanwhile (not here).
    receive
        .recv()
        .map_err(|_| "egdb: the loading thread ended without a word".to_string())?
}

/// For the command-line searches without `--egdb`: loads the default tables of `variant` and
/// waits for them, when `tempo hub` or `tempo uci` has built them already in the cache folder
/// (a batch command does not build them: that takes up to a minute). `None` when there are none
/// to load (the cache is off, or not built); else the loading's line or its error.
pub fn load_built_defaults(variant: Variant) -> Option<Result<String, String>> {
    let top = super::cache::default_pieces(variant)?;
    let super::cache::Place::Dir(dir) = super::cache::place() else {
        return None;
    };
    // The most pieces whose tables are all there (an engine told `egdb-pieces=3` builds three).
    let n = (2..=top)
        .rev()
        .find(|&n| with_egdb_rules!(variant, R => super::cache::complete::<R>(&dir, n), false))?;
    let shown = dir.display().to_string();
    Some(load_and_wait(variant, &shown, n).map(|l| format!("{l} (default tables, {shown})")))
}

/// The current options: directory and piece limit.
pub fn settings() -> (String, u32) {
    SETTINGS.lock().map(|s| s.clone()).unwrap_or_default()
}

/// After a variant change: loads the new variant's tables if a directory is set (a directory
/// without the variant's tables is not an error here: the variant simply has none).
///
/// # Errors
/// A slice file with a bad header.
pub fn follow_variant(variant: Variant, notify: Notify) -> Result<String, String> {
    let defaults_wanted = DEFAULTS.lock().map(|d| d.is_some()).unwrap_or(false);
    if settings().0.is_empty() && !defaults_wanted {
        return Ok(String::new());
    }
    apply(variant, notify, false).inspect_err(|_| clear())
}
