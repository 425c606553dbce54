import Foundation

/// What SwiftPM built, found where the tests run: executables (undo-host, undo-bench,
/// CodableJournalCrashSession), libundohost.so, the plugin .so files and `Modules/` all sit in
/// one products folder, the one holding the test binary (such as .build/debug).
public enum BuildProducts {
    /// The products folder: the running test binary's folder, or the folder holding its
    /// `.xctest` bundle when the binary sits inside one.
    public static let folder: String = {
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var components = URL(fileURLWithPath: binary).standardizedFileURL.pathComponents
        components.removeLast()
        if let bundle = components.firstIndex(where: { $0.hasSuffix(".xctest") }) {
            components.removeSubrange(bundle...)
        }
        return NSString.path(withComponents: components)
    }()

    public static var folderURL: URL { URL(fileURLWithPath: folder, isDirectory: true) }

    /// The path of the product `name` (such as "undo-host" or "libUndoPluginCanvas.so").
    public static func path(_ name: String) -> String { folder + "/" + name }

    public static func url(_ name: String) -> URL { folderURL.appendingPathComponent(name) }
}

/// The repository's own files (Include/, the fixtures under Tests/), found from this file's place.
public enum SourceTree {
    /// The repository root (Tests/UndoTestSupport/ is two levels below it).
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The public C headers (`-I` for a plugin or a program built by a test).
    public static let include = root + "/Include"

    /// The path of `relativePath` in the repository, such as "Tests/UndoPluginHostTests/Fixtures".
    public static func path(_ relativePath: String) -> String { root + "/" + relativePath }
}
