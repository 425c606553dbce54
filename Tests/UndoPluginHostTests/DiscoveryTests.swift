import Foundation
import Testing
@testable import UndoPluginHost

/// Finding the bundled plugins next to the program, and the environment override. Serialized:
/// one test changes the process environment.
@Suite(.serialized) struct DiscoveryTests {
    @Test func bundledPluginsAreFoundNextToTheProgram() throws {
        #expect(PluginHost.bundledPluginFolders.contains(Fixtures.products))
        // From /proc/self/exe, never the current directory.
        let current = FileManager.default.currentDirectoryPath
        if current != Fixtures.products { #expect(!PluginHost.bundledPluginFolders.contains(current)) }
        let (host, _) = makeHost()
        let report = host.loadBundledPlugins()
        #expect(report.failures.isEmpty, "\(report.failures)")
        let ids = Set(report.loaded.map(\.id))
        #expect(ids.isSuperset(of: ["org.undohost.text", "org.undohost.canvas"]))
        // Only libUndoPlugin*.so files: nothing else in the build folder was tried.
        #expect(report.loaded.allSatisfy { PluginHost.isBundledPluginName(($0.path as NSString).lastPathComponent) })
    }

    @Test func theEnvironmentOverridesTheFolder() throws {
        let folder = Fixtures.temporaryFolder()
        _ = try Fixtures.buildPlugin("thirdparty_counter.c", name: "libUndoPluginCounter.so", in: folder)
        _ = try Fixtures.buildPlugin("probe.c", name: "other.so", in: folder)
        setenv(PluginHost.pluginPathVariable, folder, 1)
        defer { unsetenv(PluginHost.pluginPathVariable) }
        #expect(PluginHost.bundledPluginFolders == [folder])
        let (host, _) = makeHost()
        let report = host.loadBundledPlugins()
        #expect(report.loaded.map(\.id) == ["com.example.counter"])
        #expect(report.failures.isEmpty)
    }

    /// Relative entries (and empty ones, which would mean the current directory) are not used;
    /// the relative ones are reported.
    @Test func relativeEntriesOfThePluginPathAreRefused() throws {
        let folder = Fixtures.temporaryFolder()
        _ = try Fixtures.buildPlugin("thirdparty_counter.c", name: "libUndoPluginCounter.so", in: folder)
        setenv(PluginHost.pluginPathVariable, "plugins::\(folder):.", 1)
        defer { unsetenv(PluginHost.pluginPathVariable) }
        #expect(PluginHost.bundledPluginFolders == [folder])
        let (host, _) = makeHost()
        let report = host.loadBundledPlugins()
        #expect(report.loaded.map(\.id) == ["com.example.counter"])
        #expect(report.failures == [PluginLoadError(path: "plugins", reason: .relativePath),
                                    PluginLoadError(path: ".", reason: .relativePath)])
    }
}
