#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoCore
import UndoPluginHost

// The threads rule of undo_plugin.h: a host serializes the calls into one instance, but two
// hosts (two instances of one plugin) may call it from different threads at the same time.

extension CheckTest {
    /// threads: two instances, each in its own host on its own thread, change their documents at
    /// the same time; each must end exactly as its own calls say.
    static let threads = CheckTest(
        name: "threads",
        summary: "two instances called from two threads at once keep their own documents (no shared mutable globals)") {
        setup, random, log in
        let walks = [try ConcurrentWalk(plugin: setup.load(), seed: random.next()),
                     try ConcurrentWalk(plugin: setup.load(), seed: random.next())]
        var threads: [pthread_t] = []
        for walk in walks {
            var thread = pthread_t()
            let box = Unmanaged.passRetained(walk).toOpaque()
            guard pthread_create(&thread, nil, { box in
                let walk = Unmanaged<ConcurrentWalk>.fromOpaque(box!).takeRetainedValue()
                walk.run()
                return nil
            }, box) == 0 else {
                Unmanaged<ConcurrentWalk>.fromOpaque(box).release()
                throw CheckFailure("could not start a thread")
            }
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }
        for (index, walk) in walks.enumerated() {
            for text in walk.log.notes { log.note(text) }
            if let failure = walk.failure {
                throw CheckFailure("instance \(index + 1), while another instance was called from another thread: \(failure.message)")
            }
        }
        if !walks[0].plugin.canDescribe { log.note(noDescribeNote("threads")) }
    }
}

/// One instance's random walk, run on a thread of its own. Only that thread touches it between
/// pthread_create and pthread_join, which orders its writes before the reads after the join.
private final class ConcurrentWalk: @unchecked Sendable {
    let plugin: PluginUnderTest
    let log = CheckLog()
    private var random: CheckRandom
    private(set) var failure: CheckFailure?

    init(plugin: PluginUnderTest, seed: UInt64) {
        self.plugin = plugin
        self.random = CheckRandom(seed: seed)
    }

    func run() {
        do {
            var walk = try HistoryWalk(plugin: plugin, log: log, documentNames: ["doc", "other"])
            for _ in 0..<200 { try walk.randomStep(actions: plugin.info.actionTypes, focus: nil, using: &random) }
            try walk.checkLog("threads")
        } catch {
            failure = error
        }
    }
}
