import UndoPluginABI

/// The state of a document as load_document_v2 (ABI 1.8) reads it, with
/// `undo_host.read_document`, in pieces of any size the plugin asks for.
///
/// The state comes from ``next`` one stored block at a time (a journal's row, or the one array
/// a caller holds), so it is never gathered into one block for the plugin: at most the current
/// block is held besides what the plugin builds. Each byte is copied once, into the plugin's
/// buffer.
///
/// Invariants (checked in debug builds): `offset <= current.count`; `bytesRead` is at most
/// `count`; `bytesCopied == bytesRead`.
public final class DocumentSource {
    /// The state's length in bytes (what the blocks hold end to end).
    public let count: Int
    /// The next stored block, or `nil` at the end; an error stops the load with it.
    private let next: () throws -> [UInt8]?
    private var current: [UInt8] = []
    private var offset = 0
    private var isFinished = false
    /// Bytes handed to the plugin so far.
    public private(set) var bytesRead = 0
    /// Bytes copied into the plugin's buffers (what the tests count).
    public private(set) var bytesCopied = 0
    /// Blocks taken from ``next`` so far (what the tests count).
    public private(set) var blocksTaken = 0
    /// The error ``next`` threw, or a block past ``count``: the load fails with it.
    public private(set) var failure: String?

    /// The state when it is held in one array (handed on as it is to a plugin that loads in
    /// one block).
    let whole: [UInt8]?

    /// A state of `count` bytes handed on block by block by `next`.
    public init(count: Int, next: @escaping () throws -> [UInt8]?) {
        self.count = count
        self.next = next
        whole = nil
    }

    /// A state held in one array.
    public init(_ bytes: [UInt8]) {
        var pending: [UInt8]? = bytes
        count = bytes.count
        next = {
            defer { pending = nil }
            return pending
        }
        whole = bytes
    }

    /// Whether the plugin read the whole state.
    public var isAtEnd: Bool { bytesRead == count }

    /// Copies the next bytes into `buffer`, as many as fit.
    /// - Returns: the bytes copied (fewer than the buffer holds only at the end, 0 there), or
    ///   `nil` when the stored state cannot be read (``failure`` says why).
    /// - Complexity: O(bytes copied + blocks taken).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard failure == nil else { return nil }
        var copied = 0
        while copied < buffer.count {
            if offset == current.count {
                guard !isFinished else { break }
                let block: [UInt8]?
                do { block = try next() } catch {
                    failure = "the stored state cannot be read: \(error)"
                    return nil
                }
                guard let block else {
                    isFinished = true
                    guard bytesRead + copied == count else {
                        failure = "the stored state ends after \(bytesRead + copied) of \(count) bytes"
                        return nil
                    }
                    break
                }
                blocksTaken += 1
                current = block
                offset = 0
                guard bytesRead + copied + block.count <= count else {
                    failure = "the stored state is longer than its \(count) bytes"
                    return nil
                }
                continue
            }
            let length = min(buffer.count - copied, current.count - offset)
            current.withUnsafeBytes { stored in
                let piece = UnsafeRawBufferPointer(rebasing: stored[offset..<(offset + length)])
                UnsafeMutableRawBufferPointer(rebasing: buffer[copied..<(copied + length)]).copyMemory(from: piece)
            }
            offset += length
            copied += length
            if offset == current.count {
                // Given up as soon as it is read: never more than one block held.
                current = []
                offset = 0
            }
        }
        bytesRead += copied
        bytesCopied += copied
        assert(offset <= current.count && bytesRead <= count && bytesCopied == bytesRead)
        return copied
    }
}
