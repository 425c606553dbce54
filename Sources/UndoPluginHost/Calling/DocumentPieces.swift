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
/// Streamed (``init(limit:chunkSize:deliver:)``), the pieces are copied into one block of
/// `chunkSize` bytes at a time, and each block is handed to `deliver` as soon as it is full
/// (the last one by ``finish()``): the state is never held, only one block of it.
///
/// Invariants (checked in debug builds, the sum when the blocks are joined): `count` is the
/// sum of the blocks' counts (and of the blocks delivered), at most `limit`; `bytesCopied` is
/// what was copied in so far; streamed, every block delivered but the last holds `chunkSize`
/// bytes, and the blocks held never hold more than `chunkSize`.
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

    /// Streamed: the size of each block handed to ``deliver``.
    let chunkSize: Int?
    /// Streamed: takes each full block; returns why it could not keep it, or `nil`.
    private let deliver: (([UInt8]) -> String?)?
    /// Streamed: bytes handed to ``deliver`` so far.
    private(set) var bytesDelivered = 0
    /// The most bytes the blocks held at once (what the tests count).
    private(set) var mostBytesHeld = 0
    /// Streamed: why ``deliver`` could not keep a block; the save fails with it.
    private(set) var failure: String?

    init(limit: Int) {
        self.limit = limit
        chunkSize = nil
        deliver = nil
    }

    /// Pieces handed on in blocks of `chunkSize` bytes as they fill, never gathered.
    init(limit: Int, chunkSize: Int, deliver: @escaping ([UInt8]) -> String?) {
        precondition(chunkSize > 0, "blocks hold at least a byte")
        self.limit = limit
        self.chunkSize = chunkSize
        self.deliver = deliver
    }

    /// A piece too large to be counted came: the save fails.
    func markOverLimit() { isOverLimit = true }

    /// Appends one piece.
    /// - Returns: `false`, keeping nothing of it, when it would pass the limit.
    /// - Complexity: O(piece).
    func append(_ piece: UnsafeRawBufferPointer) -> Bool {
        guard !isOverLimit, failure == nil else { return false }
        guard piece.count <= limit - count else {
            isOverLimit = true
            return false
        }
        if piece.isEmpty { return true }
        if let chunkSize { return stream(piece, in: chunkSize) }
        if blocks.isEmpty || blocks[blocks.count - 1].capacity - blocks[blocks.count - 1].count < piece.count {
            var block: [UInt8] = []
            block.reserveCapacity(max(Self.blockSize, piece.count))
            blocks.append(block)
        }
        blocks[blocks.count - 1].append(contentsOf: piece)
        count += piece.count
        bytesCopied += piece.count
        mostBytesHeld = max(mostBytesHeld, count)
        assert(count <= limit)
        return true
    }

    /// Copies `piece` into the one block held, handing the block on each time it is full.
    /// - Complexity: O(piece).
    private func stream(_ piece: UnsafeRawBufferPointer, in chunkSize: Int) -> Bool {
        var rest = piece
        while !rest.isEmpty {
            if blocks.isEmpty {
                var block: [UInt8] = []
                block.reserveCapacity(chunkSize)
                blocks.append(block)
            }
            let taken = min(rest.count, chunkSize - blocks[0].count)
            blocks[0].append(contentsOf: UnsafeRawBufferPointer(rebasing: rest.prefix(taken)))
            rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(taken))
            count += taken
            bytesCopied += taken
            mostBytesHeld = max(mostBytesHeld, blocks[0].count)
            if blocks[0].count == chunkSize, !handOn() { return false }
        }
        assert(count <= limit && blocks.count <= 1)
        return true
    }

    /// Streamed: hands the block held on to ``deliver``.
    /// - Returns: `false` when it could not keep it (``failure`` says why).
    private func handOn() -> Bool {
        guard let deliver, let block = blocks.popLast() else { return true }
        assert(blocks.isEmpty && block.count <= chunkSize!, "one block held, at most a chunk")
        bytesDelivered += block.count
        if let reason = deliver(block) {
            failure = reason
            return false
        }
        return true
    }

    /// Streamed: hands on the last block (fewer than `chunkSize` bytes, when the state does
    /// not end on a block's edge), once the plugin's save returned `UNDO_OK`.
    /// - Returns: `false` when it could not be kept (``failure`` says why).
    func finish() -> Bool {
        guard failure == nil else { return false }
        guard blocks.last.map({ !$0.isEmpty }) ?? false else { return true }
        let handed = handOn()
        assert(!handed || bytesDelivered == count, "every byte written was handed on")
        return handed
    }

    /// The whole state as one block; the pieces are given up on the way.
    /// - Complexity: O(count).
    func joined() -> [UInt8] {
        assert(chunkSize == nil, "a streamed state is handed on, never joined")
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
