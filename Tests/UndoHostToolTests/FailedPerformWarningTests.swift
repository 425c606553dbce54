import Foundation
import Testing
import UndoCore
import UndoPluginHost
@testable import UndoHostSession
import UndoTestSupport

/// An edit at the prompt costs what the change touches, not the document (counted with
/// DocumentViewWork, never timed), and the prompt still says when a failed perform changed its
/// document: from the changes the plugin reported and the extent for a long document of a plugin
/// with describe_range, from its whole view otherwise.
@Suite("A failed perform that changed its document, at the prompt")
struct FailedPerformWarningTests {
    static let warning = "the plugin changed document d before it failed"

    /// Work done by `body`, counted for this task only.
    private func work(_ body: () throws -> Void) rethrows -> Int {
        let counter = DocumentViewWork()
        try DocumentViewWork.$current.withValue(counter) { try body() }
        return counter.total
    }

    /// A session on document d of the spoiler fixture (describe_range; actions that fail after
    /// changing the document), `length` characters long.
    private func spoiler(length: Int) throws -> HostSession {
        let output = try FixturePluginBuild.build("spoiler")
        let host = PluginHost()
        _ = try host.load(file: output)
        let session = HostSession(host: host)
        #expect(session.run("doc d")?.error == nil)
        #expect(session.run("spoiler.grow \(length)")?.error == nil)
        return session
    }

    @Test("An edit, and a failed one, in a document of 10^6 characters read a few characters, not the document")
    func anEditReadsInProportionToTheChange() throws {
        let host = PluginHost()
        _ = try host.load(file: UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginTextEditor.so").path)
        let session = HostSession(host: host)
        #expect(session.run("doc d")?.error == nil)
        let lines = 22_000
        let text = (0..<lines).map { DocumentExcerptTests.line($0) + "\\n" }.joined()
        #expect(session.run("text.insert 0 \"\(text)\"")?.error == nil)
        #expect(session.run("break")?.error == nil)
        let middle = lines / 2 * DocumentExcerptTests.lineLength
        let edit = work { #expect(session.run("text.insert \(middle) \"HELLO\"")?.error == nil) }
        // The document is 1,056,000 characters; the session read all of them before each edit.
        #expect(edit < 20_000, "an edit read \(edit) units of a \(lines * DocumentExcerptTests.lineLength)-character document")
        var failure: SessionError?
        let failed = work { failure = session.run("text.delete \(middle) 99999999")?.error }
        #expect(failure != nil)
        #expect(failure?.hint?.contains("before it failed") != true, "\(String(describing: failure))")
        #expect(failed < 20_000, "a failed edit read \(failed) units")
        let undone = work { #expect(session.run("undo")?.error == nil) }
        #expect(undone < 20_000, "undo read \(undone) units")
    }

    /// (count, report): a change reported and the extent changed; the extent changed, nothing
    /// reported; a change reported, the extent kept.
    @Test("A long document: a failed perform that reported a change, or changed the extent, is named; it reads a few characters",
          arguments: [(5, 1), (5, 0), (0, 1)])
    func aLongDocumentChangedByAFailedPerform(count: Int, report: Int) throws {
        let session = try spoiler(length: 1_000_000)
        var failure: SessionError?
        let units = work { failure = session.run("spoiler.spoil \(count) \(report)")?.error }
        #expect(failure?.message.contains("spoiled the document and failed") == true, "\(String(describing: failure))")
        #expect(failure?.hint?.hasPrefix(Self.warning) == true, "\(String(describing: failure))")
        #expect(units < 20_000, "the failed perform read \(units) units")
        // The history is unchanged: one step, the grow.
        #expect(session.run("undo")?.error == nil)
        #expect(session.run("undo")?.error != nil)
    }

    @Test("A long document changed in place without a report keeps its extent: the prompt cannot tell (as the docs say)")
    func aLongDocumentChangedInPlaceUnreported() throws {
        let session = try spoiler(length: 1_000_000)
        let failure = session.run("spoiler.stain")?.error
        #expect(failure?.message.contains("stained the document and failed") == true, "\(String(describing: failure))")
        #expect(failure?.hint?.contains("before it failed") != true, "\(String(describing: failure))")
    }

    @Test("A short document is compared whole: a change in place without a report is named too")
    func aShortDocumentIsComparedWhole() throws {
        let session = try spoiler(length: 100)
        let stained = session.run("spoiler.stain")?.error
        #expect(stained?.hint?.hasPrefix(Self.warning) == true, "\(String(describing: stained))")
        let spoiled = session.run("spoiler.spoil 5 0")?.error
        #expect(spoiled?.hint?.hasPrefix(Self.warning) == true, "\(String(describing: spoiled))")
    }
}
