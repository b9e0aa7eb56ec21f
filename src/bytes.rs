//! Little-endian fields read off the front of a byte slice: the one reader of Tempo's binary
//! files (weight files in `eval::weights`, endgame tables in `egdb::file`).

/// A cursor over a byte slice; every read names the field it reads, so that a file cut short
/// says where it ends.
pub struct ByteReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> ByteReader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        ByteReader { bytes, at: 0 }
    }

    /// The next `n` bytes, or an error naming `what` if the slice ends first.
    ///
    /// # Errors
    /// Fewer than `n` bytes are left.
    pub fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(end) => {
                let s = &self.bytes[self.at..end];
                self.at = end;
                Ok(s)
            }
            None => Err(format!(
                "the file is truncated ({} bytes; it ends in the {what})",
                self.bytes.len()
            )),
        }
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.bytes[self.at..]
    }

    /// The next `N` bytes as an array.
    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], String> {
        let mut a = [0; N];
        a.copy_from_slice(self.take(N, what)?);
        Ok(a)
    }

    /// A byte.
    ///
    /// # Errors
    /// The slice has ended.
    pub fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }

    /// A little-endian `u16`.
    ///
    /// # Errors
    /// Fewer than 2 bytes are left.
    pub fn u16(&mut self, what: &str) -> Result<u16, String> {
        self.array(what).map(u16::from_le_bytes)
    }

    /// A little-endian `u32`.
    ///
    /// # Errors
    /// Fewer than 4 bytes are left.
    pub fn u32(&mut self, what: &str) -> Result<u32, String> {
        self.array(what).map(u32::from_le_bytes)
    }

    /// A little-endian `u64`.
    ///
    /// # Errors
    /// Fewer than 8 bytes are left.
    pub fn u64(&mut self, what: &str) -> Result<u64, String> {
        self.array(what).map(u64::from_le_bytes)
    }

    /// A little-endian `f32`.
    ///
    /// # Errors
    /// Fewer than 4 bytes are left.
    pub fn f32(&mut self, what: &str) -> Result<f32, String> {
        self.array(what).map(f32::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::ByteReader;

    #[test]
    fn fields_are_little_endian_and_a_short_slice_names_the_field() {
        let mut r = ByteReader::new(&[7, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(r.u8("a").unwrap(), 7);
        assert_eq!(r.u16("b").unwrap(), 0x0201);
        assert_eq!(r.u32("c").unwrap(), 0x0605_0403);
        let err = r.u32("tail").unwrap_err();
        assert!(err.contains("8 bytes") && err.contains("tail"), "{err}");
        // A failed read consumes nothing.
        assert_eq!(r.u8("last").unwrap(), 7);
        assert!(r.take(usize::MAX, "huge").is_err());
    }
}
