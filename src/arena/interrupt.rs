//! Ctrl-C (SIGINT) during a match: the first one sets a flag that the match loop reads (it stops
//! the match, which prints its statistics once more and ends); a second one ends the process at
//! once, for a match whose engines do not stop.
//!
//! The handler does only what a signal handler may: it stores to an atomic, or calls `_exit`.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first SIGINT.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The exit status of a process ended by a second Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_STATUS: i32 = 130;

#[cfg(unix)]
extern "C" fn on_sigint(_: libc::c_int) {
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // SAFETY (of the call): `_exit` is async-signal-safe; the process ends without running
        // destructors, which a second Ctrl-C asks for.
        #[allow(unsafe_code)]
        unsafe {
            libc::_exit(EXIT_STATUS)
        };
    }
}

/// Installs the SIGINT handler (on Unix; elsewhere Ctrl-C keeps its default effect).
#[allow(unsafe_code)]
pub fn install() {
    #[cfg(unix)]
    {
        let handler = on_sigint as extern "C" fn(libc::c_int);
        // SAFETY: the handler only touches an atomic and calls `_exit`, both async-signal-safe;
        // `signal` with a valid function pointer has no other precondition.
        unsafe {
            libc::signal(libc::SIGINT, handler as libc::sighandler_t);
        }
    }
}

/// Whether Ctrl-C was pressed since the handler was installed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
