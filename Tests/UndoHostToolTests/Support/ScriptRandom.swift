/// The numbers the journal tests' generated scripts are made from: a 64-bit linear
/// congruential generator, the same sequence for the same seed on every machine.
struct ScriptRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}
