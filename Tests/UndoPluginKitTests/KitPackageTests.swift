import Foundation
import Testing
import UndoCore
import UndoPluginHost
import UndoTestSupport

/// A plugin author needs the kit and the ABI only: `PluginKit/` is a package of its own with
/// no dependency, so a plugin built against it fetches nothing (an offline machine with an
/// empty cache builds one). `undo-host new-plugin --swift` writes a package that depends on it.
@Suite struct KitPackageTests {
    @Test func aSwiftPluginBuildsAgainstTheKitPackageAloneAndLoads() throws {
        let folder = try TemporaryFolder()
        let written = try UndoHostProcess.run(["new-plugin", "--swift", "Tally"], directory: folder.url)
        try #require(written.status == 0, "\(written.standardError)")
        let manifest = try String(contentsOf: folder.url.appendingPathComponent("Tally/Package.swift"), encoding: .utf8)
        #expect(manifest.contains("dependencies: [.package(path: \"\(SourceTree.root)/PluginKit\")]"), "\(manifest)")
        #expect(manifest.contains(".product(name: \"UndoPluginKit\", package: \"PluginKit\")"))

        // Its own scratch folder, so no cache of this build is used; nothing to fetch.
        let scratch = folder.url.appendingPathComponent("build").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--package-path", folder.url.appendingPathComponent("Tally").path,
                             "--scratch-path", scratch]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(text)")
        let checkouts = (try? FileManager.default.contentsOfDirectory(atPath: scratch + "/checkouts")) ?? []
        #expect(checkouts.isEmpty, "fetched \(checkouts)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Tally/Package.resolved").path))

        let (host, _) = SwiftPluginFixtures.makeHost()
        let info = try host.load(file: scratch + "/debug/libTally.so")
        try host.perform("tally.add", [.i64(5)], in: UndoContext("doc"))
        #expect(try host.describe(UndoContext("doc"), plugin: info.id).contains("5"))
    }
}
