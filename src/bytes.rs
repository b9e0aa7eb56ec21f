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

    /// An unsigned LEB128 number of at most 32 bits: seven bits a byte, low bits first, the high
    /// bit set on every byte but the last.
    ///
    /// # Errors
    /// The slice ends inside the number, or it does not fit 32 bits.
    pub fn varint(&mut self, what: &str) -> Result<u32, String> {
        let mut value: u64 = 0;
        for shift in (0..35).step_by(7) {
            let b = self.u8(what)?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return u32::try_from(value).map_err(|_| format!("the {what} does not fit 32 bits"));
            }
        }
        Err(format!("the {what} does not fit 32 bits"))
    }
}

/// Appends `value` to `out` as an unsigned LEB128 number (what [`ByteReader::varint`] reads).
pub fn push_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
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

    #[test]
    fn varints_round_trip_and_refuse_overlong_or_cut_numbers() {
        let values = [0, 1, 127, 128, 300, 16_383, 16_384, 531_441, u32::MAX];
        let mut bytes = Vec::new();
        for v in values {
            super::push_varint(&mut bytes, v);
        }
        // 1 + 1 + 1 + 2 + 2 + 2 + 3 + 3 + 5 bytes.
        assert_eq!(bytes.len(), 20);
        let mut r = ByteReader::new(&bytes);
        for v in values {
            assert_eq!(r.varint("n").unwrap(), v);
        }
        assert!(r.rest().is_empty());
        let err = ByteReader::new(&[0x80, 0x80]).varint("run").unwrap_err();
        assert!(err.contains("truncated") && err.contains("run"), "{err}");
        let err = ByteReader::new(&[0xff, 0xff, 0xff, 0xff, 0x1f])
            .varint("run")
            .unwrap_err();
        assert!(err.contains("32 bits"), "{err}");
        let err = ByteReader::new(&[0x80; 6]).varint("run").unwrap_err();
        assert!(err.contains("32 bits"), "{err}");
    }
}
