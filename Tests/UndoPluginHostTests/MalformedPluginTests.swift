import Foundation
import Testing
import UndoPluginABI
@testable import UndoPluginHost

/// Malformed plugins beyond LoaderTests' set: descriptor strings, flags and functions, every
/// malformation of an action type, and files that are not plugins in more ways (empty, 32-bit,
/// big-endian, a folder, a FIFO, a device, a link loop). Each is refused with its reason, naming
/// the file, and the host works on as if it had not been tried.
@Suite struct MalformedPluginTests {
    typealias Check = @Sendable (PluginLoadError.Reason) -> Bool

    static func refused(_ action: String, _ code: Int32, _ message: String) -> Check {
        { $0 == .actionRefused(action: action, code: code, message: message) }
    }

    /// Each variant of malformed.c and what the host must say.
    static let variants: [(defines: [String], check: Check)] = [
        (["DESC_VERSION_NULL"], { $0 == .invalidDescriptor("version is NULL") }),
        (["DESC_DEINIT_NULL"], { $0 == .invalidDescriptor("deinit is NULL") }),
        (["DESC_FLAGS=1"], { $0 == .invalidDescriptor("flags has unknown bits (1)") }),
        (["DESC_NAME_INVALID_UTF8"], { $0 == .invalidDescriptor("name is not valid UTF-8") }),
        (["DESC_NAME_TOO_LONG"], { $0 == .invalidDescriptor("name is longer than 256 bytes") }),
        (["DESC_ID_TOO_LONG"], { $0 == .invalidDescriptor("id is longer than 128 bytes") }),
        (["ACT_NULL"], refused("?", UNDO_EINVAL, "the action type is NULL")),
        (["ACT_SIZE=8"], refused("?", UNDO_EINVAL, "struct_size 8 is smaller than the minimum \(ActionTypeReader.minimumSize)")),
        (["ACT_SIZE=0x7fffffff"], refused("?", UNDO_EINVAL, "struct_size 2147483647 is absurdly large")),
        (["ACT_ID_NULL"], refused("?", UNDO_EINVAL, "the action id is NULL")),
        (["ACT_ID_BAD"], refused("go away", UNDO_EINVAL, #"id "go away" may only have letters, digits, '_' and '-'"#)),
        (["ACT_NAME_NULL"], refused("go", UNDO_EINVAL, "name is NULL")),
        (["ACT_NAME_TOO_LONG"], refused("go", UNDO_ELIMIT, "name is longer than 256 bytes")),
        (["ACT_FLAGS=0x80"], refused("go", UNDO_EINVAL, "flags has unknown bits (128)")),
        (["ACT_PARAMS_NULL"], refused("go", UNDO_EINVAL, "params is NULL but its count is 2")),
        (["ACT_PARAM_COUNT=0xffffffff"], refused("go", UNDO_ELIMIT, "4294967295 params is more than the limit of 16")),
        (["ACT_PARAM_TYPE=0"], refused("go", UNDO_ETYPE, "params[1] has unknown type 0")),
        (["ACT_PARAM_TYPE=8"], refused("go", UNDO_ETYPE, "params[1] has unknown type 8")),
        (["ACT_PARAM_NAME_NULL"], refused("go", UNDO_EINVAL, "the name of params[1] is NULL")),
        (["ACT_PARAM_NAME_BAD"], refused("go", UNDO_EINVAL, #"parameter name "not-a-name" may only have letters, digits and '_'"#)),
        (["ACT_INVERSE_TYPE=42"], refused("go", UNDO_ETYPE, "inverse_params[1] has unknown type 42")),
        (["ACT_INVERSE_COUNT=17"], refused("go", UNDO_ELIMIT, "17 inverse_params is more than the limit of 16")),
        (["ACT_INVERSE_COUNT_WITHOUT_PARAMS"], refused("go", UNDO_EINVAL, "inverse_params is NULL but inverse_param_count is 2")),
        (["ACT_INVERSE_NULL"], refused("go", UNDO_EINVAL, "inverse is NULL")),
    ]

    /// After a refusal the host still loads, performs and undoes.
    func expectUnharmed(_ host: PluginHost) throws {
        #expect(host.plugins.map(\.id) == ["org.undohost.text"])
        try host.perform("text.insert", [.i64(0), .string("fine")], in: .global)
        #expect(try host.describe(.global, plugin: "org.undohost.text") == "fine")
        try host.undo()
        #expect(try host.describe(.global, plugin: "org.undohost.text") == "")
    }

    func loadError(_ host: PluginHost, _ path: String) -> PluginLoadError? {
        do {
            try host.load(file: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func theWellFormedVariantLoads() throws {
        let (host, _) = makeHost()
        let info = try host.load(file: try Fixtures.buildPlugin("malformed.c"))
        #expect(info.actionTypes.map(\.description) == ["malformed.go(x: i32, y: i32) \"Go\""])
    }

    @Test(arguments: 0..<variants.count)
    func aMalformedPluginIsRefusedWithItsReason(_ index: Int) throws {
        let variant = Self.variants[index]
        let (host, _) = makeHost()
        try host.load(file: Fixtures.textEditor)
        let path = try Fixtures.buildPlugin("malformed.c", defines: variant.defines)
        let error = try #require(loadError(host, path), "\(variant.defines) was loaded")
        #expect(variant.check(error.reason), "\(variant.defines): \(error)")
        #expect(error.path == path)
        #expect(error.description.hasPrefix(path + ": "))
        try expectUnharmed(host)
    }

    @Test func moreFilesThatAreNotPluginsAreRefused() throws {
        let folder = Fixtures.temporaryFolder()
        let real = try Data(contentsOf: URL(fileURLWithPath: Fixtures.textEditor))
        func write(_ name: String, _ data: Data) throws -> String {
            try data.write(to: URL(fileURLWithPath: folder + "/" + name))
            return folder + "/" + name
        }
        var class32 = real
        class32[4] = 1 // ELFCLASS32
        var bigEndian = real
        bigEndian[5] = 2 // ELFDATA2MSB
        var noSegments = real
        noSegments[32..<40] = Data(repeating: 0xFF, count: 8) // e_phoff far past the end
        let fifo = folder + "/fifo.so"
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createDirectory(atPath: folder + "/folder.so", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop-a.so", withDestinationPath: folder + "/loop-b.so")
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop-b.so", withDestinationPath: folder + "/loop-a.so")

        let expected: [(String, PluginLoadError.Reason)] = [
            (try write("empty.so", Data()), .invalidFile("not an ELF file (0 bytes)")),
            (try write("class32.so", class32), .invalidFile("not a 64-bit ELF file")),
            (try write("big.so", bigEndian), .invalidFile("not a little-endian ELF file")),
            (try write("headers.so", noSegments), .invalidFile("truncated or damaged: program headers outside the file")),
            (fifo, .invalidFile("not a regular file (a FIFO)")),  // refused before anything opens it (which would wait)
            (folder + "/folder.so", .invalidFile("not a regular file (a folder)")),
            ("/dev/zero", .invalidFile("not a regular file (a device)")),
            (folder + "/loop-a.so", .cannotOpen("Too many levels of symbolic links")),
        ]
        let (host, _) = makeHost()
        try host.load(file: Fixtures.textEditor)
        for (path, reason) in expected {
            let error = try #require(loadError(host, path), "\(path) was loaded")
            #expect(error.reason == reason, "\(path): \(error)")
            #expect(error.path == path)
        }
        // A folder of them: each reported, none loaded, the host unharmed.
        let report = host.load(folder: folder)
        #expect(report.loaded.isEmpty)
        #expect(report.failures.count == 7, "\(report.failures)") // the folder.so folder is skipped
        try expectUnharmed(host)
    }
}
