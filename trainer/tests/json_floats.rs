//! Checkpoints keep their statistics in JSON (`state.json`, `supervised.json`): a
//! resumed run continues from the floats it reads back, so every f64 must read back
//! bit for bit. serde_json's default parser can be one unit in the last place off
//! (0.20344259359556177 came back as …174 in a resumed `trainer td`'s curve.csv);
//! the workspace enables its `float_roundtrip` feature.

/// SplitMix64: the test's own stream of bits (no seed rule to share).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn every_f64_reads_back_from_json_bit_for_bit() {
    let mut state = 17u64;
    let mut values = vec![0.203_442_593_595_561_77_f64, 1e-300, 5e-324, f64::MAX, -0.0];
    // Statistics in [0, 1) (probabilities, errors, standard errors) and any finite f64.
    for _ in 0..20_000 {
        values.push((splitmix(&mut state) >> 11) as f64 / (1u64 << 53) as f64);
        let bits = f64::from_bits(splitmix(&mut state));
        if bits.is_finite() {
            values.push(bits);
        }
    }
    let text = serde_json::to_string(&values).unwrap();
    let back: Vec<f64> = serde_json::from_str(&text).unwrap();
    for (a, b) in values.iter().zip(&back) {
        assert_eq!(a.to_bits(), b.to_bits(), "{a:e} read back as {b:e}");
    }
}
