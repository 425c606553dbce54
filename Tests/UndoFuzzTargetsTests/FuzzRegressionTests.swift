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

    /// Every C API input sees the same codes and texts each time it runs in one process: at
    /// once again, and after all the others ran in between. What a process keeps from one input
    /// to the next (plugin images and their ELF checks, the bundled plugins' folder, handle
    /// generations) must change no result, or a crash the fuzzer saved would not replay.
    @Test func cAPIInputSeesTheSameEachTimeInAProcess() throws {
        var inputs = (Self.seeds + Self.regressions).filter { $0.target == .cAPI }.map { input in
            [UInt8](FileManager.default.contents(atPath: input.path) ?? Data())
        }
        var state: UInt64 = 0xC0FFEE
        for run in 0..<40 {
            var bytes = [UInt8](repeating: 0, count: 8 + run * 13 % 700)
            for index in bytes.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
            }
            inputs.append(bytes)
        }
        var first: [CAPITranscript] = []
        for bytes in inputs {
            let once = try bytes.withUnsafeBytes { try CAPIFuzzing.transcript(of: $0) }
            let again = try bytes.withUnsafeBytes { try CAPIFuzzing.transcript(of: $0) }
            if !once.dependsOnClock { #expect(once == again, "\(bytes.count) bytes: \(once), then \(again)") }
            first.append(once)
        }
        var compared = 0
        for (bytes, once) in zip(inputs, first) {
            let later = try bytes.withUnsafeBytes { try CAPIFuzzing.transcript(of: $0) }
            guard !once.dependsOnClock else { continue }
            #expect(once == later, "\(bytes.count) bytes: \(once), after the others \(later)")
            compared += 1
        }
        // Most inputs make no history with a 1 ms window: the comparison is not vacuous.
        #expect(compared >= 10, "only \(compared) of \(inputs.count) inputs were compared")
        #expect(first.contains { $0.entries > 100 })
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
