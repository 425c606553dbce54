#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CUndoHostSupport
import UndoCore
import UndoPluginABI

/// What reading one `undo_action_type` produced, kept for the process: a plugin registers the
/// same action types in every host that loads it (a C host making many histories, each loading
/// the same plugins), and an action type whose every field and string reads the same again
/// gives the same checked result, so it is not read and checked a second time.
///
/// The match is by contents, not by address or file: the struct's size, flags, counts, merge
/// mode and functions compared as values, and every string (id, name, coalescing key, each
/// parameter's name) compared byte for byte with the one that passed the checks, read no further
/// than its NUL. A plugin that builds its action types afresh, or changes a string in place
/// between two registrations, is read again wherever anything differs. The functions are
/// addresses in images that stay mapped for the life of the process (``DynamicLibrary``: never
/// closed), and what is kept of them, the prepared calls (``FFIFunction``), depends on nothing
/// but the address, the parameter types and the call route, which are all compared.
///
/// Whatever depends on the host (the plugin the action type belongs to, its names in other
/// languages, the check that its id is not registered twice) is made or done per registration,
/// as before.
final class CheckedActionType: @unchecked Sendable {
    // What was read (compared on reuse).
    let structSize: UInt32
    let flags: UInt32
    let idBytes: [CChar]
    let nameBytes: [CChar]
    let coalescingKeyBytes: [CChar]?
    let parameters: [CheckedParameter]
    let inverseParameters: [CheckedParameter]?
    let inverseParameterCount: UInt32
    let perform: undo_fn
    let inverse: undo_fn
    let merge: undo_fn?
    let mergeMode: UInt32
    let route: PluginCallRoute

    // What the checks made of it.
    let id: String
    let name: String
    let signature: ActionSignature
    let inverseSignature: ActionSignature?
    let coalescingKey: String?
    let appendsOnMerge: Bool
    let performFunction: FFIFunction
    let inverseFunction: FFIFunction
    let mergeFunction: ActionType.MergeFunction?

    struct CheckedParameter {
        let type: UInt32
        let nameBytes: [CChar]
    }

    /// `type` is the action type as the reader copied it (merge_mode already defaulted for a
    /// 1.0 or 1.1 struct), and the rest what its checks made of it.
    init(type: undo_action_type, structSize: UInt32, route: PluginCallRoute, id: String, name: String,
         signature: ActionSignature, inverseSignature: ActionSignature?, coalescingKey: String?, appendsOnMerge: Bool,
         performFunction: FFIFunction, inverseFunction: FFIFunction, mergeFunction: ActionType.MergeFunction?) {
        func bytes(_ text: String) -> [CChar] { text.utf8CString.map { $0 } }
        func parameters(_ signature: ActionSignature) -> [CheckedParameter] {
            signature.parameters.map { CheckedParameter(type: $0.type.rawValue, nameBytes: bytes($0.name)) }
        }
        self.structSize = structSize
        self.flags = type.flags
        self.idBytes = bytes(id)
        self.nameBytes = bytes(name)
        self.coalescingKeyBytes = coalescingKey.map(bytes)
        self.parameters = parameters(signature)
        self.inverseParameters = inverseSignature.map(parameters)
        self.inverseParameterCount = type.inverse_param_count
        self.perform = type.perform!
        self.inverse = type.inverse!
        self.merge = type.merge
        self.mergeMode = type.merge_mode
        self.route = route
        self.id = id
        self.name = name
        self.signature = signature
        self.inverseSignature = inverseSignature
        self.coalescingKey = coalescingKey
        self.appendsOnMerge = appendsOnMerge
        self.performFunction = performFunction
        self.inverseFunction = inverseFunction
        self.mergeFunction = mergeFunction
    }

    /// Whether `type` (copied from a struct of `structSize` bytes, merge_mode defaulted) reads
    /// exactly as the one this was made from.
    /// - Complexity: O(the bytes of its strings), each read up to its NUL or the first difference.
    func matches(_ type: undo_action_type, structSize: UInt32, route: PluginCallRoute) -> Bool {
        guard structSize == self.structSize, route == self.route, type.flags == flags,
              type.merge_mode == mergeMode, type.param_count == UInt32(parameters.count),
              type.inverse_param_count == inverseParameterCount,
              (type.inverse_params == nil) == (inverseParameters == nil),
              (type.coalescing_key == nil) == (coalescingKeyBytes == nil),
              Self.same(type.perform, perform), Self.same(type.inverse, inverse), Self.same(type.merge, merge),
              Self.same(type.id, idBytes), Self.same(type.name, nameBytes)
        else { return false }
        if let coalescingKeyBytes, !Self.same(type.coalescing_key, coalescingKeyBytes) { return false }
        if !Self.same(type.params, parameters) { return false }
        if let inverseParameters, !Self.same(type.inverse_params, inverseParameters) { return false }
        return true
    }

    private static func same(_ function: undo_fn?, _ kept: undo_fn?) -> Bool {
        switch (function, kept) {
        case (nil, nil): true
        case let (function?, kept?): undo__address_of(function) == undo__address_of(kept)
        default: false
        }
    }

    /// strcmp reads each string up to its NUL or the first byte that differs: never past the
    /// end of the plugin's string. `kept` has no NUL before its end (it passed the checks).
    private static func same(_ string: UnsafePointer<CChar>?, _ kept: [CChar]) -> Bool {
        guard let string else { return false }
        return kept.withUnsafeBufferPointer { strcmp(string, $0.baseAddress!) == 0 }
    }

    private static func same(_ list: UnsafePointer<undo_param>?, _ kept: [CheckedParameter]) -> Bool {
        guard !kept.isEmpty else { return true }  // a count of 0: the pointer is not read
        guard let list else { return false }
        for index in kept.indices {
            let parameter = list[index]
            guard parameter.type == kept[index].type, same(parameter.name, kept[index].nameBytes) else { return false }
        }
        return true
    }
}

/// The checked action types of this process, found by a hash of their id's bytes.
enum CheckedActionTypes {
    /// Per hash, the few most recent action types with that id (several plugins may use one
    /// local id): bounded, so a plugin that makes up new action types endlessly keeps no more
    /// than `maximumKeys * perKey` of them.
    static let perKey = 4
    static let maximumKeys = 4096
    private static let kept = Locked([UInt64: [CheckedActionType]]())

    /// The hash of a C string's first `limit + 1` bytes at most (FNV-1a), or `nil` for NULL.
    static func key(_ id: UnsafePointer<CChar>?, limit: Int) -> UInt64? {
        guard let id else { return nil }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        let length = strnlen(id, limit + 1)
        for index in 0..<length { hash = (hash ^ UInt64(UInt8(bitPattern: id[index]))) &* 0x100_0000_01B3 }
        return hash
    }

    static func find(_ type: undo_action_type, structSize: UInt32, route: PluginCallRoute, key: UInt64) -> CheckedActionType? {
        kept.withLock { kept in kept[key]?.first { $0.matches(type, structSize: structSize, route: route) } }
    }

    static func keep(_ checked: CheckedActionType, key: UInt64) {
        kept.withLock { kept in
            if kept[key] == nil && kept.count >= maximumKeys { kept.removeAll() }
            var list = kept[key, default: []]
            if list.count >= perKey { list.removeFirst() }
            list.append(checked)
            kept[key] = list
        }
    }
}
