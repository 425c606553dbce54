import UndoPluginABI

/// The state of a document as save_document_v2 (ABI 1.8) writes it, with
/// `undo_host.write_document`, in pieces of any size.
///
/// Pieces are copied into blocks of at least ``blockSize`` bytes (a larger piece is a block of
/// its own), so a plugin writing a byte at a time costs no array per byte, and no byte is
/// copied again while the state grows (an array grown by doubling copies what it holds at each
/// step, and for a moment holds it twice over). ``joined()`` makes the one block the host's
/// API hands on, freeing each block as soon as it is copied: the state is never held more than
/// once plus one block.
///
/// Invariants (checked in debug builds, the sum when the blocks are joined): `count` is the
/// sum of the blocks' counts, at most `limit`; `bytesCopied` is what was copied in so far.
final class DocumentPieces {
    /// The smallest block pieces are gathered in.
    static let blockSize = 1 << 20

    /// The most bytes the state may hold.
    let limit: Int
    private(set) var blocks: [[UInt8]] = []
    /// The bytes written so far.
    private(set) var count = 0
    /// Bytes copied by ``append(_:)`` and ``joined()`` together (what the tests count).
    private(set) var bytesCopied = 0
    /// A piece would have passed `limit`: the save fails.
    private(set) var isOverLimit = false

    init(limit: Int) { self.limit = limit }

    /// A piece too large to be counted came: the save fails.
    func markOverLimit() { isOverLimit = true }

    /// Appends one piece.
    /// - Returns: `false`, keeping nothing of it, when it would pass the limit.
    /// - Complexity: O(piece).
    func append(_ piece: UnsafeRawBufferPointer) -> Bool {
        guard !isOverLimit else { return false }
        guard piece.count <= limit - count else {
            isOverLimit = true
            return false
        }
        if piece.isEmpty { return true }
        if blocks.isEmpty || blocks[blocks.count - 1].capacity - blocks[blocks.count - 1].count < piece.count {
            var block: [UInt8] = []
            block.reserveCapacity(max(Self.blockSize, piece.count))
            blocks.append(block)
        }
        blocks[blocks.count - 1].append(contentsOf: piece)
        count += piece.count
        bytesCopied += piece.count
        assert(count <= limit)
        return true
    }

    /// The whole state as one block; the pieces are given up on the way.
    /// - Complexity: O(count).
    func joined() -> [UInt8] {
        assert(count == blocks.reduce(0) { $0 + $1.count }, "the blocks hold what was counted")
        if blocks.count == 1 {
            // The one block is the state already: handed on without a copy.
            count = 0
            return blocks.removeLast()
        }
        var whole: [UInt8] = []
        whole.reserveCapacity(count)
        blocks.reverse()
        while let block = blocks.popLast() {
            whole.append(contentsOf: block)
            bytesCopied += block.count
        }
        count = 0
        return whole
    }
}
