import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// Saving a document's state as bytes and loading it back (save_document and load_document,
/// ABI 1.7), through statebox.c.
@Suite struct DocumentState {
    static let box = "org.example.statebox"

    /// A host with its own copy of statebox.so (its misbehaviour mode is the copy's own).
    func makeBox(defines: [String] = []) throws -> (PluginHost, LogCollector, String) {
        let (host, log) = makeHost()
        let path = try Fixtures.buildPlugin("statebox.c", defines: defines)
        try host.load(file: path)
        return (host, log, path)
    }

    func setMode(_ mode: Int32, in path: String) throws {
        typealias SetMode = @convention(c) (Int32) -> Void
        try Fixtures.function("statebox_set_mode", in: path, as: SetMode.self)(mode)
    }

    func saveCalls(in path: String) throws -> Int32 {
        typealias Count = @convention(c) () -> Int32
        return try Fixtures.function("statebox_save_calls", in: path, as: Count.self)()
    }

    @Test func savedStateLoadsBackIntoAClosedOrNewDocument() throws {
        let (host, _, _) = try makeBox()
        let letter = UndoContext("letter")
        try host.perform("statebox.append", [.string("Dear ")], in: letter)
        try host.perform("statebox.append", [.string("Ann")], in: letter)
        #expect(try host.canSaveDocuments(plugin: Self.box))

        let bytes = try #require(try host.saveDocumentState(plugin: Self.box, context: letter))
        #expect(bytes == Array("SBX\u{1}".utf8) + [8, 0, 0, 0, 0, 0, 0, 0] + Array("Dear Ann".utf8))

        try host.closeContext(letter)
        #expect(try host.describe(letter, plugin: Self.box) == "")
        try host.loadDocumentState(bytes, plugin: Self.box, context: letter)
        #expect(try host.describe(letter, plugin: Self.box) == "Dear Ann")
        #expect(host.stepCount == 0)

        // A new document takes the same state; its later steps undo back to it.
        let copy = UndoContext("copy")
        try host.loadDocumentState(bytes, plugin: Self.box, context: copy)
        try host.perform("statebox.append", [.string("!")], in: copy)
        #expect(try host.describe(copy, plugin: Self.box) == "Dear Ann!")
        try host.undo()
        #expect(try host.describe(copy, plugin: Self.box) == "Dear Ann")
        #expect(try host.saveDocumentState(plugin: Self.box, context: copy) == bytes)
    }

    @Test func anEmptyDocumentSavesAndLoads() throws {
        let (host, _, _) = try makeBox()
        let bytes = try #require(try host.saveDocumentState(plugin: Self.box, context: .global))
        #expect(bytes.count == 12)
        try host.loadDocumentState(bytes, plugin: Self.box, context: UndoContext("other"))
        #expect(try host.describe(UndoContext("other"), plugin: Self.box) == "")
    }

    /// The first buffer is 4 KiB: a larger state costs exactly one more call, with the length
    /// the plugin asked for.
    @Test func aLargeStateTakesOneRetry() throws {
        let (host, _, path) = try makeBox()
        let doc = UndoContext("big")
        try host.perform("statebox.append", [.string("ab")], in: doc)
        var before = try saveCalls(in: path)
        _ = try host.saveDocumentState(plugin: Self.box, context: doc)
        #expect(try saveCalls(in: path) - before == 1)

        let text = String(repeating: "0123456789", count: 1_000)
        try host.perform("statebox.append", [.string(text)], in: doc)
        before = try saveCalls(in: path)
        let bytes = try #require(try host.saveDocumentState(plugin: Self.box, context: doc))
        #expect(try saveCalls(in: path) - before == 2)
        #expect(bytes.count == 12 + 2 + 10_000)
        try host.loadDocumentState(bytes, plugin: Self.box, context: UndoContext("big copy"))
        #expect(try host.describe(UndoContext("big copy"), plugin: Self.box) == "ab" + text)
    }

    /// Only an empty document loads: none of its steps in the history (done or undone) and
    /// nothing in the plugin's slot for it.
    @Test func loadingIntoADocumentThatIsNotEmptyIsRefused() throws {
        let (host, _, _) = try makeBox()
        let doc = UndoContext("doc")
        try host.perform("statebox.append", [.string("kept")], in: doc)
        let bytes = try #require(try host.saveDocumentState(plugin: Self.box, context: doc))

        let refused = hostError { try host.loadDocumentState(bytes, plugin: Self.box, context: doc) }
        #expect(refused == .documentNotEmpty(plugin: Self.box, context: doc))
        #expect(refused?.code == Int32(UNDO_ESTATE))
        #expect(refused?.description.contains("\"doc\"") == true)

        try host.undo()  // its step is now undone, still in the history
        #expect(hostError { try host.loadDocumentState(bytes, plugin: Self.box, context: doc) }
                == .documentNotEmpty(plugin: Self.box, context: doc))

        // Steps gone from the history but the plugin's slot still holds the document.
        try host.redo()
        _ = try host.history.withStack { try $0.removeAll(in: doc) }
        #expect(hostError { try host.loadDocumentState(bytes, plugin: Self.box, context: doc) }
                == .documentNotEmpty(plugin: Self.box, context: doc))
        #expect(try host.describe(doc, plugin: Self.box) == "kept")
    }

    /// A document whose only steps are on a branch is not empty either: going back to that
    /// branch would redo them onto the loaded state.
    @Test func stepsOnAnotherBranchKeepTheDocumentFromLoading() throws {
        let (host, _) = makeHost()
        try host.load(file: Fixtures.textEditor)
        let text = "org.undohost.text"
        let letter = UndoContext("letter")
        try host.perform("text.insert", [.i64(0), .string("Hi")], in: letter)
        let bytes = try #require(try host.saveDocumentState(plugin: text, context: letter))
        try host.undo()
        try host.perform("text.insert", [.i64(0), .string("X")], in: letter)  // "Hi" is kept on a branch
        try host.undo()
        // Take the "X" step out: the document's only step is now on the other branch.
        _ = try host.history.withStack { stack in
            try stack.removeAll { ($0 as? PluginCommand)?.arguments == [.i64(0), .string("X")] }
        }
        #expect(host.history.withStack { ($0.count, $0.treeCount) } == (0, 1))
        #expect(try host.describe(letter, plugin: text) == "")
        #expect(hostError { try host.loadDocumentState(bytes, plugin: text, context: letter) }
                == .documentNotEmpty(plugin: text, context: letter))
        try host.loadDocumentState(bytes, plugin: text, context: UndoContext("copy"))
        #expect(try host.describe(UndoContext("copy"), plugin: text) == "Hi")
    }

    @Test func garbageIsRefusedWithThePluginsMessageAndTheDocumentStaysEmpty() throws {
        let (host, _, path) = try makeBox()
        let doc = UndoContext("doc")
        let error = hostError { try host.loadDocumentState([1, 2, 3], plugin: Self.box, context: doc) }
        guard case .actionFailed(let failure) = error else { Issue.record("expected a plugin failure, got \(String(describing: error))"); return }
        #expect(failure.phase == .load)
        #expect(failure.code == Int32(UNDO_EINVAL))
        #expect(failure.message == "not a statebox document")
        #expect(try host.describe(doc, plugin: Self.box) == "")

        // A load that fails after keeping something: the host closes the slot again.
        try setMode(4, in: path)
        let good = Array("SBX\u{1}".utf8) + [1, 0, 0, 0, 0, 0, 0, 0] + [65]
        #expect(hostError { try host.loadDocumentState(good, plugin: Self.box, context: doc) }?.code == Int32(UNDO_EINVAL))
        #expect(host.documentsHoldingState().isEmpty)
        try setMode(0, in: path)
        try host.loadDocumentState(good, plugin: Self.box, context: doc)
        #expect(try host.describe(doc, plugin: Self.box) == "A")
    }

    @Test func saveFailuresAreExplained() throws {
        let (host, _, path) = try makeBox()
        let doc = UndoContext("doc")
        try host.perform("statebox.append", [.string("x")], in: doc)
        func failure(mode: Int32) throws -> PluginActionError? {
            try setMode(mode, in: path)
            guard case .actionFailed(let failure) = hostError({ _ = try host.saveDocumentState(plugin: Self.box, context: doc) })
            else { return nil }
            return failure
        }
        let reported = try failure(mode: 1)
        #expect(reported?.phase == .save)
        #expect(reported?.code == Int32(UNDO_ENOTSUP))
        #expect(reported?.message == "the disk is on fire")

        let greedy = try failure(mode: 2)
        #expect(greedy?.code == Int32(UNDO_EPLUGIN))
        #expect(greedy?.message.contains("asked for") == true)
        #expect(try failure(mode: 3)?.code == Int32(UNDO_ELIMIT))
        #expect(try failure(mode: 6)?.code == Int32(UNDO_ELIMIT))
        try setMode(0, in: path)
        #expect(try host.saveDocumentState(plugin: Self.box, context: doc)?.count == 13)
    }

    /// Callbacks that change the history are refused inside save and load.
    @Test func saveAndLoadCannotRecordSteps() throws {
        let (host, _, path) = try makeBox()
        typealias LastRecord = @convention(c) () -> Int32
        let lastRecord = try Fixtures.function("statebox_last_record", in: path, as: LastRecord.self)
        try setMode(5, in: path)
        let bytes = try #require(try host.saveDocumentState(plugin: Self.box, context: UndoContext("doc")))
        #expect(lastRecord() == Int32(UNDO_EREENTRANT))
        try host.loadDocumentState(bytes, plugin: Self.box, context: UndoContext("other"))
        #expect(lastRecord() == Int32(UNDO_EREENTRANT))
        #expect(host.stepCount == 0)
    }

    @Test func pluginsWithoutSaveAndLoad() throws {
        let (host, _) = makeHost()
        try host.load(file: try Fixtures.buildPlugin("thirdparty_counter.c"))
        #expect(try host.canSaveDocuments(plugin: "com.example.counter") == false)
        #expect(try host.saveDocumentState(plugin: "com.example.counter", context: .global) == nil)
        #expect(hostError { try host.loadDocumentState([], plugin: "com.example.counter", context: .global) }
                == .cannotLoadDocuments(plugin: "com.example.counter"))
        #expect(hostError { _ = try host.saveDocumentState(plugin: "com.example.none", context: .global) }
                == .unknownPlugin("com.example.none"))

        // Only one of the two: a warning, and the host uses neither.
        let (half, log, _) = try makeBox(defines: ["STATEBOX_ONLY_SAVE"])
        #expect(try half.canSaveDocuments(plugin: Self.box) == false)
        #expect(try half.saveDocumentState(plugin: Self.box, context: .global) == nil)
        #expect(log.messages.contains { $0.level == .warning && $0.message.contains("only one of save_document and load_document") })
    }

    @Test func bytesOverTheLimitAreRefusedBeforeThePluginSeesThem() throws {
        let (host, _, _) = try makeBox()
        let tooMany = [UInt8](repeating: 0, count: Int(UNDO_MAX_VALUE_SIZE) + 1)
        let error = hostError { try host.loadDocumentState(tooMany, plugin: Self.box, context: .global) }
        #expect(error == .documentStateTooLarge(plugin: Self.box, bytes: tooMany.count, limit: Int(UNDO_MAX_VALUE_SIZE)))
        #expect(error?.code == Int32(UNDO_ELIMIT))
    }

    /// The documents the host knows hold state: by steps (in groups too) and by slots.
    @Test func documentsHoldingStateByStepsAndSlots() throws {
        let (host, _, _) = try makeBox()
        try host.load(file: try Fixtures.buildPlugin("thirdparty_counter.c"))
        try host.perform("statebox.append", [.string("a")], in: UndoContext("a"))
        try host.history.withStack { try $0.beginGroup(named: "both") }
        try host.perform("counter.add", argumentText: "2", in: UndoContext("b"))
        try host.perform("statebox.append", [.string("b")], in: UndoContext("b"))
        try host.history.withStack { try $0.endGroup() }
        try host.perform("statebox.append", [.string("c")], in: UndoContext("c"))
        _ = try host.history.withStack { try $0.removeAll(in: UndoContext("c")) }  // the slot stays
        #expect(host.documentsHoldingState() == [
            PluginDocument(plugin: Self.box, context: UndoContext("a")),
            PluginDocument(plugin: Self.box, context: UndoContext("b")),
            PluginDocument(plugin: Self.box, context: UndoContext("c")),
            PluginDocument(plugin: "com.example.counter", context: UndoContext("b")),
        ])
        try host.closeContext(UndoContext("a"))
        try host.closeContext(UndoContext("c"))
        #expect(host.documentsHoldingState().map(\.description) == [
            "org.example.statebox \"b\"", "com.example.counter \"b\"",
        ])
    }
}

/// save_document_v2 (ABI 1.8): a plugin hands its state in pieces with write_document, once per
/// save, past UNDO_MAX_VALUE_SIZE; through statebox.c built with -DSTATEBOX_V2.
@Suite struct DocumentStateInPieces: StateboxInPieces {
    static let box = DocumentState.box

    func lastWrite(in path: String) throws -> Int32 {
        typealias LastWrite = @convention(c) () -> Int32
        return try Fixtures.function("statebox_last_write", in: path, as: LastWrite.self)()
    }

    /// Pieces of one byte to 1 MiB give the same bytes, the plugin called once each time
    /// (a 1.7 save is called twice when its state is over 4 KiB).
    @Test func piecesOfAnySizeMakeTheSameStateWithOneCall() throws {
        let (host, path) = try makeBox()
        let doc = UndoContext("doc")
        let text = String(repeating: "0123456789abcdef", count: 1 << 16) // 1 MiB
        try host.perform("statebox.append", [.string(text)], in: doc)
        let expected = Array("SBX\u{1}".utf8) + [0, 0, 16, 0, 0, 0, 0, 0] + Array(text.utf8)
        for piece: UInt64 in [1, 7, 4096, 1 << 20] {
            try setPiece(piece, in: path)
            let before = try DocumentState().saveCalls(in: path)
            let saved = try #require(try host.saveDocumentState(plugin: Self.box, context: doc))
            #expect(saved == expected, "pieces of \(piece)")
            #expect(try DocumentState().saveCalls(in: path) == before + 1, "pieces of \(piece)")
        }
        #expect(try host.documentSizeLimit(plugin: Self.box) == Int(UNDO_MAX_DOCUMENT_SIZE))
    }

    /// Counted, not timed: gathering the pieces copies each byte once into blocks and once
    /// more to join them (none when one block holds the state), and a byte-at-a-time plugin
    /// makes blocks, not an array per byte.
    @Test func gatheringCopiesEachByteAtMostTwice() throws {
        let block = DocumentPieces.blockSize
        for (pieceSize, total) in [(1, 3 * block + 5), (4096, block / 2), (block + 3, 3 * block + 9), (100_000, 5 * block)] {
            let pieces = DocumentPieces(limit: .max)
            var expected: [UInt8] = []
            expected.reserveCapacity(total)
            var written = 0
            while written < total {
                let count = min(pieceSize, total - written)
                let piece = (0..<count).map { UInt8(truncatingIfNeeded: ($0 + written) &* 31) }
                expected += piece
                #expect(piece.withUnsafeBytes { pieces.append($0) })
                written += count
            }
            #expect(pieces.count == total)
            #expect(pieces.blocks.count <= max(1, total / block + 1), "pieces of \(pieceSize)")
            let oneBlock = pieces.blocks.count == 1
            let whole = pieces.joined()
            #expect(whole == expected)
            #expect(pieces.bytesCopied == (oneBlock ? total : 2 * total), "pieces of \(pieceSize)")
            #expect(pieces.blocks.isEmpty)
        }
    }

    /// A length over UNDO_MAX_DOCUMENT_SIZE is refused unread and fails the save, whatever the
    /// plugin returns; write_document outside save_document_v2 is refused with UNDO_ESTATE.
    @Test func overTheLimitOrOutsideASaveIsRefused() throws {
        let (host, path) = try makeBox()
        let doc = UndoContext("doc")
        try host.perform("statebox.append", [.string("hi")], in: doc)
        let saved = try #require(try host.saveDocumentState(plugin: Self.box, context: doc))
        try DocumentState().setMode(3, in: path)
        do {
            _ = try host.saveDocumentState(plugin: Self.box, context: doc)
            Issue.record("a save over the limit was accepted")
        } catch {
            guard case .actionFailed(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.code == Int32(UNDO_ELIMIT) && failure.phase == .save)
        }
        #expect(try lastWrite(in: path) == Int32(UNDO_ELIMIT))
        try host.closeContext(doc)
        try host.loadDocumentState(saved, plugin: Self.box, context: doc)
        #expect(try lastWrite(in: path) == Int32(UNDO_ESTATE))
        #expect(try host.describe(doc, plugin: Self.box) == "hi")
    }

    /// A 1.7 plugin is held to UNDO_MAX_VALUE_SIZE as before, and told so before its bytes are read.
    @Test func aVersionSevenPluginKeepsItsLimit() throws {
        let (host, _, _) = try DocumentState().makeBox()
        #expect(try host.documentSizeLimit(plugin: Self.box) == Int(UNDO_MAX_VALUE_SIZE))
        let tooLong = [UInt8](repeating: 0, count: Int(UNDO_MAX_VALUE_SIZE) + 1)
        #expect(throws: PluginHostError.self) {
            try host.loadDocumentState(tooLong, plugin: Self.box, context: UndoContext("doc"))
        }
    }
}
