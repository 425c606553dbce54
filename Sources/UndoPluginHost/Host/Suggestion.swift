/// Finds the known word closest to a mistyped one, for "did you mean ...?" hints: the one
/// edit distance of the project (action ids here, commands, documents and error codes in
/// undo-host).
public enum Suggestion {
    /// Words longer than this (in Characters) get no suggestion: a hint for them would not
    /// help, and comparing them would cost their length times every candidate's.
    public static let maximumWordLength = 64
    /// At most this many candidates of a plausible length are compared with the word; a list
    /// longer than that is searched only in its first ones.
    public static let maximumComparisons = 4096

    /// The candidate nearest to `word` by edit distance (case-insensitive), if it is close
    /// enough to be a plausible typo: at most `allowed` edits (by default a third of the
    /// word's length, and at least 1). Ties go to the earlier candidate.
    /// - Complexity: O(total length of the candidates) to look at them, plus at most
    ///   ``maximumComparisons`` edit distances of ``maximumWordLength`` × (2 × allowed + 1) steps;
    ///   O(1) for a word longer than ``maximumWordLength``.
    public static func closest(to word: String, among candidates: some Sequence<String>, allowed: Int? = nil) -> String? {
        var steps = 0
        return closest(to: word, among: candidates, allowed: allowed, steps: &steps)
    }

    /// ``closest(to:among:allowed:)``, counting the edit distance's steps in `steps` (for the
    /// tests that prove its bound).
    static func closest(to word: String, among candidates: some Sequence<String>, allowed: Int?, steps: inout Int) -> String? {
        guard word.prefix(maximumWordLength + 1).count <= maximumWordLength else { return nil }
        let typed = Array(word.lowercased())
        let allowed = allowed ?? max(1, typed.count / 3)
        var best: (candidate: String, distance: Int)?
        var compared = 0
        for candidate in candidates {
            // Too long or too short to be within `allowed` edits: not compared.
            guard candidate.utf8.count >= typed.count - allowed,
                  candidate.prefix(typed.count + allowed + 1).count <= typed.count + allowed else { continue }
            let other = Array(candidate.lowercased())
            guard abs(other.count - typed.count) <= allowed else { continue }
            compared += 1
            if compared > maximumComparisons { break }
            let limit = min(allowed, (best?.distance ?? .max) - 1)
            guard limit >= 0, let distance = editDistance(typed, other, atMost: limit, steps: &steps) else { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// The edit distance when it is at most `limit`, else nil: only the band of cells within
    /// `limit` of the diagonal is computed, and the computation stops once a whole row is past it.
    static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int, steps: inout Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let far = limit + 1 // stands for "more than limit"
        var beforePrevious = [Int](repeating: far, count: b.count + 1)
        var previous = (0...b.count).map { min($0, far) }
        var current = [Int](repeating: far, count: b.count + 1)
        for i in 1...a.count {
            let low = max(1, i - limit), high = min(b.count, i + limit)
            for j in current.indices { current[j] = far }
            current[0] = min(i, far)
            var rowBest = current[0]
            if low <= high {
                for j in low...high {
                    steps += 1
                    let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    var value = min(previous[j] + 1, current[j - 1] + 1, substitution)
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        value = min(value, beforePrevious[j - 2] + 1)
                    }
                    current[j] = min(value, far)
                    rowBest = min(rowBest, current[j])
                }
            }
            if rowBest > limit { return nil }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// The Damerau-Levenshtein distance (insertions, deletions, substitutions and swaps of
    /// two neighbours each cost 1; "udno" is one step from "undo").
    /// - Complexity: O(a.count × b.count) time, O(b.count) space.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
