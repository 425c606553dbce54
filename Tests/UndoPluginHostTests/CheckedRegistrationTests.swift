import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// ABI 1.6: the checked registration macros (a prototype that does not match its declared
/// parameters does not compile, in C99 and C++), the document slot with close_document, and
/// describe_v2 (which can report an error like every other call).
@Suite struct CheckedRegistrationTests {
    typealias Counter = @convention(c) () -> Int32

    /// Built as C99 and as C++17 with -Wall -Wextra -pedantic -Werror, then loaded and run.
    @Test(arguments: [false, true])
    func aCheckedPluginBuildsLoadsAndKeepsEachDocumentInItsSlot(cxx: Bool) throws {
        let plugin = try Fixtures.buildPlugin("checked.c", cxx: cxx)
        let opened = try Fixtures.function("checked_opened_documents", in: plugin, as: Counter.self)
        let closed = try Fixtures.function("checked_closed_documents", in: plugin, as: Counter.self)
        let (host, _) = makeHost()
        try host.load(file: plugin)
        let letter = UndoContext("letter"), sketch = UndoContext("sketch")
        try host.perform("checked.set", [.i64(5)], in: letter)
        try host.perform("checked.add", [.i64(3), .string("more")], in: letter)
        try host.perform("checked.set", [.i64(-7)], in: sketch)
        #expect(try host.show("letter", "org.undohost.test.checked") == "value=8 note=more")
        #expect(try host.show("sketch", "org.undohost.test.checked") == "value=-7 note=")
        #expect(opened() == 2)

        try host.undo(count: 2)  // sketch's set, letter's add
        #expect(try host.show("letter", "org.undohost.test.checked") == "value=5 note=more")
        #expect(try host.show("sketch", "org.undohost.test.checked") == "value=0 note=")
        try host.redo()
        #expect(try host.show("letter", "org.undohost.test.checked") == "value=8 note=more")

        // Closing a document hands its slot to close_document once; opened again, it starts empty.
        try host.closeContext(letter)
        #expect(closed() == 1)
        let error = hostError { _ = try host.show("letter", "org.undohost.test.checked") }
        #expect(error?.description.contains(#"document "letter" was never opened"#) == true, "\(String(describing: error))")
        #expect(error?.code == Int32(UNDO_ENOTFOUND))
        try host.perform("checked.add", [.i64(1), .string("again")], in: letter)
        #expect(try host.show("letter", "org.undohost.test.checked") == "value=1 note=again")
        #expect(opened() == 3)

        // Unloading closes every slot still in use before deinit.
        try host.unload("org.undohost.test.checked")
        #expect(closed() == 3)
    }

    /// A document closed while the host's kept call frame still points at its slot: the next
    /// call gets the new slot, not the freed one (run under AddressSanitizer in CI).
    @Test func aClosedSlotIsNeverHandedOutAgain() throws {
        let plugin = try Fixtures.buildPlugin("checked.c")
        let (host, _) = makeHost()
        try host.load(file: plugin)
        let notes = UndoContext("notes")
        for round in 1...3 {
            try host.perform("checked.set", [.i64(Int64(round))], in: notes)
            #expect(try host.show("notes", "org.undohost.test.checked") == "value=\(round) note=")
            try host.closeContext(notes)
        }
    }

    /// A function whose prototype does not match the parameters it is registered with does not
    /// compile: a perform's, an inverse's, a merge's; in C99 and in C++.
    @Test(arguments: [(1, "inverse_does_not_match_its_parameters"), (2, "perform_does_not_match_its_parameters"),
                      (3, "merge_does_not_match_undo_merge_fn")], [false, true])
    func aMismatchedPrototypeDoesNotCompile(_ mismatch: (Int, String), cxx: Bool) throws {
        do {
            _ = try Fixtures.buildPlugin("checked.c", defines: ["MISMATCH=\(mismatch.0)"], cxx: cxx)
            Issue.record("MISMATCH=\(mismatch.0) compiled")
        } catch let error as Fixtures.BuildError {
            if cxx {
                #expect(error.description.contains("undo__checked_fn"), "\(error)")
            } else {
                #expect(error.description.contains(mismatch.1), "\(error)")
            }
        }
    }

    /// Without -Werror too: the mismatch is an error, not a warning.
    @Test func theMismatchIsAnErrorWithoutWerror() throws {
        let folder = Fixtures.temporaryFolder()
        for compiler in [["cc", "-std=c99"], ["c++", "-x", "c++", "-std=c++17"]] {
            let result = try Fixtures.run(compiler[0], Array(compiler.dropFirst()) + ["-DMISMATCH=1", "-shared", "-fPIC",
                "-I", Fixtures.include, "-o", folder + "/m.so", Fixtures.sources + "/checked.c"])
            #expect(result.status != 0, "\(compiler[0]) accepted a mismatched prototype")
        }
    }
}
