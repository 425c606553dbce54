import Foundation
import Testing
import UndoTestSupport

/// What the person names is loaded from where they mean; what others could change is refused
/// unless they say otherwise.
@Suite("Plugin trust at the command line")
struct PluginTrustTests {
    /// A copy of the text editor plugin in a fresh folder, with `mode` on the file.
    func copyOfTextEditor(mode: Int16) throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let copy = folder.url.appendingPathComponent("libUndoPluginTextEditor.so").path
        try FileManager.default.copyItem(atPath: UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginTextEditor.so").path,
                                         toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: Int16(0o755)], ofItemAtPath: folder.url.path)
        return (folder, copy)
    }

    @Test("A plugin file others may change is refused, and loads with --allow-writable-plugins")
    func writablePluginsNeedTheFlag() throws {
        let (folder, copy) = try copyOfTextEditor(mode: 0o666)
        let refused = try UndoHostProcess.run(["--plugins", copy, "plugins"])
        #expect(refused.standardError.contains("cannot load \(copy)"))
        #expect(refused.standardError.contains("someone else could run code in this process"))
        #expect(!refused.standardOutput.contains("org.undohost.text"))

        let allowed = try UndoHostProcess.run(["--allow-writable-plugins", "--plugins", copy, "plugins"])
        #expect(allowed.status == 0)
        #expect(allowed.standardOutput.contains("org.undohost.text"))
        _ = folder
    }

    @Test("A relative --plugins path and load PATH are taken from the current folder, as the person means")
    func relativePathsTheUserGaveAreResolved() throws {
        let (folder, _) = try copyOfTextEditor(mode: 0o644)
        let listed = try UndoHostProcess.run(["--plugins", "libUndoPluginTextEditor.so", "plugins"], directory: folder.url)
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.contains("org.undohost.text"))

        let loaded = try UndoHostProcess.run(["--plugins", UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginCanvas.so").path,
                                              "run", "-"],
                                             input: "load ./libUndoPluginTextEditor.so\ntext.insert 0 \"hi\"\nmenu\n",
                                             directory: folder.url)
        #expect(loaded.status == 0, "\(loaded.standardError)")
        #expect(loaded.standardOutput.contains("Loaded org.undohost.text"))
        #expect(loaded.standardOutput.contains("Undo Typing"))
    }
}

extension PluginTrustTests {
    @Test("The refusal names --allow-writable-plugins once, and load --allow-writable-plugins overrides it in a session")
    func refusalNamesTheFlag() throws {
        let (folder, copy) = try copyOfTextEditor(mode: 0o666)
        let refused = try UndoHostProcess.run(["--plugins", copy, "plugins"])
        #expect(refused.standardError.contains("run undo-host with --allow-writable-plugins"), "\(refused.standardError)")
        #expect(refused.standardError.components(separatedBy: "hint:").count == 2)
        #expect(refused.standardError.components(separatedBy: "the other plugins are loaded").count == 2)

        let session = try UndoHostProcess.run(["--plugins", UndoHostProcess.productsFolder.appendingPathComponent("libUndoPluginCanvas.so").path,
                                               "--keep-going", "run", "-"],
                                              input: "load \(copy)\nload --allow-writable-plugins \(copy)\ntext.insert 0 \"ok\"\nshow\n")
        #expect(session.status == 1)
        #expect(session.standardError.contains(":1: UNDO_ELOAD: cannot load \(copy): refused"))
        #expect(session.standardOutput.contains("Loaded org.undohost.text"))
        #expect(session.standardOutput.contains("  ok"))
        _ = folder
    }
}

extension PluginTrustTests {
    @Test("A link in a folder others can write is refused by --plugins and load, as by the C API")
    func aLinkInAnOpenFolderIsRefused() throws {
        let (folder, copy) = try copyOfTextEditor(mode: 0o644)
        let open = folder.url.appendingPathComponent("open").path
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: Int16(0o1777)], ofItemAtPath: open)
        try FileManager.default.createSymbolicLink(atPath: open + "/link.so", withDestinationPath: copy)
        try FileManager.default.createSymbolicLink(atPath: open + "/dirlink", withDestinationPath: folder.url.path)
        let reason = "the folder \(open) holding the link is writable by group and others (mode 1777)"
        for path in [open + "/link.so", open + "/dirlink/libUndoPluginTextEditor.so", "open/link.so"] {
            let refused = try UndoHostProcess.run(["--plugins", path, "plugins"], directory: folder.url)
            #expect(refused.standardError.contains(reason), "\(path): \(refused.standardError)")
            #expect(!refused.standardOutput.contains("org.undohost.text"))
            let session = try UndoHostProcess.run(["run", "-"], input: "load \(path)\n", directory: folder.url)
            #expect(session.status != 0)
            #expect(session.standardError.contains(reason), "\(path): \(session.standardError)")
        }
    }
}
