//! The standard Base64 alphabet as gnubg uses it for Position and Match IDs: whole
//! 6-bit groups, most significant bits first, no padding characters.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Encodes `bytes` into `out.len()` characters (the trailing bits of the last byte group
/// are zero-filled).
pub(crate) fn encode(bytes: &[u8], out_len: usize) -> String {
    let mut out = String::with_capacity(out_len);
    for k in 0..out_len {
        let bit = k * 6;
        let byte = bit / 8;
        let hi = u16::from(bytes.get(byte).copied().unwrap_or(0)) << 8;
        let lo = u16::from(bytes.get(byte + 1).copied().unwrap_or(0));
        let v = ((hi | lo) >> (10 - bit % 8)) & 0x3f;
        out.push(ALPHABET[v as usize] as char);
    }
    out
}

/// The 6-bit value of one Base64 character.
pub(crate) fn value(c: u8) -> Option<u8> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    })
}

/// Decodes characters into `N` bytes. Returns the first invalid character and its
/// position on error. Bits beyond `N` bytes are ignored (gnubg's decoders ignore them).
pub(crate) fn decode<const N: usize>(s: &str) -> Result<[u8; N], (usize, char)> {
    let mut bytes = [0u8; N];
    for (k, c) in s.bytes().enumerate() {
        let v = value(c).ok_or((k, s[k..].chars().next().unwrap_or('?')))?;
        for b in 0..6 {
            if v & (0x20 >> b) != 0 {
                let bit = k * 6 + b;
                if bit / 8 < N {
                    bytes[bit / 8] |= 0x80 >> (bit % 8);
                }
            }
        }
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trips_the_start_key() {
        let key = [0xE0, 0x73, 0xF0, 0x01, 0x30, 0xE0, 0x73, 0xF0, 0x01, 0x30];
        let id = super::encode(&key, 14);
        assert_eq!(id, "4HPwATDgc/ABMA");
        assert_eq!(super::decode::<10>(&id).unwrap(), key);
        assert_eq!(super::decode::<10>("4HPwATDgc/ABM!"), Err((13, '!')));
    }
}
