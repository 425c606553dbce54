import Foundation
import Testing

/// The promises of undo_host.h checked from C (Fixtures/api_contract.c): handles, buffers,
/// struct sizes, error codes and messages, groups, save point, contexts, observers, threads.
@Suite struct CAPIContractTests {
    @Test func everyPromiseOfTheHeaderHoldsFromC() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/api_contract.c"], extra: ["-pthread"])
        let checks = try CProgram.runChecks(program, [CProgram.products]).checks
        #expect(checks > 100)
    }

    @Test func theHeaderAndTheLibraryAgree() throws {
        let program = try CProgram.build([CProgram.root + "/Tests/UndoHostCTests/Fixtures/header_agreement.c"], extra: ["-ldl"])
        let checks = try CProgram.runChecks(program, []).checks
        #expect(checks >= 25)
    }

    /// Every symbol the library exports (global or weak, defined) is an undo_* function: no
    /// Swift-mangled names, no undo__ internals.
    @Test func theLibraryExportsNothingButTheAPI() throws {
        let symbols = try CProgram.run("readelf", ["--dyn-syms", "-W", CProgram.library])
        try #require(symbols.status == 0, "\(symbols.errors)")
        let exported = symbols.output.split(separator: "\n").compactMap { line -> String? in
            // "Num: Value Size Type Bind Vis Ndx Name"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[4] == "GLOBAL" || fields[4] == "WEAK", fields[6] != "UND" else { return nil }
            return String(fields[7])
        }
        #expect(exported.count > 30)
        #expect(exported.filter { !$0.hasPrefix("undo_") || $0.hasPrefix("undo__") } == [])
    }

    @Test func theLibraryExportsExactlyTheHeadersFunctions() throws {
        let header = try String(contentsOfFile: CProgram.include + "/undohost/undo_host.h", encoding: .utf8)
        // Declarations start a line with their return type; static inline helpers are not exported.
        let declaration = /^(?:int32_t|uint32_t|const char \*)\s*\(?(undo_[a-z0-9_]+)\)?\(/
        let declared = Set(header.split(separator: "\n").compactMap { line in
            (try? declaration.firstMatch(in: line)).map { String($0.1) }
        })
        let symbols = try CProgram.run("nm", ["-D", "--defined-only", CProgram.library])
        try #require(symbols.status == 0)
        let exported = Set(symbols.output.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[1] == "T", fields[2].hasPrefix("undo_") else { return nil }
            return String(fields[2])
        })
        #expect(declared.count > 30)
        #expect(exported == declared)
    }
}
