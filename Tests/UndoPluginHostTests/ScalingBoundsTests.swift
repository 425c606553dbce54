import Foundation
import Testing
import UndoCore
import UndoPluginABI
@testable import UndoPluginHost

/// The bounds that keep a careless plugin or a hostile input from costing without end: action
/// types per plugin, changes reported by one call, and the "did you mean" search. Each is
/// proved by counts, not by time.
@Suite struct ScalingBoundsTests {
    func host() -> PluginHost { PluginHost(history: SharedUndoHistory(), log: { _ in }) }

    @Test func aPluginMayRegisterUpToTheLimitOfActionTypes() throws {
        let limit = LoadedPlugin.maximumActionTypes
        let atLimit = try Fixtures.buildPlugin("many.c", defines: ["ACTION_COUNT=\(limit)"], name: "at-limit.so")
        let loaded = host()
        #expect(try loaded.load(file: atLimit).actionTypes.count == limit)
        // Found by id in a set: the last one registered resolves like the first.
        #expect(try loaded.actionType("a\(limit - 1)").localID == "a\(limit - 1)")
        let over = try Fixtures.buildPlugin("many.c", defines: ["ACTION_COUNT=\(limit + 1)"], name: "over.so")
        // The fixture passes register_action's answer on as init's.
        #expect(throws: PluginLoadError(path: over, reason: .initFailed(
            code: Int32(UNDO_ELIMIT), message: "register_action: a plugin may register at most \(limit) action types"))) {
            try host().load(file: over)
        }
    }

    /// 10^4 action types, each named in Korean: registration looks ids up a fixed number of
    /// times per type, and resolving every one of them by id reads each type once in all (it
    /// was a search of every earlier type per registration and per id: quadratic).
    @Test(arguments: [1_000, 10_000])
    func registeringAndResolvingManyActionTypesIsLinear(count: Int) throws {
        let path = try Fixtures.buildPlugin("many.c", defines: ["ACTION_COUNT=\(count)", "NAME_EACH=1"],
                                            name: "named-\(count).so")
        let host = host()
        #expect(try host.load(file: path).actionTypes.count == count)
        let plugin = try #require(host.loadedPlugin(withID: "org.undohost.test.many"))
        // A duplicate check and an insert per type, a lookup per name.
        #expect(plugin.registrationLookups == 3 * count)
        for index in 0..<count {
            let id = index % 3 == 0 ? "a\(index)" : index % 3 == 1 ? "many.a\(index)" : "org.undohost.test.many/a\(index)"
            #expect(try host.actionType(id).localID == "a\(index)")
            #expect(plugin.action(localID: "a\(index)")?.localID == "a\(index)")
        }
        #expect(host.resolvedActions.indexedActionTypes == count, "the index is built once")
    }

    /// 100,000 report_change calls in one perform: the first 65,536 are kept, the rest answered
    /// UNDO_ELIMIT, and the perform fails though the plugin ignored the answers.
    @Test func changesReportedByOneCallAreBounded() throws {
        typealias Results = @convention(c) (UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void
        let path = try Fixtures.buildPlugin("many.c", defines: ["CHANGE_COUNT=100000"], name: "changes.so")
        let host = host()
        try host.load(file: path)
        let action = try host.actionType("a0")
        do {
            try host.perform(action, [])
            Issue.record("the perform succeeded")
        } catch {
            #expect(error.code == Int32(UNDO_ELIMIT))
            #expect("\(error)".contains("reported more than 65536 changes in one call"), "\(error)")
        }
        var accepted: Int32 = 0, limited: Int32 = 0
        try Fixtures.function("many_report_results", in: path, as: Results.self)(&accepted, &limited)
        #expect(accepted == Int32(CallFrame.maximumChangesPerCall))
        #expect(limited == 100_000 - Int32(CallFrame.maximumChangesPerCall))
        #expect(host.history.withStack { $0.undoCount } == 0)
    }

    /// "Did you mean": a 10 MB word is not compared at all; among 20,000 ids at most
    /// `maximumComparisons` edit distances run, each within its band.
    @Test func suggestionsAreBounded() {
        var steps = 0
        let ids = (0..<20_000).map { "action-\($0)" }
        #expect(Suggestion.closest(to: String(repeating: "x", count: 10_000_000), among: ids, allowed: nil, steps: &steps) == nil)
        #expect(steps == 0)
        #expect(Suggestion.closest(to: "actoin-17", among: ids, allowed: nil, steps: &steps) == "action-17")
        let word = 9, allowed = 3
        #expect(steps <= Suggestion.maximumComparisons * word * (2 * allowed + 1), "\(steps) steps")
        // The same answers as the full distance on ordinary words.
        #expect(Suggestion.closest(to: "udno", among: ["redo", "undo", "show"]) == "undo")
        #expect(Suggestion.closest(to: "xyzzy", among: ["redo", "undo", "show"]) == nil)
        for (a, b) in [("kitten", "sitting"), ("undo", "udno"), ("", "abc"), ("abcdef", "abcdef"), ("flaw", "lawn")] {
            var count = 0
            let full = Suggestion.editDistance(Array(a), Array(b))
            #expect(Suggestion.editDistance(Array(a), Array(b), atMost: 3, steps: &count) == (full <= 3 ? full : nil), "\(a) \(b)")
        }
    }
}

extension ScalingBoundsTests {
    /// A context reaches plugins as a C string of at most 4096 bytes, from Swift as from C.
    @Test func contextsAreBoundedAt4096Bytes() throws {
        let host = host()
        try host.load(file: Fixtures.textEditor)
        let long = UndoContext(String(repeating: "c", count: 50_000))
        #expect(throws: PluginHostError.history(.nameTooLong(what: "context", bytes: 50_000, limit: 4096))) {
            try host.perform("text.insert", [.i64(0), .string("x")], in: long)
        }
        let action = try host.actionType("text.insert")
        #expect(throws: PluginHostError.history(.nameTooLong(what: "context", bytes: 50_000, limit: 4096))) {
            try host.perform(action, [.i64(0), .string("x")], in: long)
        }
        #expect(host.history.withStack { $0.undoCount } == 0)
        try host.perform("text.insert", [.i64(0), .string("x")], in: UndoContext(String(repeating: "c", count: 4096)))
        #expect(host.history.withStack { $0.undoCount } == 1)
    }
}
