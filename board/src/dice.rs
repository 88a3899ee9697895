//! Dice: the roll type and a seeded, reproducible dice stream.
//!
//! The stream is the 32-bit Mersenne Twister MT19937 (Matsumoto and Nishimura, 1998),
//! seeded with its standard `init_genrand` routine, the generator gnubg 1.07 uses by
//! default. Each die takes one 32-bit draw `v`: draws at or above
//! 4294967292 (= 6 · 715827882) are rejected and drawn again, otherwise the die is
//! `1 + v / 715827882`, which makes every face exactly equally likely. A roll is two
//! such dice, the first drawn first.

use std::fmt;
use std::str::FromStr;

/// A roll of two dice, stored larger die first (as gnubg's Match ID writes them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dice {
    high: u8,
    low: u8,
}

/// A die value outside 1..=6.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid dice '{0}': each die must be 1-6")]
pub struct DiceError(pub String);

impl Dice {
    /// A roll; the dice may be given in either order. Fails unless both are 1..=6.
    pub fn new(a: u8, b: u8) -> Result<Dice, DiceError> {
        if !(1..=6).contains(&a) || !(1..=6).contains(&b) {
            return Err(DiceError(format!("{a} {b}")));
        }
        Ok(Dice {
            high: a.max(b),
            low: a.min(b),
        })
    }

    /// A roll from any two integers as a user typed them (`-1` or `300` is a bad die
    /// like `7`, named in the same error).
    pub fn from_ints(a: i64, b: i64) -> Result<Dice, DiceError> {
        match (u8::try_from(a), u8::try_from(b)) {
            (Ok(x), Ok(y)) => Dice::new(x, y),
            _ => Err(DiceError(format!("{a} {b}"))),
        }
    }

    /// The larger die.
    pub const fn high(self) -> u8 {
        self.high
    }

    /// The smaller die.
    pub const fn low(self) -> u8 {
        self.low
    }

    /// Both dice show the same number.
    pub const fn is_double(self) -> bool {
        self.high == self.low
    }

    /// How many of the 36 equally likely outcomes give this roll (1 or 2).
    pub const fn weight(self) -> u32 {
        if self.is_double() {
            1
        } else {
            2
        }
    }

    /// The 21 distinct rolls, each once, ordered by larger die then smaller
    /// (11, 21, 22, 31, ...).
    pub fn all() -> impl Iterator<Item = Dice> {
        (1..=6u8).flat_map(|h| (1..=h).map(move |l| Dice { high: h, low: l }))
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.high, self.low)
    }
}

impl FromStr for Dice {
    type Err = DiceError;

    /// Accepts `"31"`, `"3-1"`, `"3 1"` or `"3,1"`.
    fn from_str(s: &str) -> Result<Dice, DiceError> {
        let digits: Vec<u8> = s.bytes().filter(|b| !matches!(b, b'-' | b' ' | b',')).collect();
        match digits[..] {
            // The error quotes the text as given.
            [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => {
                Dice::new(a - b'0', b - b'0').map_err(|_| DiceError(s.to_string()))
            }
            _ => Err(DiceError(s.to_string())),
        }
    }
}

const N: usize = 624;
const M: usize = 397;

/// MT19937, the 32-bit Mersenne Twister, with `init_genrand` seeding.
#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; N],
    index: usize,
}

impl Mt19937 {
    /// Seeds the generator exactly as the reference `init_genrand(seed)`.
    pub fn new(seed: u32) -> Mt19937 {
        let mut state = [0u32; N];
        state[0] = seed;
        for i in 1..N {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: N }
    }

    fn refill(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        for i in 0..N {
            let y = (self.state[i] & UPPER) | (self.state[(i + 1) % N] & LOWER);
            let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
            self.state[i] = self.state[(i + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// The next 32-bit output (`genrand_int32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.refill();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }
}

impl fmt::Debug for Mt19937 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Mt19937 {{ index: {} }}", self.index)
    }
}

/// A reproducible stream of dice: same seed, same rolls, on every platform.
#[derive(Clone, Debug)]
pub struct DiceStream {
    rng: Mt19937,
}

impl DiceStream {
    /// A stream seeded with `seed` (see the module documentation for the algorithm).
    pub fn new(seed: u32) -> DiceStream {
        DiceStream {
            rng: Mt19937::new(seed),
        }
    }

    /// One die, uniform on 1..=6.
    pub fn die(&mut self) -> u8 {
        const BUCKET: u32 = 715_827_882;
        loop {
            let v = self.rng.next_u32();
            if v < 6 * BUCKET {
                return 1 + (v / BUCKET) as u8;
            }
        }
    }

    /// Two dice as drawn (first die first), before any sorting.
    pub fn raw_roll(&mut self) -> (u8, u8) {
        let a = self.die();
        (a, self.die())
    }

    /// The next roll.
    pub fn roll(&mut self) -> Dice {
        let (a, b) = self.raw_roll();
        Dice {
            high: a.max(b),
            low: a.min(b),
        }
    }

    /// An opening roll: rolls until the dice differ, as at the start of a game.
    pub fn opening_roll(&mut self) -> Dice {
        loop {
            let d = self.roll();
            if !d.is_double() {
                return d;
            }
        }
    }

    /// A uniform integer in `0..n` (n > 0), by rejection, for choices such as random moves.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0)");
        let zone = u32::MAX - (u32::MAX % n + 1) % n;
        loop {
            let v = self.rng.next_u32();
            if v <= zone {
                return v % n;
            }
        }
    }

    /// The underlying generator.
    pub fn rng(&mut self) -> &mut Mt19937 {
        &mut self.rng
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outputs published with the reference implementation (mt19937ar.out uses
    /// init_by_array; these are for init_genrand(5489), the C++ std::mt19937 default:
    /// the 10000th output is 4123659995 by the C++ standard, [rand.predef]).
    #[test]
    fn mt19937_matches_the_published_outputs() {
        let mut mt = Mt19937::new(5489);
        assert_eq!(mt.next_u32(), 3_499_211_612);
        assert_eq!(mt.next_u32(), 581_869_302);
        let mut mt = Mt19937::new(5489);
        let last = (0..10_000).map(|_| mt.next_u32()).last().unwrap();
        assert_eq!(last, 4_123_659_995);
    }

    #[test]
    fn same_seed_same_rolls_and_faces_are_uniform() {
        let a: Vec<Dice> = {
            let mut s = DiceStream::new(42);
            (0..1000).map(|_| s.roll()).collect()
        };
        let mut s = DiceStream::new(42);
        assert!(a.iter().all(|&d| d == s.roll()));
        let mut s = DiceStream::new(7);
        let mut faces = [0u32; 6];
        for _ in 0..60_000 {
            faces[s.die() as usize - 1] += 1;
        }
        // Each count is binomial(60000, 1/6): mean 10000, sd ~91; allow 5 sd.
        assert!(faces.iter().all(|&f| (9_545..=10_455).contains(&f)), "{faces:?}");
    }

    #[test]
    fn dice_parse_and_normalise() {
        assert_eq!("3-1".parse::<Dice>().unwrap(), Dice::new(1, 3).unwrap());
        assert_eq!("66".parse::<Dice>().unwrap().weight(), 1);
        assert!("70".parse::<Dice>().is_err());
        // Each error quotes the dice as given: two numbers apart, a text as written.
        assert_eq!(
            Dice::new(7, 1).unwrap_err().to_string(),
            "invalid dice '7 1': each die must be 1-6"
        );
        assert_eq!(
            "0,3".parse::<Dice>().unwrap_err().to_string(),
            "invalid dice '0,3': each die must be 1-6"
        );
        assert_eq!(Dice::all().count(), 21);
        assert_eq!(Dice::all().map(Dice::weight).sum::<u32>(), 36);
        // Integers no die (or byte) holds read as bad dice too.
        assert_eq!(Dice::from_ints(2, 5).unwrap(), Dice::new(5, 2).unwrap());
        for (a, b, text) in [
            (-1, 1, "-1 1"),
            (3, 256, "3 256"),
            (7, 1, "7 1"),
            (i64::MIN, 0, "-9223372036854775808 0"),
        ] {
            assert_eq!(
                Dice::from_ints(a, b).unwrap_err().to_string(),
                format!("invalid dice '{text}': each die must be 1-6")
            );
        }
    }
}
