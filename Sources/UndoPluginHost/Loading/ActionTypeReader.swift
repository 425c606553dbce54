import CUndoHostSupport
import UndoPluginABI

/// A registration the host refused: the code returned to the plugin and why.
struct RegistrationError: Error {
    var action: String?
    var code: Int32
    var message: String
}

/// Reads and checks an `undo_action_type` given to register_action, and prepares its calls.
enum ActionTypeReader {
    static let minimumSize = UInt32(MemoryLayout<undo_action_type>.offset(of: \.reserved)!
        + 4 * MemoryLayout<UnsafeRawPointer>.size)
    static let knownFlags = UInt32(UNDO_ACTION_DISCARDABLE) | UInt32(UNDO_ACTION_VALUES)
    /// The size of a 1.2 action type: merge_mode is read only from descriptors this large.
    static let sizeWithMergeMode = UInt32(MemoryLayout<undo_action_type>.offset(of: \.merge_mode)!
        + MemoryLayout<UInt32>.size)

    /// - Parameter reused: set when the action type reads exactly as one read and checked
    ///   before in this process (``CheckedActionType``), whose checked result it then shares.
    static func read(_ pointer: UnsafePointer<undo_action_type>?, plugin: LoadedPlugin,
                     existing: [String: Int], reused: inout Bool) throws(RegistrationError) -> ActionType {
        func refuse(_ code: Int32, _ message: String, _ action: String? = nil) -> RegistrationError {
            RegistrationError(action: action, code: code, message: message)
        }
        guard let pointer else { throw refuse(Int32(UNDO_EINVAL), "the action type is NULL") }
        let size = UnsafeRawPointer(pointer).load(as: UInt32.self)
        guard size >= minimumSize else {
            throw refuse(Int32(UNDO_EINVAL), "struct_size \(size) is smaller than the minimum \(minimumSize)")
        }
        guard size <= UInt32(UNDO_MAX_STRUCT_SIZE) else {
            throw refuse(Int32(UNDO_EINVAL), "struct_size \(size) is absurdly large")
        }
        var type = undo_action_type()
        withUnsafeMutableBytes(of: &type) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: min(Int(size), target.count)))
        }
        if size < sizeWithMergeMode { type.merge_mode = UInt32(UNDO_MERGE_BY_FUNCTION) }  // a 1.0 / 1.1 descriptor
        let route = plugin.callRoute
        // An action type that reads exactly as one checked before in this process (another
        // host loading the same plugin) passed every check but the duplicate one, which
        // depends on this host's registrations (CheckedActionType).
        let key = CheckedActionTypes.key(type.id, limit: Int(UNDO_MAX_ID_LENGTH))
        if let key, let checked = CheckedActionTypes.find(type, structSize: size, route: route, key: key) {
            guard existing[checked.id] == nil else {
                throw refuse(Int32(UNDO_EEXIST), "action id \(checked.id) is already registered", checked.id)
            }
            reused = true
            return makeActionType(checked, plugin: plugin)
        }

        func string(_ pointer: UnsafePointer<CChar>?, _ what: String, limit: Int, action: String?) throws(RegistrationError) -> String {
            do throws(CStrings.Failure) {
                return try CStrings.read(pointer, limit: limit)
            } catch {
                let code: Int32 = switch error {
                case .tooLong: Int32(UNDO_ELIMIT)
                case .invalidUTF8: Int32(UNDO_EUTF8)
                default: Int32(UNDO_EINVAL)
                }
                throw refuse(code, CStrings.describe(error, what), action)
            }
        }

        let id = try string(type.id, "the action id", limit: Int(UNDO_MAX_ID_LENGTH), action: nil)
        guard CStrings.isLocalID(id) else {
            throw refuse(Int32(UNDO_EINVAL), "id \(ActionValue.quoted(id)) may only have letters, digits, '_' and '-'", id)
        }
        guard existing[id] == nil else {
            throw refuse(Int32(UNDO_EEXIST), "action id \(id) is already registered", id)
        }
        let name = try string(type.name, "name", limit: Int(UNDO_MAX_NAME_LENGTH), action: id)
        guard type.flags & ~knownFlags == 0 else {
            throw refuse(Int32(UNDO_EINVAL), "flags has unknown bits (\(type.flags))", id)
        }
        let signature = try parameters(type.params, count: type.param_count, what: "params", action: id)
        var inverseSignature: ActionSignature?
        if type.inverse_params != nil {
            inverseSignature = try parameters(type.inverse_params, count: type.inverse_param_count,
                                              what: "inverse_params", action: id)
        } else if type.inverse_param_count != 0 {
            throw refuse(Int32(UNDO_EINVAL), "inverse_params is NULL but inverse_param_count is \(type.inverse_param_count)", id)
        }
        guard let perform = type.perform else { throw refuse(Int32(UNDO_EINVAL), "perform is NULL", id) }
        guard let inverse = type.inverse else { throw refuse(Int32(UNDO_EINVAL), "inverse is NULL", id) }
        var coalescingKey: String?
        if type.coalescing_key != nil {
            coalescingKey = try string(type.coalescing_key, "coalescing_key", limit: Int(UNDO_MAX_NAME_LENGTH), action: id)
        }
        let merge = type.merge.flatMap { undo__merge_fn_of($0) }
        let appends: Bool
        switch type.merge_mode {
        case UInt32(UNDO_MERGE_BY_FUNCTION):
            appends = false
        case UInt32(UNDO_MERGE_BY_APPEND):
            func appendable(_ signature: ActionSignature?) -> Bool {
                guard let last = signature?.parameters.last else { return false }
                return last.type == .string || last.type == .bytes
            }
            guard coalescingKey != nil else {
                throw refuse(Int32(UNDO_EINVAL), "merge_mode UNDO_MERGE_BY_APPEND needs a coalescing_key", id)
            }
            guard merge == nil else {
                throw refuse(Int32(UNDO_EINVAL), "merge_mode UNDO_MERGE_BY_APPEND and a merge function exclude each other", id)
            }
            guard appendable(signature), inverseSignature == nil || appendable(inverseSignature) else {
                throw refuse(Int32(UNDO_EINVAL),
                             "merge_mode UNDO_MERGE_BY_APPEND needs a last parameter (and last inverse parameter) of type string or bytes", id)
            }
            appends = true
        default:
            throw refuse(Int32(UNDO_EINVAL), "merge_mode \(type.merge_mode) is unknown", id)
        }

        let performFunction: FFIFunction
        let inverseFunction: FFIFunction
        // ABI 1.7: both take the values calling convention (undo_values_fn).
        let takesValues = type.flags & UInt32(UNDO_ACTION_VALUES) != 0
        do {
            let types = signature.types
            performFunction = try FFIFunction(function: perform, parameters: types, route: route,
                                              takesValues: takesValues)
            inverseFunction = try FFIFunction(function: inverse, parameters: inverseSignature?.types ?? types,
                                              route: route, takesValues: takesValues)
        } catch {
            throw refuse(Int32(UNDO_EINVAL), "libffi cannot prepare the call (status \(error.status))", id)
        }
        let checked = CheckedActionType(type: type, structSize: size, route: route, id: id, name: name, signature: signature,
                                        inverseSignature: inverseSignature, coalescingKey: coalescingKey, appendsOnMerge: appends,
                                        performFunction: performFunction, inverseFunction: inverseFunction, mergeFunction: merge)
        if let key { CheckedActionTypes.keep(checked, key: key) }
        return makeActionType(checked, plugin: plugin)
    }

    private static func makeActionType(_ checked: CheckedActionType, plugin: LoadedPlugin) -> ActionType {
        ActionType(plugin: plugin, localID: checked.id, name: checked.name, signature: checked.signature,
                   inverseSignature: checked.inverseSignature, coalescingKey: checked.coalescingKey,
                   isDiscardable: checked.flags & UInt32(UNDO_ACTION_DISCARDABLE) != 0, appendsOnMerge: checked.appendsOnMerge,
                   performFunction: checked.performFunction, inverseFunction: checked.inverseFunction,
                   mergeFunction: checked.mergeFunction)
    }

    private static func parameters(_ pointer: UnsafePointer<undo_param>?, count: UInt32, what: String,
                                   action: String) throws(RegistrationError) -> ActionSignature {
        guard count <= UInt32(UNDO_MAX_PARAMS) else {
            throw RegistrationError(action: action, code: Int32(UNDO_ELIMIT),
                                    message: "\(count) \(what) is more than the limit of \(UNDO_MAX_PARAMS)")
        }
        guard count > 0 else { return ActionSignature([]) }
        guard let pointer else {
            throw RegistrationError(action: action, code: Int32(UNDO_EINVAL), message: "\(what) is NULL but its count is \(count)")
        }
        var result: [ActionParameter] = []
        result.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let parameter = pointer[index]
            guard let type = ActionValueType(rawValue: parameter.type) else {
                throw RegistrationError(action: action, code: Int32(UNDO_ETYPE),
                                        message: "\(what)[\(index)] has unknown type \(parameter.type)")
            }
            let name: String
            do throws(CStrings.Failure) {
                name = try CStrings.read(parameter.name, limit: Int(UNDO_MAX_NAME_LENGTH))
            } catch {
                throw RegistrationError(action: action, code: Int32(UNDO_EINVAL),
                                        message: CStrings.describe(error, "the name of \(what)[\(index)]"))
            }
            guard CStrings.isLocalID(name, allowDash: false) else {
                throw RegistrationError(action: action, code: Int32(UNDO_EINVAL),
                                        message: "parameter name \(ActionValue.quoted(name)) may only have letters, digits and '_'")
            }
            result.append(ActionParameter(name, type))
        }
        return ActionSignature(result)
    }
}
