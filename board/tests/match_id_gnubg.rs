//! Issue 19: "Random 12-character Match IDs decode into impossible states (Crawford flag
//! at score 9,270; money game with a score); check what gnubg accepts and refuse the
//! rest." A sample of IDs is given to gnubg 1.07's `set matchid`; every ID gnubg calls
//! illegal must be refused here, and every ID refused here that gnubg takes must be one
//! of the impossible states gnubg silently changes (documented on `MatchState::from_id`).

use board::MatchState;
use test_support::{gnubg_python, have, GNUBG};

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn encode(key: &[u8; 9]) -> String {
    key.chunks(3)
        .flat_map(|c| {
            let v = u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]);
            (0..4).map(move |k| B64[(v >> (18 - 6 * k) & 63) as usize] as char)
        })
        .collect()
}

fn set_bits(key: &mut [u8; 9], at: usize, width: usize, value: u64) {
    for i in 0..width {
        let (byte, bit) = ((at + i) / 8, (at + i) % 8);
        key[byte] &= !(1 << bit);
        key[byte] |= ((value >> i & 1) as u8) << bit;
    }
}

/// Sample IDs: fully random keys (mostly match lengths far above 64) and random keys
/// whose length and scores are drawn from the interesting values.
fn sample(n: usize) -> Vec<String> {
    let mut s = board::seed::SplitMix::new(19);
    (0..n)
        .map(|i| {
            let mut key = [0u8; 9];
            for b in key.iter_mut() {
                *b = s.next_u64() as u8;
            }
            if i % 4 != 0 {
                let lengths = [0u64, 0, 1, 3, 5, 7, 9, 63, 64, 65, 9270];
                let len = lengths[(s.next_u64() % lengths.len() as u64) as usize];
                let pick = |s: &mut board::seed::SplitMix| {
                    let v = [0, 0, 1, 2, len.saturating_sub(1), len, len + 1, 5];
                    v[(s.next_u64() % 8) as usize]
                };
                let (a, b) = (pick(&mut s), pick(&mut s));
                set_bits(&mut key, 21, 15, len);
                set_bits(&mut key, 36, 15, a);
                set_bits(&mut key, 51, 15, b);
                if i % 3 == 0 {
                    set_bits(&mut key, 15, 6, 0); // no dice, so fewer partial rolls
                }
                if i % 2 == 0 {
                    // Not the Crawford game, and a cube gnubg plays (up to 2^12), so
                    // fewer refused cubes.
                    set_bits(&mut key, 7, 1, 0);
                    set_bits(&mut key, 0, 4, s.next_u64() % 13);
                }
            }
            encode(&key)
        })
        .collect()
}

const BODY: &str = "import os, ctypes
libc = ctypes.CDLL(None)
cap = out.name + '.cap'
for l in lines:
    libc.fflush(None)
    fd = os.open(cap, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    saved = os.dup(1)
    os.dup2(fd, 1)
    os.close(fd)
    gnubg.command('set matchid ' + l)
    libc.fflush(None)
    os.dup2(saved, 1)
    os.close(saved)
    out.write(('illegal' if 'Illegal match ID' in open(cap).read() else 'taken') + '\\n')
os.remove(cap)";

#[test]
fn random_match_ids_decode_into_impossible_states() {
    if !have(&[GNUBG]) {
        return;
    }
    let ids = sample(800);
    let verdicts = gnubg_python(BODY, &ids, 4);
    let (mut both_refuse, mut both_take, mut stricter) = (0, 0, 0);
    for (id, verdict) in ids.iter().zip(&verdicts) {
        match (verdict.as_str(), MatchState::from_id(id)) {
            ("illegal", Ok(m)) => panic!("gnubg refuses {id}, we decode it as {m:?}"),
            ("illegal", Err(_)) => both_refuse += 1,
            ("taken", Ok(_)) => both_take += 1,
            ("taken", Err(e)) => {
                let e = e.to_string();
                assert!(
                    [
                        "cube owner field is 2",
                        "game state",
                        "dice",
                        "Crawford flag",
                        "in the Crawford game",
                        // gnubg refuses it with another message and keeps cube 1.
                        "gnubg's largest cube",
                    ]
                    .iter()
                    .any(|r| e.contains(r)),
                    "gnubg takes {id}, we refuse it for another reason: {e}"
                );
                stricter += 1;
            }
            (v, _) => panic!("unexpected gnubg verdict {v:?}"),
        }
    }
    // The sample reaches every class.
    assert!(
        both_refuse > 100 && both_take > 50 && stricter > 50,
        "{both_refuse} {both_take} {stricter}"
    );
}

#[test]
fn match_id_crawford_at_score_9270_and_long_matches_are_refused() {
    let mut key = [0u8; 9];
    set_bits(&mut key, 4, 2, 3); // cube centred
    set_bits(&mut key, 7, 1, 1); // Crawford
    set_bits(&mut key, 8, 3, 1); // playing
    set_bits(&mut key, 21, 15, 9271);
    set_bits(&mut key, 36, 15, 9270);
    let e = MatchState::from_id(&encode(&key)).unwrap_err().to_string();
    assert!(e.contains("match length 9271 exceeds 64"), "{e}");
    // Crawford flag at 2-4 in a 9-point match: nobody is 1-away.
    set_bits(&mut key, 21, 15, 9);
    set_bits(&mut key, 36, 15, 2);
    set_bits(&mut key, 51, 15, 4);
    let e = MatchState::from_id(&encode(&key)).unwrap_err().to_string();
    assert!(
        e.contains("Crawford flag is set at 2-4 in a 9-point match"),
        "{e}"
    );
    // 8-4: the Crawford game.
    set_bits(&mut key, 36, 15, 8);
    let m = MatchState::from_id(&encode(&key)).unwrap();
    assert!(m.crawford && m.score == [8, 4]);
}
