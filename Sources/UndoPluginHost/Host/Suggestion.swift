/// Finds the known word closest to a mistyped one, for "did you mean ...?" hints: the one
/// edit distance of the project (action ids here, commands, documents and error codes in
/// undo-host).
public enum Suggestion {
    /// The candidate nearest to `word` by edit distance (case-insensitive), if it is close
    /// enough to be a plausible typo: at most `allowed` edits (by default a third of the
    /// word's length, and at least 1). Ties go to the earlier candidate.
    /// - Complexity: O(length of `word` × total length of the candidates).
    public static func closest(to word: String, among candidates: some Sequence<String>, allowed: Int? = nil) -> String? {
        let typed = Array(word.lowercased())
        let allowed = allowed ?? max(1, typed.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= allowed && distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
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
