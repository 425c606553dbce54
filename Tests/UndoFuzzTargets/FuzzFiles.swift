import Foundation

/// Saved fuzz inputs on disk: corpus folders and regression folders hold one input per file.
public enum FuzzFiles {
    /// The files at `path`: the file itself, or every regular file in the folder (not hidden,
    /// sorted by name so runs are reproducible).
    public static func inputs(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }

    /// Runs `body` with the bytes of a file (empty when it cannot be read).
    public static func withContents<E: Error>(of path: String,
                                              _ body: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        let data = FileManager.default.contents(atPath: path) ?? Data()
        let bytes = [UInt8](data)
        // withUnsafeBytes only rethrows untyped errors: carry the typed one out in a Result.
        try bytes.withUnsafeBytes { buffer in Result { () throws(E) in try body(buffer) } }.get()
    }
}
