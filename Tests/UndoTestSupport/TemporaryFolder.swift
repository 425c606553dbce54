import Foundation

/// A new folder of its own under the temporary directory, made with `mkdtemp`, so only this user
/// may write in it (as the plugin host asks of a folder it loads plugins from). It is removed
/// when the value goes away, unless `removedAtEnd` is false.
public final class TemporaryFolder: Sendable {
    public let url: URL
    private let removedAtEnd: Bool

    public var path: String { url.path }

    public init(_ prefix: String = "undohost-tests", removedAtEnd: Bool = true) throws {
        let base = (NSTemporaryDirectory() as NSString).appendingPathComponent(prefix + "-XXXXXX")
        var template = Array(base.utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: base])
        }
        url = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        self.removedAtEnd = removedAtEnd
    }

    deinit {
        if removedAtEnd { try? FileManager.default.removeItem(at: url) }
    }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { path + "/" + name }

    /// A new folder left in place after the test, for helpers that hand out its path.
    public static func kept(_ prefix: String = "undohost-tests") -> String {
        // mkdtemp fails only when the temporary directory is unusable; no test can run then.
        try! TemporaryFolder(prefix, removedAtEnd: false).path
    }
}
