import Foundation
import Testing
@testable import UndoPluginHost

/// The allow-list's SHA-256 against the FIPS 180-4 examples and `sha256sum`.
@Suite struct SHA256Tests {
    static let vectors: [(String, String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ]

    @Test func theStandardExamples() {
        for (text, digest) in Self.vectors {
            #expect(SHA256.hex(of: Array(text.utf8)) == digest, "\(text.debugDescription)")
        }
        #expect(SHA256.hex(of: Array(repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Pieces of any size give the digest of the whole, across block and padding boundaries.
    @Test func piecesHashLikeTheWhole() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000] {
            let whole = SHA256.hex(of: Array(bytes.prefix(length)))
            for piece in [1, 3, 63, 64, 65, 200] {
                var hash = SHA256()
                var rest = bytes.prefix(length)[...]
                while !rest.isEmpty {
                    hash.update(Array(rest.prefix(piece)))
                    rest = rest.dropFirst(piece)
                }
                #expect(SHA256.hex(hash.finish()) == whole, "length \(length) in pieces of \(piece)")
            }
        }
    }

    /// Files of every length around the block size, and a real plugin, as `sha256sum` sees them.
    @Test func filesHashAsSha256sumSays() throws {
        let folder = Fixtures.temporaryFolder()
        var paths = [Fixtures.textEditor]
        for length in [0, 55, 56, 64, 65, 65536, 65537, 200_000] {
            let path = folder + "/\(length).bin"
            try Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 131) }).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let tool = try Fixtures.run("sha256sum", paths)
        try #require(tool.status == 0, "sha256sum: \(tool.errors)")
        let expected = tool.output.split(separator: "\n").map { String($0.prefix(64)) }
        #expect(try paths.map { try PluginHost.sha256(ofFile: $0) } == expected)
        #expect(throws: PluginLoadError(path: folder + "/none", reason: .cannotOpen("No such file or directory"))) {
            try PluginHost.sha256(ofFile: folder + "/none")
        }
    }
}
