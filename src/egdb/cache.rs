//! The default tables: small tables that `tempo hub` and `tempo uci` use without being asked,
//! built once, at first use, into a per-user cache folder.
//!
//! The folder is `$TEMPO_EGDB_CACHE`, else `$XDG_CACHE_HOME/tempo/egdb`, else
//! `$HOME/.cache/tempo/egdb`; `TEMPO_EGDB_CACHE=off` turns the default tables off. Its layout is
//! that of `tempo egdb build --dir` (`<folder>/<variant>/<slice>.egdb`), so the same files can be
//! named by `egdb-dir` or probed with `tempo egdb probe --dir`.
//!
//! [`ensure`] makes the files sound: it takes a lock on the variant's folder (an exclusive
//! `flock` on `<folder>/<variant>/.lock`, which the system releases when a process dies, so a
//! killed engine leaves no stale lock), then runs the builder, which keeps every slice whose file
//! passes its checksum and rebuilds the others (missing, truncated or damaged), each written to a
//! temporary file and renamed into place. Engines that start at once therefore build the tables
//! once: the first holds the lock and builds, the others wait and then find every file sound.
//! Without the lock (a system without `flock`, or a folder where the lock file cannot be made)
//! two builders still leave sound files, since every file appears whole by its rename.
//!
//! The registry ([`super::registry`]) runs [`ensure`] on a background thread at `nice` 19
//! ([`lower_priority`]) and loads the tables when it is done; until then
//! the search runs as without tables.

use super::cli::build_all_while;
use super::index::Material;
use super::registry::slice_path;
use crate::draughts::rules::Rules;
use crate::variant::Variant;
use std::path::{Path, PathBuf};

/// The environment variable that names the cache folder, or turns the default tables off.
pub const ENV: &str = "TEMPO_EGDB_CACHE";
/// The value of [`ENV`] that turns the default tables off.
pub const OFF: &str = "off";

/// The most pieces of the default tables of a variant, or `None` for a variant without them.
///
/// Four pieces, as the bitbases Scan ships. Built on one thread at low priority on a loaded
/// two-core machine, in the figures of docs/egdb.md: International 48 s and 26 MB; Russian,
/// Brazilian, English, Italian and Pool 7-10 s and 6-10 MB each. Five pieces would take
/// International to about 1.1 GB, too much to build unasked. The other variants with tables are
/// not built by default (Frisian's four-piece tables are the slowest of all; Spanish,
/// Portuguese, Czech, Thai, Canadian and Killer have not been checked).
pub fn default_pieces(variant: Variant) -> Option<u32> {
    match variant {
        Variant::International
        | Variant::Russian
        | Variant::Brazilian
        | Variant::English
        | Variant::Italian
        | Variant::Pool => Some(4),
        _ => None,
    }
}

/// Where the default tables live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// `TEMPO_EGDB_CACHE=off`: no default tables.
    Off,
    /// The cache folder.
    Dir(PathBuf),
    /// No folder can be named (no home): why, for a message.
    Unknown(String),
}

/// The cache folder from the values of `TEMPO_EGDB_CACHE`, `XDG_CACHE_HOME` and `HOME` (an empty
/// value counts as unset; a relative `XDG_CACHE_HOME` is ignored, as the XDG rules say).
pub fn place_from(cache: Option<&str>, xdg: Option<&str>, home: Option<&str>) -> Place {
    let set = |v: Option<&str>| v.map(str::trim).filter(|v| !v.is_empty()).map(str::to_string);
    if let Some(c) = set(cache) {
        return if c.eq_ignore_ascii_case(OFF) {
            Place::Off
        } else {
            Place::Dir(PathBuf::from(c))
        };
    }
    if let Some(x) = set(xdg).filter(|x| Path::new(x).is_absolute()) {
        return Place::Dir(Path::new(&x).join("tempo").join("egdb"));
    }
    if let Some(h) = set(home) {
        return Place::Dir(Path::new(&h).join(".cache").join("tempo").join("egdb"));
    }
    Place::Unknown(format!(
        "no cache folder: none of {ENV}, XDG_CACHE_HOME and HOME is set ({ENV}=<folder> names one)"
    ))
}

/// The cache folder of this process's environment ([`place_from`]).
pub fn place() -> Place {
    let var = |name: &str| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned());
    place_from(
        var(ENV).as_deref(),
        var("XDG_CACHE_HOME").as_deref(),
        var("HOME").as_deref(),
    )
}

/// Whether every slice file of `R` up to `pieces` is in `dir` (not whether it is sound).
pub fn complete<R: Rules>(dir: &Path, pieces: u32) -> bool {
    Material::all_up_to(pieces)
        .into_iter()
        .all(|m| slice_path(dir, R::ENDGAME, m).is_file())
}

/// Makes the tables of `R` up to `pieces` in `dir` sound, under the folder's lock: keeps the sound
/// slice files, builds the missing and rebuilds the damaged ones on one thread. `note` gets one
/// line for each damaged file rebuilt; `go_on` is asked before each slice.
///
/// # Errors
/// The folder cannot be made or written (the message names it), or `go_on` said no
/// ([`super::cli::STOPPED`]).
pub fn ensure<R: Rules>(
    dir: &Path,
    pieces: u32,
    note: &mut dyn FnMut(&str),
    go_on: &dyn Fn() -> bool,
) -> Result<(), String> {
    let vdir = dir.join(R::ENDGAME);
    std::fs::create_dir_all(&vdir).map_err(|e| format!("cannot make {}: {e}", vdir.display()))?;
    let _lock = lock(&vdir);
    if _lock.is_some() {
        remove_stale_temporaries(&vdir);
    }
    let memory = super::cli::default_memory();
    build_all_while::<R>(
        dir,
        pieces,
        1,
        memory,
        None,
        &mut |line| {
            // The builder's own word for a file that was there and failed its checks.
            if line.contains(": rebuilding: ") {
                note(&format!("egdb {}: {line}", R::ENDGAME));
            }
        },
        go_on,
    )
    .map(drop)
}

/// An exclusive lock on `<vdir>/.lock`, held until the file is dropped; `None` where it cannot
/// be had (the build then goes on unlocked: its files still appear whole).
fn lock(vdir: &Path) -> Option<std::fs::File> {
    crate::fsutil::lock(&vdir.join(".lock"), crate::fsutil::LockWait::Block)
        .ok()
        .flatten()
}

/// Removes the temporary files (`.<name>.<pid>.tmp`, [`crate::fsutil::write_atomic`]) that a
/// builder killed midway left in `vdir`, those of processes that are gone. Called under the lock,
/// which every default build holds while it writes.
fn remove_stale_temporaries(vdir: &Path) {
    let Ok(entries) = std::fs::read_dir(vdir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix('.')
            .and_then(|n| n.strip_suffix(".tmp"))
            .and_then(|n| n.rsplit('.').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if !alive(pid) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Whether process `pid` exists (where that cannot be told: yes, so nothing is removed).
#[cfg(unix)]
#[allow(unsafe_code)]
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn alive(_pid: u32) -> bool {
    true
}

/// Puts the calling thread at the lowest `nice` priority, 19 (Linux, where a thread has its own),
/// so that a background build takes little from the search: sharing a core with a search thread
/// it gets about 1.5 % of it (the scheduler's weights 15 and 1024), and it runs on the cores
/// nothing else wants. (`SCHED_IDLE`, lower still, starved it on a machine busy with `nice` 19
/// jobs: 16 of 41 slices in three minutes.)
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn lower_priority() {
    // SAFETY: `gettid` has no arguments; `setpriority` on this thread's id changes only it.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 19);
    }
}

/// Elsewhere the thread keeps its priority.
#[cfg(not(target_os = "linux"))]
pub fn lower_priority() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_follows_the_environment() {
        let dir = |s: &str| Place::Dir(PathBuf::from(s));
        assert_eq!(place_from(Some("/c"), Some("/x"), Some("/h")), dir("/c"));
        assert_eq!(place_from(Some("OFF"), None, Some("/h")), Place::Off);
        assert_eq!(
            place_from(Some(" "), Some("/x"), Some("/h")),
            dir("/x/tempo/egdb")
        );
        assert_eq!(
            place_from(None, Some("x"), Some("/h")),
            dir("/h/.cache/tempo/egdb")
        );
        assert!(matches!(place_from(None, None, Some("")), Place::Unknown(_)));
    }

    #[test]
    fn default_tables_are_those_of_the_checked_variants() {
        assert_eq!(default_pieces(Variant::International), Some(4));
        assert_eq!(default_pieces(Variant::Russian), Some(4));
        assert_eq!(default_pieces(Variant::Thai), None);
    }
}
