import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// A failing perform carries the changes its plugin reported before failing
/// (``PluginActionError/reportedChanges``): the history is unchanged, the document may not be.
@Suite("Changes reported by a failing call")
struct FailedCallChangesTests {
    private let doc = UndoContext("doc")

    private func spoiler() throws -> PluginHost {
        let (host, _) = makeHost()
        _ = try host.load(file: try Fixtures.buildPlugin("spoiler.c"))
        return host
    }

    private func failure(_ host: PluginHost, _ action: String, _ arguments: String) -> PluginActionError? {
        do throws(PluginHostError) {
            _ = try host.perform(try host.actionType(action), argumentText: arguments, in: doc)
            return nil
        } catch {
            guard case .actionFailed(let failure) = error else { return nil }
            return failure
        }
    }

    @Test("A perform that reports a change and fails carries it; one that reports none carries none; a success keeps the history")
    func reportedChangesOfAFailure() throws {
        let host = try spoiler()
        _ = try host.perform(try host.actionType("spoiler.grow"), argumentText: "10", in: doc)
        let reported = try #require(failure(host, "spoiler.spoil", "5 1"))
        #expect(reported.code == Int32(UNDO_EINVAL))
        #expect(reported.message == "spoiled the document and failed")
        #expect(reported.reportedChanges == [UndoChange(context: doc, location: 10, length: 5)])
        let unreported = try #require(failure(host, "spoiler.spoil", "5 0"))
        #expect(unreported.reportedChanges.isEmpty)
        let stained = try #require(failure(host, "spoiler.stain", ""))
        #expect(stained.reportedChanges.isEmpty)
        // Refused arguments: the plugin is not called and reports nothing.
        let refused = try #require(failure(host, "spoiler.grow", "-1"))
        #expect(refused.reportedChanges.isEmpty)
        #expect(host.history.withStack { $0.undoCount } == 1, "the failures left the history as it was")
    }
}
