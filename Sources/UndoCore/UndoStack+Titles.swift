extension UndoStack {
    /// The name of the step ``undo()`` would take back: `nil` when there is nothing to undo,
    /// `.some(nil)` for an unnamed step. Raw, as the action gave it.
    public var undoName: String?? { undoName(in: currentContext) }
    /// The name of the step ``redo()`` would do again (see ``undoName``).
    public var redoName: String?? { redoName(in: currentContext) }

    public func undoName(in scope: UndoContext?) -> String?? {
        guard let index = newestDone(in: scope) else { return nil }
        return .some(name(at: index))
    }

    public func redoName(in scope: UndoContext?) -> String?? {
        guard let index = oldestRedoable(in: scope) else { return nil }
        return .some(name(at: index))
    }

    /// The Undo menu item's title for the current context: "Undo Typing", plain "Undo" for an
    /// unnamed step, and "Undo" (to show disabled, see ``canUndo``) when there is nothing.
    ///
    /// The step's name is asked for on every read (a name may change while its step stays), and
    /// its title is found by the name's bits, so a menu read after every change formats nothing.
    /// - Complexity: O(1) for the whole history once a name has been formatted.
    public var undoMenuTitle: String {
        // The whole history, the common case, without copying the context.
        guard currentContext == nil else { return undoMenuTitle(in: currentContext) }
        return _position > 0 ? undoTitle(of: name(at: _position &- 1)) : undoTitle(of: nil)
    }
    /// The Redo menu item's title for the current context ("Redo Bold").
    public var redoMenuTitle: String {
        guard currentContext == nil else { return redoMenuTitle(in: currentContext) }
        return _position < storage.count ? redoTitle(of: name(at: _position)) : redoTitle(of: nil)
    }

    public func undoMenuTitle(in scope: UndoContext?) -> String {
        // Nothing to undo shows the same plain "Undo" as an unnamed step.
        let index = scope == nil ? (_position > 0 ? _position &- 1 : nil) : newestDone(in: scope)
        return undoTitle(of: index.flatMap(name(at:)))
    }

    public func redoMenuTitle(in scope: UndoContext?) -> String {
        let index = scope == nil ? (_position < storage.count ? _position : nil) : oldestRedoable(in: scope)
        return redoTitle(of: index.flatMap(name(at:)))
    }

    /// The name of the step at `index`, asked of the command in place (no copy of the step).
    @inline(__always)
    func name(at index: Int) -> String? { Self.name(of: &storage.slot(at: index).pointee) }

    @inline(__always)
    private func undoTitle(of name: consuming String?) -> String { title(of: name, undo: true) }

    @inline(__always)
    private func redoTitle(of name: consuming String?) -> String { title(of: name, undo: false) }

    /// The Undo or Redo title of `name`: remembered, or formatted now and remembered. The name
    /// is ended here (without reference counting when it is immortal, see ``StringBits``).
    @inline(__always)
    private func title(of name: consuming String?, undo: Bool) -> String {
        if let found = titleMemo.index(of: name) {
            StringBits.dispose(name, in: titleMemo.scratch)
            return undo ? titleMemo.undoTitle(at: found) : titleMemo.redoTitle(at: found)
        }
        let titles = remember(name)
        return undo ? titles.undo : titles.redo
    }

    /// Formats the titles of `name` and remembers them. The formatter is only read on a miss
    /// (copying it, with every string of its locale, costs more than the lookup).
    @inline(never)
    private func remember(_ name: String?) -> (undo: String, redo: String) {
        let titles = (undo: formatter.undoTitle(for: name), redo: formatter.redoTitle(for: name))
        titleMemo.remember(titles, for: name)
        return titles
    }

    /// What a shake-to-undo alert offers now in the current context: Undo X, Redo Y, Cancel.
    public var alert: UndoAlert { alert(in: currentContext) }

    public func alert(in scope: UndoContext?) -> UndoAlert {
        formatter.alert(undoName: undoName(in: scope), redoName: redoName(in: scope))
    }
}

/// The titles of the last few names formatted, so reading the menu after every change costs a
/// comparison of names, not title-casing them again. Names in one program are few.
///
/// A name is found by its bits first: a name given as a literal (or a copy of one string)
/// matches by its two words, with no string comparison and no reference counting. A table of
/// hints, indexed by a hash of the bits, says where each name was last found, so a hit is one
/// hash and one comparison (a history walked step by step alternates between names, and a
/// search that stops at a different place every time is a branch mispredicted every time).
/// Names that do not match by bits (equal strings built anew) are compared as strings.
struct TitleMemo {
    private struct Entry {
        var key: NameBits
        /// Kept so the bits stay those of a live string (its storage cannot be reused).
        var name: String?
        var undo: String
        var redo: String
    }

    private var entries: [Entry] = []
    /// For each bucket of name bits, the entry a name of that bucket was last found at (checked:
    /// a stale hint just misses).
    private var hints = [UInt8](repeating: 0, count: TitleMemo.hintCount)
    private var next = 0
    /// Room for a name to end and a title to copy (see ``StringBits``), freed by
    /// ``deallocate()``. Holds nothing or an immortal string between uses.
    let scratch = UnsafeMutablePointer<String?>.allocate(capacity: 1)
    static let capacity = 16
    static let hintShift = 58
    static let hintCount = 1 << (64 - hintShift)

    struct NameBits: Equatable {
        var low: UInt64, high: UInt64
        /// No string has these bits: they stand for "unnamed".
        static let unnamed = NameBits(low: 0, high: 0)
        @inline(__always)
        init(low: UInt64, high: UInt64) { self.low = low; self.high = high }
        @inline(__always)
        init(_ name: String?) {
            guard let name else { self = .unnamed; return }
            (low, high) = unsafeBitCast(name, to: (UInt64, UInt64).self)
        }
        /// The hint bucket: the top bits of a multiplicative hash of both words.
        @inline(__always)
        var bucket: Int { Int(truncatingIfNeeded: ((low &+ high.rotated) &* 0x9E37_79B9_7F4A_7C15) &>> UInt64(TitleMemo.hintShift)) }
    }

    /// Where the titles of `name` are, if remembered.
    /// - Complexity: O(1) for a name found by its bits at its hint; O(``capacity``) otherwise.
    @inline(__always)
    mutating func index(of name: String?) -> Int? {
        let key = NameBits(name)
        let bucket = key.bucket
        let hinted = Int(hints[bucket])
        if hinted < entries.count && entries[hinted].key == key { return hinted }
        return search(name, key: key, bucket: bucket)
    }

    @inline(__always)
    func undoTitle(at index: Int) -> String { StringBits.copy(entries[index].undo, via: scratch) }
    @inline(__always)
    func redoTitle(at index: Int) -> String { StringBits.copy(entries[index].redo, via: scratch) }

    /// The entry of `name` by its bits, else by string comparison; remembered as the hint of
    /// its bucket.
    @inline(never)
    private mutating func search(_ name: String?, key: NameBits, bucket: Int) -> Int? {
        guard let found = entries.firstIndex(where: { $0.key == key })
            ?? entries.firstIndex(where: { $0.name == name }) else { return nil }
        hints[bucket] = UInt8(found)
        return found
    }

    /// Remembers the titles of `name`, forgetting the oldest name when full.
    mutating func remember(_ titles: (undo: String, redo: String), for name: String?) {
        let key = NameBits(name)
        let entry = Entry(key: key, name: name, undo: titles.undo, redo: titles.redo)
        let index: Int
        if entries.count < Self.capacity {
            index = entries.count
            entries.append(entry)
        } else {
            index = next
            entries[index] = entry
            next = (next + 1) % Self.capacity
        }
        hints[key.bucket] = UInt8(index)
    }

    mutating func removeAll() {
        entries.removeAll()
        next = 0
    }

    func deallocate() { scratch.deallocate() }

    /// Traps unless every entry is keyed by its own name's bits and holds that name's titles
    /// as `formatter` makes them (see ``UndoStack/checkInvariants()``).
    func check(formatting formatter: UndoTitleFormatter) {
        precondition(entries.count <= Self.capacity && next < Self.capacity, "title memo over its capacity")
        for (index, entry) in entries.enumerated() {
            precondition(entry.key == NameBits(entry.name), "title memo entry \(index) keyed by other bits than its name's")
            precondition(entry.undo == formatter.undoTitle(for: entry.name) && entry.redo == formatter.redoTitle(for: entry.name),
                         "title memo entry \(index) holds other titles than its name's")
        }
    }
}

extension UInt64 {
    /// Rotated by half: mixes the high word's address bits into the low ones.
    @inline(__always)
    fileprivate var rotated: UInt64 { (self &<< 32) | (self &>> 32) }
}

/// Copying and ending strings without the runtime's reference counting when they need none:
/// small strings and literals are immortal (bit 63 of the second word, the runtime's own test),
/// and a menu title or a command's name nearly always is one. The runtime calls that would
/// find that out cost as much as the title lookup they surround.
enum StringBits {
    @inline(__always)
    static func isImmortal(_ high: UInt64) -> Bool { high & (1 << 63) != 0 }

    /// A copy of `string`, retained only if it is not immortal. `scratch` is room for it.
    @inline(__always)
    static func copy(_ string: borrowing String, via scratch: UnsafeMutablePointer<String?>) -> String {
        let bits = unsafeBitCast(string, to: (UInt64, UInt64).self)
        guard isImmortal(bits.1) else { return copy string }
        // The bits written as they are, and moved out as a string: no copy to retain.
        UnsafeMutableRawPointer(scratch).storeBytes(of: bits, as: (UInt64, UInt64).self)
        return scratch.move().unsafelyUnwrapped
    }

    /// Ends `string`, released only if it is not immortal. `scratch` is room for it.
    @inline(__always)
    static func dispose(_ string: consuming String?, in scratch: UnsafeMutablePointer<String?>) {
        scratch.initialize(to: string)
        let high = UnsafeRawPointer(scratch).load(fromByteOffset: 8, as: UInt64.self)
        if !isImmortal(high) { scratch.deinitialize(count: 1) }
    }
}
