// docs:begin plugin-host
import UndoCore
import UndoPluginHost

// docs:end plugin-host
extension DocExamples {
    /// docs/using-the-history-from-swift.md, "Plugins in a Swift program".
    static func pluginHost() throws {
        // docs:begin plugin-host
        let host = PluginHost()                      // performs into host.history, a SharedUndoHistory
        let report = host.loadBundledPlugins()       // or host.load(file:) with an absolute path, load(folder:)
        print(report.loaded.map(\.id), report.failures.count)

        let letter = UndoContext("letter.txt")
        try host.perform("text.insert", argumentText: #"0 "Hello world""#, in: letter)
        let bold = try host.actionType("text.bold")  // resolved once; the arguments are checked on every call
        try host.perform(bold, [.i64(0), .i64(5)], in: letter)
        print(host.history.withStack { $0.undoMenuTitle })
        let undone = try host.undo()
        print(undone?.name ?? "-", undone?.changes.compactMap(\.location) ?? [])   // where it changed
        print(try host.describe(letter, plugin: "org.undohost.text"))
        // docs:end plugin-host
    }

    /// docs/trust-model.md, "Choosing what loads".
    static func trustPolicy() throws {
        // docs:begin trust-policy
        let host = PluginHost(trust: PluginTrustPolicy(
            allowWritable: false,                      // undo-host's --allow-writable-plugins sets true
            allowedPluginIDs: ["org.undohost.text"],   // nil: any id
            allowedSHA256: nil),                       // nil: any file
            log: { _ in })
        let report = host.loadBundledPlugins()
        print(report.loaded.map(\.id))
        print(report.failures.count, "refused")      // each with the file and the reason, here "not on the allow-list"
        // docs:end trust-policy
    }
}
