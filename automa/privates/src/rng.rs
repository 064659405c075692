//! The automa's own random stream: SplitMix64, seeded by the caller. Never the dice.

/// A small deterministic random stream (SplitMix64).
#[derive(Debug, Clone)]
pub struct Stream {
    state: u64,
}

impl Stream {
    /// A stream from a seed; equal seeds give equal streams.
    pub fn new(seed: u64) -> Stream {
        Stream { state: seed }
    }

    /// A stream for one part of a larger computation: `mix(seed, a, b)`.
    pub fn derived(seed: u64, a: u64, b: u64) -> Stream {
        Stream::new(mix(mix(seed ^ 0x5eed_a07a, a), b))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        finalize(self.state)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// A number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Mixes a value into a seed.
pub fn mix(seed: u64, value: u64) -> u64 {
    finalize(seed ^ value.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17))
}

fn finalize(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_seeds_give_equal_streams_and_below_stays_below() {
        let mut a = Stream::new(7);
        let mut b = Stream::new(7);
        let mut c = Stream::new(8);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        let zs: Vec<u64> = (0..5).map(|_| c.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
        let mut s = Stream::new(1);
        let mut seen = [false; 3];
        for _ in 0..100 {
            let k = s.below(3);
            assert!(k < 3);
            seen[k] = true;
        }
        assert_eq!(seen, [true; 3]);
    }
}
