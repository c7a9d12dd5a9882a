//! The engine's one source of randomness: SplitMix64 (Steele, Lea, Flood 2014).
//!
//! Named and fixed so that a seed means the same run on every platform and in every release;
//! it is tiny, passes BigCrush for this use, and its whole state is one `u64`, so a keyframe
//! of the simulation copies it for free.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitMix64 {
    state: u64,
}

/// SplitMix64's increment: each draw adds it to the state.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..bound` (0 when `bound` is 0), by Lemire's multiply-shift.
    pub fn below(&mut self, bound: u64) -> u64 {
        ((self.next_u64() as u128 * bound as u128) >> 64) as u64
    }

    /// Leaves the generator where `draws` calls of [`SplitMix64::next_u64`] would, at once
    /// (the state is a counter).
    pub fn skip(&mut self, draws: u64) {
        self.state = self.state.wrapping_add(GAMMA.wrapping_mul(draws));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_sequence() {
        // Reference values of SplitMix64 seeded with 0 (from the algorithm's definition).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix64::new(7);
        for bound in [1u64, 2, 3, 10, 1000] {
            for _ in 0..100 {
                assert!(r.below(bound) < bound);
            }
        }
        assert_eq!(r.below(0), 0);
    }

    #[test]
    fn skipping_draws_is_drawing_them() {
        for draws in [0u64, 1, 2, 7, 1000] {
            let (mut walked, mut skipped) = (SplitMix64::new(42), SplitMix64::new(42));
            for _ in 0..draws {
                walked.next_u64();
            }
            skipped.skip(draws);
            assert_eq!(walked, skipped, "after {draws} draws");
            assert_eq!(walked.next_u64(), skipped.next_u64());
        }
    }
}
