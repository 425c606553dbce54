import Foundation
import Testing
import UndoFuzzTargets

/// One saved fuzz input: a crash a fuzzer found (Tests/FuzzRegressions/<target>/) or a seed of
/// the corpus (Tests/FuzzSeeds/<target>/).
struct SavedFuzzInput: Sendable, CustomTestStringConvertible {
    var target: FuzzTarget
    var path: String
    var testDescription: String { "\(target.rawValue): \((path as NSString).lastPathComponent)" }

    /// The Tests folder (two levels above this file).
    static let testsFolder: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func all(in folder: String) -> [SavedFuzzInput] {
        FuzzTarget.allCases.flatMap { target in
            FuzzFiles.inputs(at: "\(testsFolder)/\(folder)/\(target.rawValue)").map { SavedFuzzInput(target: target, path: $0) }
        }
    }
}

/// Replays every saved input through the same entry functions the fuzzers call, so a crash
/// once found stays fixed; and runs each target on a few hundred seeded random inputs, so the
/// normal test run exercises the fuzz targets themselves.
@Suite struct FuzzRegressionTests {
    static let regressions = SavedFuzzInput.all(in: "FuzzRegressions")
    static let seeds = SavedFuzzInput.all(in: "FuzzSeeds")

    @Test(arguments: regressions)
    func crashFoundByFuzzingStaysFixed(_ input: SavedFuzzInput) throws {
        try FuzzFiles.withContents(of: input.path) { bytes in try input.target.run(bytes) }
    }

    @Test(arguments: seeds)
    func seedInputPasses(_ input: SavedFuzzInput) throws {
        try FuzzFiles.withContents(of: input.path) { bytes in try input.target.run(bytes) }
    }

    @Test func everyTargetHasSeeds() {
        for target in FuzzTarget.allCases {
            #expect(Self.seeds.contains { $0.target == target }, "no seeds for \(target.rawValue)")
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seededRandomInputsPass(_ target: FuzzTarget) throws {
        var state: UInt64 = 0x5EED
        for run in 0..<(target == .cAPI || target == .journal ? 60 : 400) {
            var bytes = [UInt8](repeating: 0, count: 1 + run % 512)
            for index in bytes.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
            }
            do {
                try bytes.withUnsafeBytes { try target.run($0) }
            } catch {
                Issue.record("random input \(run) (\(bytes.count) bytes): \(error)")
            }
        }
    }
}
