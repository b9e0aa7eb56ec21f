//! The machine's memory as Linux reports it in `/proc/meminfo`: the transposition table's size
//! limit and the endgame builder's memory plan read it.

/// The value of a `/proc/meminfo` field (for example `MemTotal`, `MemAvailable`) in KiB, or
/// `None` where the file or the field cannot be read.
pub fn kib(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.split(':').next() == Some(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On Linux the machine's total is there and available memory is at most it; a field the
    /// file does not have (or a prefix of one) is `None`.
    #[test]
    fn reads_fields_by_their_whole_name() {
        if std::path::Path::new("/proc/meminfo").exists() {
            let total = kib("MemTotal").expect("MemTotal");
            assert!(total > 0);
            assert!(kib("MemAvailable").is_some_and(|a| a <= total));
        }
        assert_eq!(kib("NoSuchField"), None);
        assert_eq!(kib("Mem"), None);
    }
}
