import UndoPluginABI

/// A plugin's descriptor, copied and checked before any other plugin code runs.
struct PluginDescriptor {
    var raw: undo_plugin_descriptor
    var id: String
    var name: String
    var version: String

    /// The 1.0 size: the fixed minimum, never today's `MemoryLayout.size`.
    static let minimumSize = UInt32(MemoryLayout<undo_plugin_descriptor>.offset(of: \.reserved)!
        + 4 * MemoryLayout<UnsafeRawPointer>.size)
    static let maximumSize = UInt32(UNDO_MAX_STRUCT_SIZE)

    /// Reads the descriptor at `pointer`: the version first (from the first 12 bytes), then
    /// the size, then a copy of min(struct_size, our size) bytes, zero-filled, then the fields.
    init(reading pointer: UnsafePointer<undo_plugin_descriptor>) throws(PluginLoadError.Reason) {
        let base = UnsafeRawPointer(pointer)
        let size = base.load(as: UInt32.self)
        // struct_size, abi_major and abi_minor are the first three fields of every version.
        guard size >= 12 else { throw .descriptorTooSmall(size: size, minimum: Self.minimumSize) }
        let major = base.load(fromByteOffset: 4, as: UInt32.self)
        let minor = base.load(fromByteOffset: 8, as: UInt32.self)
        guard major == UInt32(UNDO_ABI_VERSION_MAJOR), minor <= UInt32(UNDO_ABI_VERSION_MINOR) else {
            throw .incompatibleVersion(major: major, minor: minor)
        }
        guard size >= Self.minimumSize else { throw .descriptorTooSmall(size: size, minimum: Self.minimumSize) }
        guard size <= Self.maximumSize else { throw .descriptorTooLarge(size: size, maximum: Self.maximumSize) }

        var copy = undo_plugin_descriptor()
        withUnsafeMutableBytes(of: &copy) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: base, count: min(Int(size), target.count)))
        }
        raw = copy

        func string(_ pointer: UnsafePointer<CChar>?, _ what: String, limit: Int) throws(PluginLoadError.Reason) -> String {
            do throws(CStrings.Failure) {
                return try CStrings.read(pointer, limit: limit)
            } catch {
                throw .invalidDescriptor(CStrings.describe(error, what))
            }
        }
        id = try string(copy.id, "id", limit: Int(UNDO_MAX_ID_LENGTH))
        guard CStrings.isPluginID(id) else {
            throw .invalidDescriptor("id \(ActionValue.quoted(id)) is not a reverse-DNS id (like org.example.name)")
        }
        name = try string(copy.name, "name", limit: Int(UNDO_MAX_NAME_LENGTH))
        version = try string(copy.version, "version", limit: Int(UNDO_MAX_NAME_LENGTH))
        guard copy.flags == 0 else { throw .invalidDescriptor("flags has unknown bits (\(copy.flags))") }
        guard copy.`init` != nil else { throw .invalidDescriptor("init is NULL") }
        guard copy.deinit != nil else { throw .invalidDescriptor("deinit is NULL") }
    }
}
