//! The kernels against their scalar twin, bit for bit.

use super::*;

/// A net with irregular weights and a hidden size that is not a multiple of 8.
fn net(hidden: usize) -> Net {
    net_with_inputs(250, hidden)
}

/// Irregular values in [−w, w) from a linear congruential sequence seeded with `seed`.
fn uniform(seed: u32, w: f32) -> impl FnMut() -> f32 {
    let mut x = seed;
    move || {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (x >> 8) as f32 / (1 << 24) as f32 * (2.0 * w) - w
    }
}

fn net_with_inputs(inputs: usize, hidden: usize) -> Net {
    let mut n = Net::zeros(inputs, hidden, 5);
    let mut next = uniform(12345, 4.0);
    n.hidden_weights.iter_mut().for_each(|w| *w = next());
    n.hidden_thresholds.iter_mut().for_each(|w| *w = next() * 10.0);
    n
}

#[test]
fn vector_and_scalar_reciprocals_agree_bit_for_bit() {
    if !cpu::has_avx2() {
        eprintln!("skipping: no AVX2");
        return;
    }
    let mut x = 1.0f32;
    while x < 20000.0 {
        let v = [
            x,
            x * 1.0001,
            x * 1.3,
            x * 1.7,
            x * 2.1,
            x * 3.3,
            x * 5.5,
            x * 7.9,
        ];
        // SAFETY: AVX2 checked above.
        let got = unsafe { avx2::recip8(v) };
        for (g, &y) in got.iter().zip(&v) {
            assert_eq!(g.to_bits(), approx_recip(y).to_bits(), "{y}");
        }
        x *= 1.000_37;
    }
}

#[test]
#[cfg(target_arch = "x86_64")]
fn four_lane_sigmoid_agrees_bit_for_bit_with_scalar() {
    use std::arch::x86_64::*;
    let mut xs: Vec<f32> = vec![
        0.0, -0.0, 10.0, -10.0, 9.999_999, -9.999_999, 1e-30, -1e-30, 1e30, -1e30,
    ];
    xs.extend([
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MIN_POSITIVE,
        0.1,
        -0.1,
        9.95,
        -9.95,
    ]);
    // A fine sweep across the table's range and past it, and bit patterns in between.
    xs.extend((-130_000..=130_000).map(|k| k as f32 * 1e-4));
    let mut b = 0x3a00_0000u32;
    while b < 0x4200_0000 {
        xs.extend([f32::from_bits(b), -f32::from_bits(b)]);
        b += 997;
    }
    for chunk in xs.chunks(4) {
        let mut v = [0.5f32; 4];
        v[..chunk.len()].copy_from_slice(chunk);
        let mut got = [0f32; 4];
        // SAFETY: SSE2 is part of x86-64.
        unsafe { _mm_storeu_ps(got.as_mut_ptr(), sse::sigmoid_ps(_mm_loadu_ps(v.as_ptr()))) };
        for (g, &x) in got.iter().zip(&v) {
            assert_eq!(
                g.to_bits(),
                crate::sigmoid::sigmoid(x).to_bits(),
                "sigmoid({x:e})"
            );
        }
    }
}

#[test]
fn slot_masks_agree_with_the_portable_code() {
    let mut side = [0u8; 25];
    for k in 0..2000u32 {
        side[(k * 7 % 25) as usize] = (k * 13 % 16) as u8;
        assert_eq!(slot_masks(&side), slot_masks_scalar(&side), "{side:?}");
    }
    let start = [
        0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0,
    ];
    let m = slot_masks(&start);
    assert_eq!(
        (m.any, m.one, m.two, m.made),
        (0x80_10a0, 0, 0x80_0000, 0x80_10a0)
    );
}

/// An activation buffer full of NaNs: every kernel must write all of it (from the
/// net's thresholds), whatever it held.
fn garbage(hidden: usize) -> Vec<f32> {
    vec![f32::NAN; hidden]
}

#[test]
fn every_kernel_agrees_bit_for_bit_with_scalar() {
    for hidden in [5, 8, 13, 16, 32, 48, 64, 72, 128, 131, 144, 176, 256] {
        let n = net(hidden);
        let inputs: Vec<f32> = (0..250)
            .map(|i| [0.0, 1.0, 0.5, 2.5, 0.0, 0.123][i % 6])
            .collect();
        let mut want = garbage(hidden);
        hidden_layer_with(Kernel::Scalar, &n, &inputs, &mut want);
        let mut scalar_out = [0f32; 5];
        scalar::outputs(&n, &want, &mut scalar_out);
        let mut fast_out = [0f32; 5];
        output_layer(&n, None, &want, &mut fast_out);
        assert_eq!(
            scalar_out.map(f32::to_bits),
            fast_out.map(f32::to_bits),
            "outputs, hidden {hidden}"
        );
        // The interleaved layout (the AVX-512 output kernel where present).
        let interleaved = interleave_outputs(&n);
        let mut laid_out = [0f32; 5];
        output_layer(&n, Some(&interleaved), &want, &mut laid_out);
        assert_eq!(
            scalar_out.map(f32::to_bits),
            laid_out.map(f32::to_bits),
            "interleaved outputs, hidden {hidden}"
        );
        for k in [Kernel::Avx2, Kernel::Avx512] {
            let ok = match k {
                Kernel::Avx512 => cpu::has_avx512(),
                _ => cpu::has_avx2(),
            };
            if !ok {
                eprintln!("skipping {k:?}: not supported here");
                continue;
            }
            let mut got = garbage(hidden);
            hidden_layer_with(k, &n, &inputs, &mut got);
            let same = want.iter().zip(&got).all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(same, "{k:?} differs at hidden size {hidden}");
            // In a pair, with zeros in different places in the partner's inputs
            // (and this one first or second).
            let other: Vec<f32> = (0..250).map(|i| [0.75, 0.0, 1.0, 0.0][i % 4]).collect();
            let mut want_other = garbage(hidden);
            hidden_layer_with(Kernel::Scalar, &n, &other, &mut want_other);
            let (mut x, mut y) = (garbage(hidden), garbage(hidden));
            hidden_layer_pair_with(k, &n, [&inputs, &other], [&mut x, &mut y]);
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                (bits(&x), bits(&y)),
                (bits(&want), bits(&want_other)),
                "{k:?} pair, hidden {hidden}"
            );
            let (mut x, mut y) = (garbage(hidden), garbage(hidden));
            hidden_layer_pair_with(k, &n, [&other, &inputs], [&mut x, &mut y]);
            assert_eq!(
                (bits(&x), bits(&y)),
                (bits(&want_other), bits(&want)),
                "{k:?} pair, hidden {hidden}"
            );
            let mut single = [0f32; 5];
            output_layer(&n, None, &want_other, &mut single);
            for layout in [None, Some(&interleaved[..])] {
                let (mut o1, mut o2) = ([0f32; 5], [0f32; 5]);
                output_layer_pair(&n, layout, [&want, &want_other], [&mut o1, &mut o2]);
                assert_eq!(
                    (o1.map(f32::to_bits), o2.map(f32::to_bits)),
                    (fast_out.map(f32::to_bits), single.map(f32::to_bits))
                );
            }
        }
    }
}

#[test]
fn every_kernel_agrees_on_any_input_length_and_sparsity() {
    for len in [7, 16, 200, 214, 250, 256] {
        let n = net_with_inputs(len, 128);
        let dense: Vec<f32> = (0..len).map(|i| [0.25, 1.0, -3.0][i % 3]).collect();
        let zeros = vec![0.0f32; len];
        // Non-zero only in the last block of sixteen (partly masked when len is not a
        // multiple of 16).
        let tail: Vec<f32> = (0..len)
            .map(|i| {
                if i >= len / 16 * 16 && i % 2 == 0 {
                    1.5
                } else {
                    0.0
                }
            })
            .collect();
        let inputs = [dense, zeros, tail];
        let want: Vec<Vec<f32>> = inputs
            .iter()
            .map(|x| {
                let mut a = garbage(128);
                hidden_layer_with(Kernel::Scalar, &n, x, &mut a);
                a
            })
            .collect();
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        for k in [Kernel::Avx2, Kernel::Avx512] {
            for (x, w) in inputs.iter().zip(&want) {
                let mut got = garbage(128);
                hidden_layer_with(k, &n, x, &mut got);
                assert_eq!(bits(&got), bits(w), "{k:?}, {len} inputs");
                for (y, v) in inputs.iter().zip(&want) {
                    let (mut a, mut b) = (garbage(128), garbage(128));
                    hidden_layer_pair_with(k, &n, [x, y], [&mut a, &mut b]);
                    assert_eq!((bits(&a), bits(&b)), (bits(w), bits(v)), "{k:?} pair, {len}");
                }
            }
        }
    }
}

#[test]
fn layers_from_given_sums_agree_with_the_full_layer_and_across_kernels() {
    for hidden in [8, 128, 144] {
        let n = net(hidden);
        let base: Vec<f32> = (0..250).map(|i| [0.0, 1.0, 0.5, 0.0, 2.5][i % 5]).collect();
        let other: Vec<f32> = (0..250)
            .map(|i| if i % 7 == 3 { 0.75 } else { base[i] })
            .collect();
        let delta: Vec<f32> = other.iter().zip(&base).map(|(a, b)| a - b).collect();
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        let mut full = garbage(hidden);
        hidden_layer_with(Kernel::Scalar, &n, &base, &mut full);
        let mut full_other = garbage(hidden);
        hidden_layer_with(Kernel::Scalar, &n, &other, &mut full_other);
        let mut per_kernel = Vec::new();
        for k in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
            // From the thresholds: the full layer, bit for bit.
            let mut act = garbage(hidden);
            hidden_layer_from_with(k, &n, &n.hidden_thresholds, &base, &mut act, true);
            assert_eq!(bits(&act), bits(&full), "{k:?}, hidden {hidden}");
            // The base's sums, then the other position from them.
            let mut sums = garbage(hidden);
            hidden_layer_from_with(k, &n, &n.hidden_thresholds, &base, &mut sums, false);
            let mut again = sums.clone();
            scalar::activate(n.beta_hidden, &mut again);
            assert_eq!(bits(&again), bits(&full), "sums, {k:?}");
            let mut inc = garbage(hidden);
            hidden_layer_from_with(k, &n, &sums, &delta, &mut inc, true);
            let worst = inc
                .iter()
                .zip(&full_other)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f32::max);
            assert!(worst < 1e-6, "{k:?}: incremental differs by {worst}");
            per_kernel.push(bits(&inc));
        }
        assert!(
            per_kernel.iter().all(|b| *b == per_kernel[0]),
            "kernels agree, hidden {hidden}"
        );
        // Two at once, in both orders, with the base itself (all differences zero).
        let zeros = vec![0.0f32; 250];
        let mut sums = garbage(hidden);
        hidden_layer_from(&n, &n.hidden_thresholds, &base, &mut sums, false);
        for k in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
            for (x, y, wx, wy) in [
                (&delta, &zeros, &per_kernel[0], &bits(&full)),
                (&zeros, &delta, &bits(&full), &per_kernel[0]),
            ] {
                let (mut a, mut b) = (garbage(hidden), garbage(hidden));
                hidden_layer_pair_from_with(k, &n, &sums, [x, y], [&mut a, &mut b]);
                assert_eq!((&bits(&a), &bits(&b)), (wx, wy), "{k:?} pair, hidden {hidden}");
            }
        }
    }
}

#[test]
fn every_kernel_refuses_more_inputs_than_the_net_has_rows_for() {
    let n = net(128);
    let too_many = vec![1.0f32; n.inputs + 1];
    for kernel in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
        let single = std::panic::catch_unwind(|| {
            hidden_layer_with(kernel, &n, &too_many, &mut vec![0.0; 128]);
        });
        let pair = std::panic::catch_unwind(|| {
            let (mut a, mut b) = (vec![0.0; 128], vec![0.0; 128]);
            hidden_layer_pair_with(kernel, &n, [&too_many, &too_many], [&mut a, &mut b]);
        });
        // Refused by the check itself, not by some later panic.
        for (what, r) in [("single", single), ("pair", pair)] {
            let message = r.expect_err(what);
            let message = message.downcast_ref::<&str>().copied().unwrap_or_default();
            assert_eq!(message, "a row of hidden weights per input", "{kernel:?} {what}");
        }
    }
}

#[test]
fn weight_updates_agree_bit_for_bit_on_every_kernel() {
    // Rows of irregular weights, inputs with zeros, ones and fractions, a gradient that
    // is not a multiple of any vector width.
    let mut next = uniform(777, 1.0);
    // Input lengths: whole blocks of eight, a tail, and more than one listing chunk
    // (256 inputs) with a tail.
    for (len, n) in [
        (40, 1),
        (40, 5),
        (43, 16),
        (40, 37),
        (40, 128),
        (43, 131),
        (300, 16),
    ] {
        let g: Vec<f32> = (0..n).map(|_| next() * 0.3).collect();
        let inputs: Vec<f32> = (0..len)
            .map(|i| match i % 5 {
                0 => 0.0,
                1 => 1.0,
                2 => -0.0,
                _ => next(),
            })
            .collect();
        let start: Vec<f32> = (0..len * n).map(|_| next() * 4.0).collect();
        let mut reference = start.clone();
        // The loop the kernels stand for, written out.
        for (i, &xi) in inputs.iter().enumerate() {
            if xi != 0.0 {
                let d = 0.0123f32 * xi;
                for j in 0..n {
                    reference[i * n + j] += d * g[j];
                }
            }
        }
        for kernel in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
            let mut w = start.clone();
            add_outer_with(kernel, &mut w, &inputs, 0.0123, &g);
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&w), bits(&reference), "{kernel:?}, n = {n}");
            // Rows of zero inputs are untouched; the others moved.
            assert_eq!(w[..n], start[..n]);
            assert_ne!(w[n..2 * n], start[n..2 * n]);
        }
    }
}

#[test]
fn merged_differences_agree_bit_for_bit_on_every_kernel() {
    let mut next = uniform(4242, 4.0);
    for n in [1, 7, 16, 33, 250] {
        let m: Vec<f32> = (0..n).map(|_| next()).collect();
        let b: Vec<f32> = (0..n).map(|_| next()).collect();
        // A learned copy: most values moved a little, some not at all.
        let o: Vec<f32> = b
            .iter()
            .enumerate()
            .map(|(i, &v)| if i % 3 == 0 { v } else { v + next() * 1e-3 })
            .collect();
        let reference: Vec<u32> = (0..n).map(|i| (m[i] + (o[i] - b[i])).to_bits()).collect();
        for kernel in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
            let mut got = m.clone();
            add_difference_with(kernel, &mut got, &o, &b);
            let bits: Vec<u32> = got.iter().map(|f| f.to_bits()).collect();
            assert_eq!(bits, reference, "{kernel:?}, n = {n}");
            // The same sums written over the learned copy.
            let mut onto = o.clone();
            add_difference_onto_with(kernel, &mut onto, &m, &b);
            let bits: Vec<u32> = onto.iter().map(|f| f.to_bits()).collect();
            assert_eq!(bits, reference, "onto, {kernel:?}, n = {n}");
        }
    }
}

/// The vector listing of non-zero inputs as bits agrees with the portable loop on any
/// length and sparsity, −0.0 (zero) and NaN (not zero) included, and ORs into what
/// the words held.
#[test]
fn nonzero_bits_agree_with_the_portable_code() {
    let mut next = uniform(7, 1.0);
    for len in [0, 1, 3, 4, 5, 63, 64, 65, 200, 214, 250] {
        for density in [0.0, 0.2, 0.5, 1.0] {
            let x: Vec<f32> = (0..len)
                .map(|i| {
                    let r = next();
                    match i % 13 {
                        5 => -0.0,
                        11 => f32::NAN,
                        _ if r.abs() < density => r,
                        _ => 0.0,
                    }
                })
                .collect();
            let start = [0x8000_0000_0000_0001u64, 0, 1 << 40, 0];
            let mut a = start;
            update::or_nonzero_bits_portable(&x, &mut a);
            let mut b = start;
            or_nonzero_bits(&x, &mut b);
            assert_eq!(a, b, "length {len}, density {density}");
            for (i, &v) in x.iter().enumerate() {
                assert_eq!(
                    a[i / 64] >> (i % 64) & 1 == 1,
                    v != 0.0 || start[i / 64] >> (i % 64) & 1 == 1
                );
            }
        }
    }
}
