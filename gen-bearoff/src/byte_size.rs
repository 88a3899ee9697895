//! Byte counts for messages, in the decimal units `--memory-limit` reads (`k`, `M`, `G`,
//! `T`: powers of 1000), scaled so that small sizes do not print as `0.00 GB`.

/// `bytes` as `N bytes` below 1 kB, else with two decimals in the largest unit that
/// keeps the number at least 1: `20.33 kB`, `8.39 MB`, `23.56 GB`.
pub fn show(bytes: u64) -> String {
    const UNITS: [(f64, &str); 4] = [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")];
    if bytes < 1000 {
        return format!("{bytes} bytes");
    }
    let b = bytes as f64;
    for (scale, unit) in UNITS {
        // Compared after rounding, so that 999,999 bytes show as 1.00 MB, not 1000.00 kB.
        if (b / scale * 100.0).round() >= 100.0 {
            return format!("{:.2} {unit}", b / scale);
        }
    }
    unreachable!("1000 bytes and more are at least 1.00 kB")
}

#[cfg(test)]
mod tests {
    use super::show;

    #[test]
    fn sizes_show_in_a_unit_that_shows_them() {
        assert_eq!(show(0), "0 bytes");
        assert_eq!(show(999), "999 bytes");
        assert_eq!(show(1000), "1.00 kB");
        assert_eq!(show(20_328), "20.33 kB");
        assert_eq!(show(999_999), "1.00 MB");
        assert_eq!(show(3_000_000), "3.00 MB");
        assert_eq!(show(8_388_608), "8.39 MB");
        assert_eq!(show(23_556_653_608), "23.56 GB");
        assert_eq!(show(4_000_000_000_000), "4.00 TB");
    }
}
