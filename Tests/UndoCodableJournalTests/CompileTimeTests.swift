import Foundation
import Testing
import UndoTestSupport

/// A command that is not `Codable` cannot be journaled: the compiler refuses it. Each snippet is
/// type-checked with `swiftc` against the modules this build made; a correct one first, so a
/// refusal is the command's, not the setup's.
@Suite("Only Codable commands compile where the journal takes one")
struct CompileTimeTests {
    static let command = """
        import UndoCore
        import UndoCodableJournal
        struct Edit: PROTOCOLS {
            static var journalName: String { "edit" }
            var text = ""
            func perform(_ changes: inout UndoChanges) throws {}
            func undo(_ changes: inout UndoChanges) throws {}
        }
        func use(_ journal: UndoStackJournal) throws { try journal.perform(Edit()) }
        """

    /// Type-checks `source`; gives swiftc's status and what it printed.
    static func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let folder = try TemporaryFolder("journaled")
        defer { withExtendedLifetime(folder) {} }  // removed once swiftc is done
        let file = folder.url.appendingPathComponent("journaled.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-I", BuildProducts.path("Modules"),
                             "-Xcc", "-fmodule-map-file=" + SourceTree.path("Sources/CSQLite/module.modulemap"),
                             file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test("a Codable command compiles; a plain UndoCommand, or a journaled one that is not Codable, does not")
    func onlyCodableCompiles() throws {
        let good = try Self.typecheck(Self.command.replacingOccurrences(of: "PROTOCOLS", with: "UndoJournaledCommand"))
        #expect(good.status == 0, "\(good.output)")

        let plain = try Self.typecheck(Self.command.replacingOccurrences(of: "PROTOCOLS", with: "UndoCommand"))
        #expect(plain.status != 0)
        #expect(plain.output.contains("requires that 'Edit' conform to 'UndoJournaledCommand'"), "\(plain.output)")

        let notCodable = try Self.typecheck(Self.command
            .replacingOccurrences(of: "PROTOCOLS", with: "UndoJournaledCommand")
            .replacingOccurrences(of: "var text = \"\"", with: "var text: () -> Void = {}"))
        #expect(notCodable.status != 0)
        #expect(notCodable.output.contains("does not conform to protocol 'Decodable'"), "\(notCodable.output)")
    }
}
