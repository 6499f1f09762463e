/// A small, fast, seeded pseudo-random number generator (SplitMix64), so that a scenario run with a given seed
/// posts and registers the same things every time.
///
/// `SystemRandomNumberGenerator` is not seedable; this generator is, and it passes BigCrush for what a load
/// generator needs.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed and any number of further values that select an independent stream.
    init(seed: UInt64, stream: UInt64...) {
        var state = seed
        for value in stream {
            state = SplitMix64.mix(state &+ 0x9E37_79B9_7F4A_7C15 &* (value &+ 1))
        }
        self.state = state
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix(state)
    }

    /// A number in `0..<1`.
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
