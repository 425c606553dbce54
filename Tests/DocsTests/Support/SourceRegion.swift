import Foundation

/// The text a `same-as` or `swift-example` block must equal: a whole file of the repository
/// (`examples/c-host/main.c`), or the lines between `docs:begin NAME` and `docs:end NAME`
/// comments in a file or in any file of a folder (`Tests/DocsTests/Examples#quick-start`),
/// with their common indentation removed.
enum SourceRegion {
    static func text(_ reference: String) throws -> String {
        let parts = reference.split(separator: "#", maxSplits: 1).map(String.init)
        let path = parts[0]
        guard parts.count == 2 else { return try Repository.read(path) }
        let region = parts[1]
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: Repository.root + "/" + path, isDirectory: &isFolder) else {
            throw DocsCheckError("no file or folder \(path)")
        }
        let files = isFolder.boolValue
            ? try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/" + path).sorted().map { path + "/" + $0 }
            : [path]
        for file in files {
            if let found = try lines(of: region, in: Repository.read(file)) { return found }
        }
        throw DocsCheckError("no region \"docs:begin \(region)\" in \(path)")
    }

    /// The region's parts, in order (a region may stop and start again, to leave out the lines
    /// that wrap an example in a function), each with its own indentation removed.
    private static func lines(of region: String, in text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var parts: [String] = []
        var start = lines.startIndex
        while let begin = lines[start...].firstIndex(where: { $0.hasSuffix("docs:begin " + region) }) {
            guard let end = lines[begin...].firstIndex(where: { $0.hasSuffix("docs:end " + region) }) else { return nil }
            let body = lines[(begin + 1)..<end]
            let indentation = body.filter { !$0.allSatisfy(\.isWhitespace) }
                .map { $0.prefix { $0 == " " }.count }.min() ?? 0
            parts.append(body.map { $0.allSatisfy(\.isWhitespace) ? "\n" : String($0.dropFirst(indentation)) + "\n" }.joined())
            start = end
        }
        return parts.isEmpty ? nil : parts.joined()
    }
}

/// The check of a block of shell commands that the tests cannot run (they build the package or
/// install things): every repository path, test filter and product it names exists.
enum CommandReferences {
    static func check(_ text: String) throws -> [String] {
        var problems: [String] = []
        let manager = FileManager.default
        let entries = Set(try manager.contentsOfDirectory(atPath: Repository.root))
        let manifest = try Repository.read("Package.swift")
        let words = text.split(whereSeparator: { " \n\t()=\"'`".contains($0) }).map(String.init)
        for (index, word) in words.enumerated() {
            let path = word.trimmingCharacters(in: CharacterSet(charactersIn: ",;:"))
            if let first = path.split(separator: "/").first, path.contains("/"), entries.contains(String(first)),
               !path.contains("*"), !path.contains("$"), !path.hasPrefix(".build"),
               !manager.fileExists(atPath: Repository.root + "/" + path) {
                problems.append("names \(path), which is not in the repository")
            }
            guard index + 1 < words.count else { continue }
            let next = words[index + 1]
            // A filter is a regular expression: each of its alternatives names a test target or
            // a suite, or begins the name of one.
            if word == "--filter" {
                for alternative in next.split(separator: "|").map(String.init)
                where !manager.fileExists(atPath: Repository.root + "/Tests/" + alternative)
                    && (try? suiteExists(alternative, prefix: next.contains("|"))) != true {
                    problems.append("--filter \(next): \(alternative) matches no test target or suite")
                }
            }
            if word == "--product", !manifest.contains("name: \"\(next)\"") {
                problems.append("--product \(next) is not a product of Package.swift")
            }
        }
        return problems
    }

    /// Whether a test file declares a type of that name.
    private static func suiteExists(_ name: String, prefix: Bool = false) throws -> Bool {
        let tests = Repository.root + "/Tests"
        guard let walker = FileManager.default.enumerator(atPath: tests) else { return false }
        for case let file as String in walker where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: tests + "/" + file, encoding: .utf8)
            if text.contains("struct \(name) ") || text.contains("struct \(name):") || text.contains("class \(name)")
                || (prefix && text.contains("struct \(name)")) {
                return true
            }
        }
        return false
    }
}
