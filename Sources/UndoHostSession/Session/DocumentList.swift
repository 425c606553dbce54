/// The session's open documents in the order they were opened, each with the plugins that acted
/// in it, indexed by name: finding, adding and closing one cost O(1) amortized, so opening and
/// closing n documents costs O(n) (closing used to rebuild the whole index: O(n²)).
///
/// A closed document leaves a hole in `entries` (its slot becomes `nil`); the holes are squeezed
/// out once they outnumber the open documents, so each close pays for a bounded share of that
/// copy. Invariants: `positions[name] == i` exactly when `entries[i]?.name == name`; `holes` is
/// the number of `nil` slots; the last slot, if any, is not a hole.
struct DocumentList: Sequence {
    typealias Document = (name: String, plugins: [String])

    private var entries: [Document?] = []
    private var positions: [String: Int] = [:]
    private var holes = 0
    /// How many entries were copied to squeeze out holes, over the list's life (tests count it).
    private(set) var entriesMoved = 0

    /// Whether a document of this name is open.
    /// - Complexity: O(1)
    func contains(_ name: String) -> Bool { positions[name] != nil }

    /// The plugins that acted in the document (empty when it is not open).
    /// - Complexity: O(1)
    func plugins(of name: String) -> [String] { positions[name].flatMap { entries[$0]?.plugins } ?? [] }

    /// The newest open document.
    /// - Complexity: O(1)
    var last: Document? { entries.last ?? nil }

    /// Adds a document at the end.
    /// - Complexity: O(1) amortized.
    mutating func append(_ name: String, plugins: [String] = []) {
        assert(positions[name] == nil, "document \(name) is already open")
        positions[name] = entries.count
        entries.append((name, plugins))
    }

    /// Notes that `plugin` acted in the document, opening it when it is not open.
    /// - Complexity: O(plugins of the document)
    mutating func note(_ name: String, usedBy plugin: String) {
        guard let index = positions[name] else { return append(name, plugins: [plugin]) }
        if entries[index]?.plugins.contains(plugin) == false { entries[index]?.plugins.append(plugin) }
    }

    /// Closes a document (nothing happens when it is not open).
    /// - Returns: whether it was open.
    /// - Complexity: O(1) amortized.
    @discardableResult
    mutating func remove(_ name: String) -> Bool {
        guard let index = positions.removeValue(forKey: name) else { return false }
        entries[index] = nil
        holes += 1
        // The last slot is never a hole: each slot is dropped here at most once.
        while let tail = entries.last, tail == nil {
            entries.removeLast()
            holes -= 1
        }
        if holes > 16 && holes > entries.count - holes { squeezeOutHoles() }
        checkInvariants()
        return true
    }

    /// Forgets a plugin in every document (it was unloaded).
    /// - Complexity: O(documents × their plugins)
    mutating func forget(plugin: String) {
        for index in entries.indices { entries[index]?.plugins.removeAll { $0 == plugin } }
    }

    func makeIterator() -> some IteratorProtocol<Document> {
        entries.lazy.compactMap { $0 }.makeIterator()
    }

    private mutating func squeezeOutHoles() {
        entries.removeAll { $0 == nil }
        for (index, entry) in entries.enumerated() { positions[entry!.name] = index }
        entriesMoved += entries.count
        holes = 0
    }

    /// Checks the invariants in debug builds (O(documents): only while few are open).
    private func checkInvariants() {
        #if DEBUG
        guard entries.count <= 64 else { return }
        assert(entries.last.map { $0 != nil } ?? true, "a hole at the end")
        assert(entries.filter { $0 == nil }.count == holes, "holes miscounted")
        for (index, entry) in entries.enumerated() {
            if let entry { assert(positions[entry.name] == index, "\(entry.name) indexed wrongly") }
        }
        assert(positions.count == entries.count - holes, "index and list disagree")
        #endif
    }
}
