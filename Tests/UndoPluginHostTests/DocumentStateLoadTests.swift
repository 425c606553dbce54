import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// load_document_v2 (ABI 1.8): a plugin reads its state in pieces with read_document, so the
/// host hands it on in the blocks it keeps (a journal's rows) and never joins them; through
/// statebox.c built with -DSTATEBOX_V2.
@Suite struct DocumentStateLoadInPieces: StateboxInPieces {
    static let box = DocumentState.box

    func reads(in path: String) throws -> Int {
        typealias Count = @convention(c) () -> Int32
        return Int(try Fixtures.function("statebox_reads", in: path, as: Count.self)())
    }

    func lastRead(in path: String) throws -> Int64 {
        typealias LastRead = @convention(c) () -> Int64
        return try Fixtures.function("statebox_last_read", in: path, as: LastRead.self)()
    }

    /// `bytes` as a source handing them on in blocks of `block` bytes (rows of a journal).
    func source(_ bytes: [UInt8], blocks block: Int) -> DocumentSource {
        var at = 0
        return DocumentSource(count: bytes.count) {
            guard at < bytes.count else { return nil }
            defer { at = min(at + block, bytes.count) }
            return Array(bytes[at..<min(at + block, bytes.count)])
        }
    }

    /// Pieces of 1 byte to 1 MiB, from blocks of any size, load the same state; counted: each
    /// byte is copied once (into the plugin's buffer), each block taken once, and the plugin
    /// reads ceil(length / piece) times plus once for the end.
    @Test func piecesOfAnySizeLoadTheSameState() throws {
        let (host, path) = try makeBox()
        let doc = UndoContext("doc")
        let text = String(repeating: "0123456789abcdef", count: 20_000) // 320,000 bytes
        try host.perform("statebox.append", [.string(text)], in: doc)
        let saved = try #require(try host.saveDocumentState(plugin: Self.box, context: doc))
        try host.closeContext(doc)
        for (piece, block) in [(UInt64(1), 4096), (7, 1000), (4096, 65_536), (1 << 20, 100_000), (1 << 20, 1 << 22)] {
            try setPiece(piece, in: path)
            let before = try reads(in: path)
            let state = source(saved, blocks: block)
            try host.loadDocumentState(from: state, plugin: Self.box, context: doc)
            #expect(try host.saveDocumentState(plugin: Self.box, context: doc) == saved, "pieces of \(piece)")
            #expect(state.bytesCopied == saved.count, "each byte copied once: pieces of \(piece)")
            #expect(state.blocksTaken == (saved.count + block - 1) / block, "blocks of \(block)")
            let p = Int(piece)
            let expectedReads = (12 + p - 1) / p + (text.utf8.count + p - 1) / p + 1
            #expect(try reads(in: path) - before == expectedReads, "pieces of \(piece)")
            try host.closeContext(doc)
        }
        // The one-array API goes through load_document_v2 as well.
        let before = try reads(in: path)
        try host.loadDocumentState(saved, plugin: Self.box, context: doc)
        #expect(try reads(in: path) > before)
        #expect(try host.saveDocumentState(plugin: Self.box, context: doc) == saved)
    }

    /// read_document outside load_document_v2 (here from save_document_v2) is refused with
    /// UNDO_ESTATE.
    @Test func readingOutsideALoadIsRefused() throws {
        let (host, path) = try makeBox()
        try DocumentState().setMode(3, in: path)
        _ = try? host.saveDocumentState(plugin: Self.box, context: UndoContext("doc"))
        #expect(try lastRead(in: path) == Int64(UNDO_ESTATE))
    }

    /// A plugin that returns UNDO_OK before reading the whole state fails the load with
    /// UNDO_EPLUGIN, and what it kept is closed: the document is empty and loads afterwards.
    @Test func stoppingBeforeTheEndFailsTheLoad() throws {
        let (host, path) = try makeBox()
        let doc = UndoContext("doc")
        try host.perform("statebox.append", [.string("hello")], in: doc)
        let saved = try #require(try host.saveDocumentState(plugin: Self.box, context: doc))
        try host.closeContext(doc)
        try DocumentState().setMode(9, in: path)
        do {
            try host.loadDocumentState(saved, plugin: Self.box, context: doc)
            Issue.record("a load that read 12 of 17 bytes was accepted")
        } catch {
            guard case .actionFailed(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.code == Int32(UNDO_EPLUGIN) && failure.phase == .load)
            #expect(failure.message == "returned UNDO_OK after reading 12 of the state's 17 bytes")
        }
        try DocumentState().setMode(0, in: path)
        try host.loadDocumentState(saved, plugin: Self.box, context: doc)
        #expect(try host.describe(doc, plugin: Self.box) == "hello")
    }

    /// A source that fails, or ends before its length, fails the load with UNDO_ESTATE and the
    /// host's words; the document stays empty.
    @Test func aSourceThatBreaksFailsTheLoad() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "row 2 is missing" } }
        let (host, _) = try makeBox()
        let doc = UndoContext("doc")
        try host.perform("statebox.append", [.string("hello world")], in: doc)
        let saved = try #require(try host.saveDocumentState(plugin: Self.box, context: doc))
        try host.closeContext(doc)
        var given = 0
        let broken = DocumentSource(count: saved.count) {
            given += 1
            if given == 2 { throw Broken() }
            return Array(saved[0..<12])
        }
        let short = DocumentSource(count: saved.count + 5) { () -> [UInt8]? in
            defer { given = 99 }
            return given == 99 ? nil : saved
        }
        for (state, words) in [(broken, "the stored state cannot be read: row 2 is missing"),
                               (short, "the stored state ends after 23 of 28 bytes")] {
            do {
                try host.loadDocumentState(from: state, plugin: Self.box, context: doc)
                Issue.record("a broken source was loaded")
            } catch {
                guard case .actionFailed(let failure) = error else { Issue.record("\(error)"); continue }
                #expect(failure.code == Int32(UNDO_ESTATE) && failure.phase == .load)
                #expect(failure.message == words)
            }
        }
        try host.loadDocumentState(saved, plugin: Self.box, context: doc)
        #expect(try host.describe(doc, plugin: Self.box) == "hello world")
    }
}
