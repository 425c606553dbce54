import UndoPluginHost

/// The statebox test plugin (Fixtures/statebox.c) built with -DSTATEBOX_V2 (save_document_v2
/// and load_document_v2, ABI 1.8), and the knobs it exports, for the suites that test saving
/// and loading a document's state in pieces.
protocol StateboxInPieces {}

extension StateboxInPieces {
    /// A host with the plugin loaded. - Returns: the host and the plugin's path.
    func makeBox() throws -> (PluginHost, String) {
        let (host, _) = makeHost()
        let path = try Fixtures.buildPlugin("statebox.c", defines: ["STATEBOX_V2"])
        try host.load(file: path)
        return (host, path)
    }

    /// Sets the size of the pieces the plugin writes (or asks for) in one call.
    func setPiece(_ size: UInt64, in path: String) throws {
        typealias SetPiece = @convention(c) (UInt64) -> Void
        try Fixtures.function("statebox_set_piece", in: path, as: SetPiece.self)(size)
    }
}
