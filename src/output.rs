//! Writing to standard output from the shell commands: a closed output (`| head`) ends a command
//! quietly instead of panicking, as `println!` would.
//!
//! Every face (analyze, match, show, the binary's own commands) writes its lines through [`say!`]
//! or [`output_error`], and `main` exits with status 0 on [`OUTPUT_CLOSED`].

/// The error of a command whose standard output was closed by its reader (`| head`): the command
/// stops, and `tempo` exits quietly with status 0 instead of reporting it.
pub const OUTPUT_CLOSED: &str = "standard output closed";

/// The error for a failed write to standard output: [`OUTPUT_CLOSED`] when the reader has gone.
pub fn output_error(e: std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        OUTPUT_CLOSED.to_string()
    } else {
        format!("cannot write the output: {e}")
    }
}

/// Writes one line to standard output. A failed write (the reader has gone, as with `| head`)
/// becomes an error that ends the command instead of a panic (`tempo::say!` from the binary).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout(), $($arg)*).map_err($crate::output::output_error)
    };
}
