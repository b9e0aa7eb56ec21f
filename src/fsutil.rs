//! File helpers shared by the commands and the engine: opening only regular files (a FIFO or a
//! device given as an input must not block the process or feed it without end), reading with a
//! bound, writing whole-or-nothing through a temporary file renamed over the target, telling
//! whether two paths name the same file, and locking a file that one process at a time may work on.

use std::fs::File;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};

/// Input text quoted in a message, cut to this many characters.
const QUOTE_MAX: usize = 80;

/// A path for a message: its display form, cut to [`QUOTE_MAX`] characters.
fn shown(path: &Path) -> String {
    let s = path.display().to_string();
    match s.char_indices().nth(QUOTE_MAX) {
        Some((at, _)) => format!("{}...", &s[..at]),
        None => s,
    }
}

/// Opens `path` for reading if it is a regular file (symbolic links followed).
///
/// A FIFO would block `open` until a writer comes, and a device such as `/dev/zero` never ends, so
/// both are refused from their metadata first. The open itself is non-blocking where the flag is
/// at hand (Linux on x86-64, where `libc` is a dependency), so a file swapped for a FIFO between
/// the check and the open cannot block either; the opened file is checked again.
///
/// # Errors
/// The file cannot be opened, or is not a regular file; the message names it.
pub fn open_regular(path: &Path) -> Result<File, String> {
    let name = shown(path);
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("cannot read {name}: {}", not_regular(&meta)));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK changes nothing for a regular file's reads; it only keeps a FIFO's open
        // from waiting for a writer.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let meta = file.metadata().map_err(|e| format!("cannot read {name}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("cannot read {name}: {}", not_regular(&meta)));
    }
    Ok(file)
}

/// What a file that is not a regular one is, for a message.
fn not_regular(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        return "it is a directory, not a regular file";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "it is a FIFO (named pipe), not a regular file";
        }
        if t.is_char_device() || t.is_block_device() {
            return "it is a device, not a regular file";
        }
        if t.is_socket() {
            return "it is a socket, not a regular file";
        }
    }
    "not a regular file"
}

/// Reads the regular file at `path` whole, refusing one longer than `max` bytes.
///
/// # Errors
/// As [`open_regular`], a read error, or a file longer than `max` (its size is given in MiB when
/// `max` is a whole number of them).
pub fn read_capped(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    let name = shown(path);
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > max {
        let limit = if max % (1 << 20) == 0 {
            format!("{} MiB", max >> 20)
        } else {
            format!("{max} bytes")
        };
        return Err(format!(
            "cannot read {name}: larger than {limit}, the most Tempo reads here"
        ));
    }
    Ok(bytes)
}

/// What [`read_line_limited`] does with a line longer than its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LongLine {
    /// Give up with an error: a data file whose line has no end is damaged or is no data file.
    Refuse,
    /// Keep the line's first bytes and drop the rest: a chatty engine's output line is cut, and
    /// the conversation goes on.
    Truncate,
}

/// Reads one line into `buf` (cleared first), newline included, as [`BufRead::read_until`] does,
/// but keeps at most `max` bytes before the newline; a longer line is refused or cut short as
/// `long` says. No line, however long, fills the memory. Returns the bytes taken from the input
/// (0 at its end).
///
/// # Errors
/// A read error other than an interruption, or with [`LongLine::Refuse`] a line longer than `max`
/// (kind [`std::io::ErrorKind::InvalidData`]).
pub fn read_line_limited(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
    long: LongLine,
) -> std::io::Result<usize> {
    buf.clear();
    let mut taken = 0;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(taken);
        }
        let newline = chunk.iter().position(|&b| b == b'\n');
        let text = newline.map_or(chunk, |i| &chunk[..i]);
        let room = max.saturating_sub(buf.len());
        if text.len() > room && long == LongLine::Refuse {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a line longer than {max} bytes"),
            ));
        }
        buf.extend_from_slice(&text[..text.len().min(room)]);
        let used = newline.map_or(chunk.len(), |i| i + 1);
        if newline.is_some() {
            buf.push(b'\n');
        }
        r.consume(used);
        taken += used;
        if newline.is_some() {
            return Ok(taken);
        }
    }
}

/// [`read_line_limited`] for data files: a line longer than `max` is an error. Returns the bytes
/// read (0 at the end of the input).
///
/// # Errors
/// As [`read_line_limited`] with [`LongLine::Refuse`].
pub fn read_line_bounded(r: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> std::io::Result<usize> {
    read_line_limited(r, buf, max, LongLine::Refuse)
}

/// The temporary file beside `target` that [`write_atomic`] writes first: same directory (a
/// rename does not cross file systems), a name no other writer of the same target uses at the
/// same time (the process id).
fn temporary(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    target.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// The file a write to `path` replaces: the file a symbolic link points to (so a link to the
/// weights keeps pointing to the new weights), else `path` itself.
fn resolved(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => path.canonicalize().unwrap_or_else(|_| path.to_path_buf()),
        _ => path.to_path_buf(),
    }
}

/// Checks, before any long work, that [`write_atomic`] can write `path`: it is not an existing
/// directory, device or FIFO (a rename would not write into it), and a temporary file can be
/// created beside it (then removed).
///
/// # Errors
/// A message naming the file and what is wrong.
pub fn check_writable(path: &Path) -> Result<(), String> {
    let name = shown(path);
    let target = resolved(path);
    match std::fs::metadata(&target) {
        Ok(m) if !m.is_file() => return Err(format!("cannot write {name}: {}", not_regular(&m))),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("cannot write {name}: {e}")),
    }
    let tmp = temporary(&target);
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| format!("cannot write {name}: {e}"))?;
    let _ = std::fs::remove_file(&tmp);
    Ok(())
}

/// Writes `bytes` to `path` whole or not at all: to a temporary file beside it, flushed to the
/// disk, then renamed over it. A full disk or an interruption leaves the old file as it was (and
/// no temporary behind, where the failure is seen).
///
/// # Errors
/// As [`check_writable`], or a write or rename error; the message names the file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    check_writable(path)?;
    let name = shown(path);
    let target = resolved(path);
    let tmp = temporary(&target);
    let written = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write {name}: {e}"));
    }
    std::fs::rename(&tmp, &target).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write {name}: {e}")
    })
}

/// How [`lock`] waits for a lock another process holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockWait {
    /// Until the other process lets go (or dies: the system releases its locks).
    Block,
    /// Not at all: the other process is reported.
    Fail,
}

/// An exclusive advisory lock on `path` (created if missing, never truncated), held until the
/// returned file is dropped or the process dies. `Ok(None)` where no lock can be had (a system
/// without `flock`, a folder where the file cannot be made, or a path that is not a regular file):
/// the caller then goes on unlocked.
///
/// The open is non-blocking, so a FIFO put in the lock's place cannot hold it.
///
/// # Errors
/// With [`LockWait::Fail`], another process holds the lock; the message names the file.
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn lock(path: &Path, wait: LockWait) -> Result<Option<File>, String> {
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
    else {
        return Ok(None);
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Ok(None);
    }
    let op = match wait {
        LockWait::Block => libc::LOCK_EX,
        LockWait::Fail => libc::LOCK_EX | libc::LOCK_NB,
    };
    loop {
        // SAFETY: `flock` on a descriptor this function owns; it touches no memory of ours.
        if unsafe { libc::flock(file.as_raw_fd(), op) } == 0 {
            return Ok(Some(file));
        }
        match std::io::Error::last_os_error() {
            e if e.kind() == std::io::ErrorKind::Interrupted => {}
            e if e.kind() == std::io::ErrorKind::WouldBlock => {
                return Err(format!("{} is locked by another process", shown(path)));
            }
            _ => return Ok(None),
        }
    }
}

/// Without `flock`: no lock (see the Unix version).
///
/// # Errors
/// None.
#[cfg(not(unix))]
pub fn lock(_path: &Path, _wait: LockWait) -> Result<Option<File>, String> {
    Ok(None)
}

/// The lock file that guards `path` while one process works on it: `.<name>.lock` beside it.
pub fn lock_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    dir.join(format!(".{name}.lock"))
}

/// Takes the lock beside `path` ([`lock_path`]) without waiting, for a command that works on a
/// file for long that it replaces as it goes (a match state, renamed over at every save): a
/// second process on the same file would interleave its writes with the first's, so it is refused
/// instead.
///
/// # Errors
/// Another process holds the lock: `what` (the option) and the file are named.
pub fn lock_for_work(what: &str, path: &Path) -> Result<Option<File>, String> {
    lock(&lock_path(path), LockWait::Fail).map_err(|_| busy(what, path))
}

/// As [`lock_for_work`], for a file that is only ever appended to or cut (a self-play file): the
/// lock is taken on the file itself, which is created if missing, so nothing is left beside it.
///
/// # Errors
/// Another process holds the lock: `what` (the option) and the file are named.
pub fn lock_in_place(what: &str, path: &Path) -> Result<Option<File>, String> {
    lock(path, LockWait::Fail).map_err(|_| busy(what, path))
}

/// The message of a file another process works on.
fn busy(what: &str, path: &Path) -> String {
    format!(
        "{what} {}: another process is working on this file; wait for it to end or stop it",
        shown(path)
    )
}

/// A path made comparable with another: canonical when it exists, else its directory's canonical
/// path joined with its name (a file that is still to be created).
fn comparable(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (dir.canonicalize(), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => path.to_path_buf(),
    }
}

/// Whether `a` and `b` name the same file: by identity (device and inode) when both exist, so
/// hard links and other spellings are caught; by their comparable paths when one does not exist
/// yet (two outputs still to be created under one name).
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    if let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt;
        return (ma.dev(), ma.ino()) == (mb.dev(), mb.ino());
    }
    comparable(a) == comparable(b)
}

/// Refuses an output that is one of the inputs or another output: `files` are (option, path)
/// pairs, and the first two naming the same file ([`same_file`]) are reported.
///
/// # Errors
/// A message naming both options and the file.
pub fn check_distinct(files: &[(&str, &Path)]) -> Result<(), String> {
    for (i, (a, pa)) in files.iter().enumerate() {
        for (b, pb) in &files[i + 1..] {
            if same_file(pa, pb) {
                return Err(format!(
                    "{a} and {b} name the same file ({}): give the output another name",
                    shown(pb)
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tempo-fsutil-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Issue 53 item 6: a line without end is refused at the bound instead of read whole.
    /// A second lock on the same file is refused without waiting, even from this process (the
    /// lock belongs to the open file), and is had again once the first is dropped.
    #[test]
    fn a_file_at_work_is_locked_once() {
        let d = dir("lock");
        let out = d.join("data.txt");
        assert_eq!(lock_path(&out), d.join(".data.txt.lock"));
        let first = lock_for_work("--out", &out).unwrap();
        if first.is_none() {
            return; // no flock here: nothing to check
        }
        let e = lock_for_work("--out", &out).unwrap_err();
        assert!(e.contains("--out") && e.contains("data.txt"), "{e}");
        assert!(e.contains("another process is working on this file"), "{e}");
        drop(first);
        assert!(lock_for_work("--out", &out).unwrap().is_some());
        // In place: the file itself is locked and nothing is made beside it.
        let inside = d.join("games.txt");
        let held = lock_in_place("--out", &inside).unwrap();
        assert!(held.is_some());
        assert!(lock_in_place("--out", &inside).is_err());
        assert!(!lock_path(&inside).exists());
        drop(held);
        assert!(lock_in_place("--out", &inside).unwrap().is_some());
        // The lock beside a file is never the data: the guarded file is not created or touched.
        assert!(!out.exists());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn lines_are_read_with_a_bound() {
        let mut buf = Vec::new();
        let mut r = &b"ab\ncd"[..];
        assert_eq!(read_line_bounded(&mut r, &mut buf, 4).unwrap(), 3);
        assert_eq!(buf, b"ab\n");
        assert_eq!(read_line_bounded(&mut r, &mut buf, 4).unwrap(), 2);
        assert_eq!(read_line_bounded(&mut r, &mut buf, 4).unwrap(), 0);
        let mut r = &b"abcd\n"[..];
        assert_eq!(read_line_bounded(&mut r, &mut buf, 4).unwrap(), 5);
        let mut r = &b"abcde\n"[..];
        assert!(read_line_bounded(&mut r, &mut buf, 4).is_err());
        let mut r = std::io::BufReader::with_capacity(2, std::io::repeat(0));
        assert!(read_line_bounded(&mut r, &mut buf, 1000).is_err());
    }

    /// Issue 53 items 1 and 2: identity by inode catches a hard link; an atomic write replaces the
    /// file whole and leaves no temporary; a directory is not a target.
    #[test]
    fn same_files_and_atomic_writes() {
        let d = dir("atomic");
        let a = d.join("a");
        std::fs::write(&a, "old").unwrap();
        let link = d.join("link");
        std::fs::hard_link(&a, &link).unwrap();
        assert!(same_file(&a, &link));
        assert!(same_file(&d.join("new"), &d.join(".").join("new")));
        assert!(!same_file(&a, &d.join("new")));
        write_atomic(&a, b"new").unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 2, "no temporary left");
        assert!(check_writable(&d).unwrap_err().contains("directory"));
        assert!(check_writable(Path::new("/nonexistent/w.bin")).is_err());
        #[cfg(unix)]
        assert!(
            check_writable(Path::new("/dev/full"))
                .unwrap_err()
                .contains("device")
        );
        assert!(read_capped(&a, 2).unwrap_err().contains("larger than 2 bytes"));
        assert!(read_capped(&d, 2).unwrap_err().contains("directory"));
        let _ = std::fs::remove_dir_all(&d);
    }
}
