import Foundation
import Testing
import UndoHostAPI
import UndoPluginABI

/// Threads sharing one `undo_history *` of the C API (libundohost's code is linked into the
/// tests): performing, undoing, redoing, reading titles and last_error, observing; then a
/// destroy while the others are still calling. Runs under ThreadSanitizer with the rest of
/// ThreadStressTests (scripts/sanitizers.sh tsan).
@Suite(.serialized)
struct CAPIThreadStressTests {
    static let threadCount = 4
    static let rounds = ThreadStressTests.rounds / 2

    @Test func threadsShareOneHandle() throws {
        var created: OpaquePointer?
        try #require(undo_history_create(nil, &created) == UNDO_OK)
        let handle = try #require(created)
        for plugin in ["TextEditor", "SwiftNotes"] {
            let code = (StressFixtures.products + "/libUndoPlugin\(plugin).so").withCString { undo_history_load_file(handle, $0) }
            try #require(code == UNDO_OK, "\(plugin): \(String(cString: undo_history_last_error(handle)))")
        }
        let failures = FailureLog()

        // Phase 1: everyone calls at once; afterwards undoing everything empties every document.
        runConcurrently((0..<Self.threadCount).map { index in
            { CAPIWorker(handle: handle, index: index, failures: failures).run(rounds: Self.rounds, destroyed: nil) }
        })
        #expect(failures.all.isEmpty, "\(failures.all.prefix(20).joined(separator: "\n"))")
        #expect(undo_history_set_context(handle, nil) == UNDO_OK)
        var undone = 0
        while undo_history_undo(handle, 1, nil) == UNDO_OK { undone += 1 }
        #expect(undone > 0)
        for index in 0..<Self.threadCount {
            for plugin in ["org.undohost.text", "org.undohost.notes"] {
                var buffer = [CChar](repeating: 0, count: 256)
                let length = plugin.withCString { plugin in
                    "c-\(index)".withCString { undo_history_describe(handle, plugin, $0, &buffer, UInt32(buffer.count)) }
                }
                #expect(length == 0, "\(plugin) c-\(index) after undoing everything: \(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
            }
        }

        // Phase 2: one thread destroys the history while the others keep calling. Calls finish
        // or get UNDO_EHANDLE; none crashes or races.
        let destroyed = Flag()
        var bodies: [() -> Void] = (0..<Self.threadCount).map { index in
            { CAPIWorker(handle: handle, index: index, failures: failures).run(rounds: Self.rounds, destroyed: destroyed) }
        }
        bodies.append {
            usleep(2_000)
            CAPIWorker.destroyStarted.set()
            if undo_history_destroy(handle) != UNDO_OK { failures.add("destroy failed") }
            destroyed.set()
        }
        runConcurrently(bodies)
        #expect(failures.all.isEmpty, "\(failures.all.prefix(20).joined(separator: "\n"))")
        #expect(CAPIWorker.observerFailures.all.isEmpty, "\(CAPIWorker.observerFailures.all.prefix(5))")
        #expect(undo_history_undo(handle, 1, nil) == UNDO_EHANDLE)
        #expect(String(cString: undo_history_last_error(handle)) == "stale or foreign handle")
    }

    /// Every C call looks its handle up in one registry, so threads calling at once contend for
    /// its lock while others create and destroy histories (write-locking it). Each thread's own
    /// handle works until destroyed and is stale after; the shared one works throughout.
    @Test func handlesAreLookedUpWhileOthersComeAndGo() throws {
        var created: OpaquePointer?
        try #require(undo_history_create(nil, &created) == UNDO_OK)
        let shared = try #require(created)
        let failures = FailureLog()
        runConcurrently((0..<Self.threadCount).map { index in
            {
                for round in 0..<Self.rounds {
                    var mine: OpaquePointer?
                    guard undo_history_create(nil, &mine) == UNDO_OK, let mine else {
                        return failures.add("thread \(index): create failed in round \(round)")
                    }
                    for handle in [mine, shared, mine, shared] {
                        let choices = undo_history_alert_choice_count(handle)
                        if choices < 0 { failures.add("thread \(index): a live handle gave \(choices)") }
                    }
                    if undo_history_destroy(mine) != UNDO_OK { failures.add("thread \(index): destroy failed") }
                    let stale = undo_history_alert_choice_count(mine)
                    if stale != UNDO_EHANDLE { failures.add("thread \(index): a destroyed handle gave \(stale)") }
                }
            }
        })
        #expect(failures.all.isEmpty, "\(failures.all.prefix(20).joined(separator: "\n"))")
        #expect(undo_history_destroy(shared) == UNDO_OK)
    }
}

/// One thread's calls on the shared handle.
struct CAPIWorker {
    let handle: OpaquePointer
    let index: Int
    let failures: FailureLog

    /// What observers saw wrong (a C observer has no Swift context to report through).
    static let observerFailures = FailureLog()
    static let destroyStarted = Flag()

    static let observer: undo_observer_fn = { userData, state, _ in
        // Read-only calls are allowed from an observer; the state must be coherent.
        guard let state = state?.pointee, let userData else { return observerFailures.add("observer: no state") }
        let handle = OpaquePointer(userData)
        if state.position > state.count { observerFailures.add("observer: position \(state.position) past count \(state.count)") }
        var buffer = [CChar](repeating: 0, count: 32)
        let code = undo_history_undo_title(handle, &buffer, UInt32(buffer.count))
        // Once a destroy has begun, the handle is stale even for a call still under way.
        if code < 0 && !(code == UNDO_EHANDLE && destroyStarted.isSet) { observerFailures.add("observer: undo_title gave \(code)") }
    }

    func run(rounds: Int, destroyed: Flag?) {
        var random = SplitMix64(seed: UInt64(index) + 77)
        let context = "c-\(index)"
        var observerID: UInt64 = 0
        for _ in 0..<rounds {
            // Read before calling: a call that starts after the destroy returned must be refused.
            let wasDestroyed = destroyed?.isSet ?? false
            var title = [CChar](repeating: 0, count: 64)
            let code: Int32 = switch random.next(9) {
            case 0, 1, 2:
                "text.insert".withCString { id in
                    context.withCString { context in
                        "ab".withCString { text in
                            var arguments = [undo_value](repeating: undo_value(), count: 2)
                            arguments[0].type = UInt32(UNDO_TYPE_I64)
                            arguments[0].as.i64 = 0
                            arguments[1].type = UInt32(UNDO_TYPE_STRING)
                            arguments[1].as.string.data = text
                            arguments[1].as.string.size = 2
                            return undo_history_perform(handle, id, context, arguments, 2)
                        }
                    }
                }
            case 3:
                "notes.write".withCString { id in
                    context.withCString { undo_history_perform_text(handle, id, $0, "\"note\" 1") }
                }
            case 4: undo_history_undo(handle, 1, nil)
            case 5: undo_history_redo(handle, 1, nil)
            case 6: undo_history_undo_title(handle, &title, UInt32(title.count))
            case 7: undo_history_alert_choice_count(handle)
            default: toggleObserver(&observerID)
            }
            if destroyed != nil {
                // last_error is not read here: its text lives only until the handle is destroyed.
                if wasDestroyed && code != UNDO_EHANDLE { failures.add("thread \(index): a call after destroy gave \(code)") }
                continue
            }
            let message = String(cString: undo_history_last_error(handle))
            // Nothing to undo or redo is fine; any other failure on a live handle is not.
            if code < 0 && code != UNDO_EEMPTY {
                failures.add("thread \(index): code \(code): \(message)")
            } else if code < 0 ? message.isEmpty : !message.isEmpty {
                failures.add("thread \(index): code \(code) with last_error \(message.debugDescription)")
            }
        }
    }
}

extension CAPIWorker {
    /// Adds this thread's observer, or removes it.
    func toggleObserver(_ id: inout UInt64) -> Int32 {
        if id == 0 {
            return undo_history_observe(handle, Self.observer, UnsafeMutableRawPointer(handle), &id)
        }
        let code = undo_history_unobserve(handle, id)
        id = 0
        return code
    }
}

/// A flag set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
