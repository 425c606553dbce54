import Foundation
import UndoTestSupport

/// Where the documentation, the sources and the built products are.
enum Repository {
    static let root = SourceTree.root

    /// The build products folder (undo-host, libundohost.so and the plugins).
    static let products = BuildProducts.folder

    /// Every Markdown file whose code blocks are checked, relative to the root: the top-level
    /// files, the guides in docs/ and the DocC articles.
    static let documents: [String] = {
        let manager = FileManager.default
        var found: [String] = []
        for name in (try? manager.contentsOfDirectory(atPath: root)) ?? [] where name.hasSuffix(".md") {
            found.append(name)
        }
        for name in (try? manager.contentsOfDirectory(atPath: root + "/docs")) ?? [] where name.hasSuffix(".md") {
            found.append("docs/" + name)
        }
        for module in (try? manager.contentsOfDirectory(atPath: root + "/Sources")) ?? [] {
            let sources = "Sources/" + module
            for catalog in (try? manager.contentsOfDirectory(atPath: root + "/" + sources)) ?? [] where catalog.hasSuffix(".docc") {
                for name in (try? manager.contentsOfDirectory(atPath: root + "/" + sources + "/" + catalog)) ?? []
                where name.hasSuffix(".md") {
                    found.append(sources + "/" + catalog + "/" + name)
                }
            }
        }
        return found.sorted()
    }()

    /// Whether these tests run under AddressSanitizer (scripts/sanitizers.sh asan): a program
    /// linking this build's libundohost.so must then carry the sanitizer's runtime too.
    static let isAddressSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    static func read(_ relativePath: String) throws -> String {
        try String(contentsOfFile: root + "/" + relativePath, encoding: .utf8)
    }
}

/// A program's exit status and what it printed.
struct ProgramOutput {
    var status: Int32
    var output: String
    var errors: String
}

enum Program {
    /// Runs a program (a path, or a name found in PATH) in `folder` and waits for it; standard
    /// output and standard error are read at once so a chatty program cannot block.
    static func run(_ program: String, _ arguments: [String], in folder: String? = nil,
                    environment: [String: String] = [:], input: String? = nil) throws -> ProgramOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = standardInput
        try process.run()
        standardInput.fileHandleForWriting.write(Data((input ?? "").utf8))
        try standardInput.fileHandleForWriting.close()
        let errorLock = NSLock()
        nonisolated(unsafe) var errorData = Data()
        let reader = Thread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorLock.withLock { errorData = data }
        }
        reader.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        let errorText = errorLock.withLock { String(decoding: errorData, as: UTF8.self) }
        return ProgramOutput(status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
                             errors: errorText)
    }

    /// A fresh temporary folder (left in place).
    static func temporaryFolder() -> String { TemporaryFolder.kept("undohost-docs") }
}
