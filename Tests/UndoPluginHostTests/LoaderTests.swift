import Foundation
import Testing
import UndoPluginABI
@testable import UndoPluginHost

/// Bad plugin files, each built by the test and refused with its reason naming the file,
/// while the good plugins load and work.
@Suite struct LoaderTests {
    typealias Counts = @convention(c) (UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void

    func loadError(_ host: PluginHost, _ path: String) -> PluginLoadError? {
        do {
            try host.load(file: path)
            return nil
        } catch {
            return error
        }
    }

    func counts(_ path: String) throws -> (Int32, Int32) {
        let function = try Fixtures.function("bad_counts", in: path, as: Counts.self)
        var inits: Int32 = 0
        var deinits: Int32 = 0
        function(&inits, &deinits)
        return (inits, deinits)
    }

    /// A file this process loaded before is not checked again by a second history: the image
    /// it loads is the one checked the first time (kept mapped, its file kept open). Counted:
    /// this used to cost a C host (and the C API fuzz target) most of a history's creation.
    @Test func aFileLoadedBeforeIsNotCheckedAgain() throws {
        let path = try Fixtures.buildPlugin("bad_plugin.c", defines: [], name: "checked_once.so")
        let before = ELFFile.validationCount(of: path)
        let first = PluginHost(hostName: "first")
        try first.load(file: path)
        let afterFirst = ELFFile.validationCount(of: path)
        #expect(afterFirst == before + 1)
        let second = PluginHost(hostName: "second")
        try second.load(file: path)
        #expect(ELFFile.validationCount(of: path) == afterFirst)
        #expect(second.plugins.map(\.path) == first.plugins.map(\.path))
    }

    /// A load that succeeds does not work out the given path again for messages (a realpath()
    /// walk of its own, more than the rest of a repeated load cost the C API fuzz target); a
    /// load that fails does, and names the file by it.
    @Test func aLoadWorksThePathOutOnlyForAMessage() throws {
        let path = try Fixtures.buildPlugin("bad_plugin.c", defines: [], name: "resolved_for_messages.so")
        let host = PluginHost(hostName: "resolving")
        try host.load(file: path)
        #expect(SystemFiles.resolutions.withLock { $0[path] } == nil)
        let missing = path + ".missing"
        let error = loadError(host, missing)
        #expect(error?.path == missing)
        #expect(SystemFiles.resolutions.withLock { $0[missing] } == 1)
    }

    /// Finding the bundled plugins' folders reads /proc/self/maps once per process (for the
    /// host's own image), not once per call: a C host loads them for every history it makes.
    @Test func theBundledFoldersReadTheMapsOnce() {
        let first = PluginHost.bundledPluginFolders
        let lookups = DynamicLibrary.imagePathLookups.withLock { $0 }
        for _ in 0..<5 { #expect(PluginHost.bundledPluginFolders == first) }
        #expect(DynamicLibrary.imagePathLookups.withLock { $0 } == lookups)
    }

    /// A folder's entries are sorted only among the names that may be plugins: a build folder
    /// holds hundreds of other files, and comparing all their names cost more than loading
    /// the plugins. Long and non-ASCII names come through whole.
    @Test func aFolderSortsOnlyThePluginNames() throws {
        let folder = Fixtures.temporaryFolder()
        _ = try Fixtures.buildPlugin("thirdparty_counter.c", name: "counter.so", in: folder)
        for index in 0..<40 {
            try "not a plugin".write(toFile: folder + "/notes-\(index).txt", atomically: true, encoding: .utf8)
        }
        let long = String(repeating: "x", count: 200) + ".so"
        for name in [long, "문서.so"] { try "junk".write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        let (host, _) = makeHost()
        let report = host.load(folder: folder)
        #expect(report.loaded.map(\.id) == ["com.example.counter"])
        #expect(report.failures.map { ($0.path as NSString).lastPathComponent } == [long, "문서.so"])
        let resolved = try #require(report.failures.first.map { ($0.path as NSString).deletingLastPathComponent })
        #expect(PluginHost.sortedFolderNames.withLock { $0[resolved] } == 3)
    }

    /// Listing a folder makes a String only of the names that end in ".so" (the others are
    /// passed over by their bytes), and a folder that loads is not resolved again by realpath()
    /// for messages: its real path is the walk's.
    @Test func aFolderDecodesOnlyThePluginNamesAndIsNotResolvedTwice() throws {
        let folder = Fixtures.temporaryFolder()
        _ = try Fixtures.buildPlugin("thirdparty_counter.c", name: "counter.so", in: folder)
        for index in 0..<40 {
            try "not a plugin".write(toFile: folder + "/notes-\(index).txt", atomically: true, encoding: .utf8)
        }
        try "junk".write(toFile: folder + "/almost.so.txt", atomically: true, encoding: .utf8)
        let (host, _) = makeHost()
        let report = host.load(folder: folder)
        #expect(report.loaded.map(\.id) == ["com.example.counter"])
        #expect(report.failures.isEmpty)
        let resolved = try #require(report.loaded.first.map { ($0.path as NSString).deletingLastPathComponent })
        #expect(PluginHost.decodedFolderNames.withLock { $0[resolved] } == 1)
        #expect(SystemFiles.resolutions.withLock { $0[folder] } == nil)
    }

    /// Each broken variant of bad_plugin.c and what the host must say.
    static let variants: [(defines: [String], check: @Sendable (PluginLoadError.Reason) -> Bool)] = [
        (["BAD_NO_ENTRY"], { $0 == .missingEntry }),
        (["BAD_ENTRY_NULL"], { $0 == .entryReturnedNull }),
        (["DESC_MAJOR=2"], { $0 == .incompatibleVersion(major: 2, minor: UInt32(UNDO_ABI_VERSION_MINOR)) }),
        (["DESC_MAJOR=0"], { $0 == .incompatibleVersion(major: 0, minor: UInt32(UNDO_ABI_VERSION_MINOR)) }),
        (["DESC_MINOR=\(UNDO_ABI_VERSION_MINOR + 1)"], { $0 == .incompatibleVersion(major: 1, minor: UInt32(UNDO_ABI_VERSION_MINOR + 1)) }),
        (["DESC_SIZE=40"], { $0 == .descriptorTooSmall(size: 40, minimum: PluginDescriptor.minimumSize) }),
        (["DESC_SIZE=8"], { $0 == .descriptorTooSmall(size: 8, minimum: PluginDescriptor.minimumSize) }),
        (["DESC_SIZE=0x7fffffff"], { $0 == .descriptorTooLarge(size: 0x7FFF_FFFF, maximum: 65536) }),
        (["DESC_ID=NULL"], { $0 == .invalidDescriptor("id is NULL") }),
        (["DESC_ID=\"\""], { $0 == .invalidDescriptor("id is empty") }),
        (["DESC_ID=\"nodots\""], { $0 == .invalidDescriptor(#"id "nodots" is not a reverse-DNS id (like org.example.name)"#) }),
        (["DESC_ID=\"org..x\""], { if case .invalidDescriptor = $0 { true } else { false } }),
        (["DESC_NAME=NULL"], { $0 == .invalidDescriptor("name is NULL") }),
        (["DESC_INIT=NULL"], { $0 == .invalidDescriptor("init is NULL") }),
        (["BAD_INIT_FAILS"], { $0 == .initFailed(code: UNDO_ENOMEM, message: "out of widgets") }),
        (["BAD_DUP_ACTION"], { $0 == .actionRefused(action: "go", code: UNDO_EEXIST, message: "action id go is already registered") }),
        (["BAD_UNKNOWN_TYPE"], { $0 == .actionRefused(action: "go", code: UNDO_ETYPE, message: "params[0] has unknown type 99") }),
        (["BAD_TOO_MANY_PARAMS"], { $0 == .actionRefused(action: "go", code: UNDO_ELIMIT, message: "17 params is more than the limit of 16") }),
        (["BAD_NULL_PERFORM"], { $0 == .actionRefused(action: "go", code: UNDO_EINVAL, message: "perform is NULL") }),
    ]

    @Test(arguments: 0..<variants.count)
    func aBadPluginIsRefusedWithItsReason(_ index: Int) throws {
        let variant = Self.variants[index]
        let (host, _) = makeHost()
        try host.load(file: Fixtures.textEditor)
        let path = try Fixtures.buildPlugin("bad_plugin.c", defines: variant.defines)
        let error = try #require(loadError(host, path), "\(variant.defines) was loaded")
        #expect(variant.check(error.reason), "\(variant.defines): \(error)")
        #expect(error.path == path)
        #expect(error.description.hasPrefix(path + ": "))
        // The host is as if it were not there.
        #expect(host.plugins.map(\.id) == ["org.undohost.text"])
        try host.perform("text.insert", [.i64(0), .string("fine")], in: .global)
        #expect(try host.describe(.global, plugin: "org.undohost.text") == "fine")
    }

    /// The docs' build line (`-fvisibility=hidden`) without UNDO_PLUGIN_EXPORT: the file hashes
    /// no symbol (DT_GNU_HASH then says 1 for its symbol offset), which is a file that exports
    /// nothing, not a damaged one.
    @Test func aFileThatExportsNothingIsNotAPluginRatherThanDamaged() throws {
        let path = try Fixtures.buildPlugin("bad_plugin.c", defines: ["BAD_ENTRY_HIDDEN"], flags: ["-fvisibility=hidden"],
                                            name: "hidden_entry.so")
        let error = try #require(loadError(makeHost().0, path))
        #expect(error.reason == .missingEntry, "\(error)")
        #expect(error.description == path + ": not a plugin: it does not export undo_plugin_entry")
    }

    @Test func initIsNotFollowedByDeinitWhenItFails() throws {
        let path = try Fixtures.buildPlugin("bad_plugin.c", defines: ["BAD_INIT_FAILS"])
        #expect(loadError(makeHost().0, path) != nil)
        #expect(try counts(path) == (1, 0))
    }

    @Test func aRefusedRegistrationCallsDeinit() throws {
        let path = try Fixtures.buildPlugin("bad_plugin.c", defines: ["BAD_DUP_ACTION"])
        #expect(loadError(makeHost().0, path) != nil)
        #expect(try counts(path) == (1, 1))
    }

    @Test func noPluginCodeRunsBeforeTheVersionCheck() throws {
        let path = try Fixtures.buildPlugin("bad_plugin.c", defines: ["DESC_MAJOR=2"])
        #expect(loadError(makeHost().0, path)?.reason == .incompatibleVersion(major: 2, minor: UInt32(UNDO_ABI_VERSION_MINOR)))
        #expect(try counts(path) == (0, 0))
    }

    @Test func aLargerDescriptorOfTheSameVersionIsAccepted() throws {
        let path = try Fixtures.buildPlugin("bad_plugin.c", defines: ["DESC_SIZE=(UNDO_PLUGIN_DESCRIPTOR_SIZE_V1+16)"])
        let (host, _) = makeHost()
        let info = try host.load(file: path)
        #expect(info.actionTypes.map(\.shortID) == ["bad.go"])
    }

    @Test func filesThatAreNotPluginsAreRefusedBeforeTheLoaderSeesThem() throws {
        let folder = Fixtures.temporaryFolder()
        let real = try Data(contentsOf: URL(fileURLWithPath: Fixtures.textEditor))
        let text = folder + "/notes.so"
        try "hello, not an ELF file\n".write(toFile: text, atomically: true, encoding: .utf8)
        let truncated = folder + "/truncated.so"
        try real.prefix(2000).write(to: URL(fileURLWithPath: truncated))
        let tail = folder + "/tail.so"
        try real.prefix(real.count - 100).write(to: URL(fileURLWithPath: tail))
        var foreign = real
        foreign[18] = 183 // e_machine: AArch64
        foreign[19] = 0
        let arm = folder + "/arm.so"
        try foreign.write(to: URL(fileURLWithPath: arm))
        var executable = real
        executable[16] = 2 // e_type: an executable
        let program = folder + "/program.so"
        try executable.write(to: URL(fileURLWithPath: program))

        let (host, _) = makeHost()
        let expected: [(String, String)] = [
            (text, "not an ELF file"), (truncated, "truncated"), (tail, "truncated"),
            (arm, "built for another architecture (ELF machine 183"), (program, "not a shared object (ELF type 2)"),
        ]
        for (path, message) in expected {
            let error = try #require(loadError(host, path))
            guard case .invalidFile(let reason) = error.reason else {
                Issue.record("\(path): \(error)")
                continue
            }
            #expect(reason.hasPrefix(message), "\(path): \(reason)")
            #expect(error.description.hasPrefix(path + ": not a loadable shared object: "))
        }
        #expect(loadError(host, folder + "/missing.so")?.reason == .cannotOpen("No such file or directory"))
        #expect(host.plugins.isEmpty)
    }

    /// A valid shared object that dlopen refuses: the loader's own message, copied.
    @Test func aLoaderFailureCarriesDlerrorsMessage() throws {
        let folder = Fixtures.temporaryFolder()
        try "int undo_test_dependency(void) { return 1; }\n".write(toFile: folder + "/dep.c", atomically: true, encoding: .utf8)
        // It exports the entry, so it passes the check before dlopen and reaches the loader.
        try "int undo_test_dependency(void);\nint use(void) { return undo_test_dependency(); }\nvoid *undo_plugin_entry(void) { return 0; }\n"
            .write(toFile: folder + "/user.c", atomically: true, encoding: .utf8)
        #expect(try Fixtures.run("cc", ["-shared", "-fPIC", "-o", folder + "/libundodep.so", folder + "/dep.c"]).status == 0)
        #expect(try Fixtures.run("cc", ["-shared", "-fPIC", "-o", folder + "/user.so", folder + "/user.c",
                                        "-L", folder, "-lundodep"]).status == 0)
        try FileManager.default.removeItem(atPath: folder + "/libundodep.so")
        let error = try #require(loadError(makeHost().0, folder + "/user.so"))
        guard case .cannotOpen(let message) = error.reason else {
            Issue.record("\(error)")
            return
        }
        #expect(message.contains("libundodep.so: cannot open shared object file"))
    }

    @Test func aDuplicatePluginIDIsRefused() throws {
        let (host, _) = makeHost()
        try host.load(file: Fixtures.textEditor)
        let copy = try Fixtures.buildPlugin("bad_plugin.c", defines: ["DESC_ID=\"org.undohost.text\""])
        #expect(loadError(host, copy)?.reason == .duplicatePlugin(id: "org.undohost.text", loadedFrom: Fixtures.textEditor))
        #expect(loadError(host, Fixtures.textEditor)?.reason == .duplicatePlugin(id: "org.undohost.text", loadedFrom: Fixtures.textEditor))
        #expect(try counts(copy) == (0, 0))
    }

    /// A relative path is refused (it would depend on the current directory); made absolute on
    /// purpose, it loads, standardized (see also TrustPolicyTests).
    @Test func relativePathsAreRefusedUntilMadeAbsolute() throws {
        let (host, _) = makeHost()
        let relative = String(repeating: "../", count: 20) + Fixtures.textEditor.dropFirst()
        #expect(loadError(host, relative)?.reason == .relativePath)
        let info = try host.load(file: PluginHost.absolutePath(fromCurrentDirectory: relative))
        #expect(info.path == Fixtures.textEditor)
    }

    /// A folder of good and bad plugins: every good one loads, every bad one is reported.
    @Test func aFolderLoadsTheGoodAndReportsTheBad() throws {
        let folder = Fixtures.temporaryFolder()
        _ = try Fixtures.buildPlugin("thirdparty_counter.c", name: "counter.so", in: folder)
        let bad = [["BAD_NO_ENTRY"], ["DESC_MAJOR=3"], ["BAD_INIT_FAILS"], ["BAD_TOO_MANY_PARAMS"]]
        for (index, defines) in bad.enumerated() {
            _ = try Fixtures.buildPlugin("bad_plugin.c", defines: defines, name: "bad\(index).so", in: folder)
        }
        try "junk".write(toFile: folder + "/junk.so", atomically: true, encoding: .utf8)
        try "not a plugin".write(toFile: folder + "/readme.txt", atomically: true, encoding: .utf8)
        let (host, _) = makeHost()
        let report = host.load(folder: folder)
        #expect(report.loaded.map(\.id) == ["com.example.counter"])
        #expect(report.failures.map { ($0.path as NSString).lastPathComponent } == ["bad0.so", "bad1.so", "bad2.so", "bad3.so", "junk.so"])
        try host.perform("counter.add", [.i64(2)], in: .global)
        #expect(try host.describe(.global, plugin: "com.example.counter") == "count=2")

        let missing = host.load(folder: folder + "/nowhere")
        #expect(missing.loaded.isEmpty)
        #expect(missing.failures.first?.description == folder + "/nowhere: cannot open: cannot read the folder: No such file or directory")
    }
}
