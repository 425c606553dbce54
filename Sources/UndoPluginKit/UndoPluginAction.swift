import UndoPluginABI

/// One parameter of a perform or inverse function: `.i64("position")`.
public struct UndoPluginParameter: Sendable, Hashable {
    public var name: String
    public var type: UndoValueType

    /// - Parameters:
    ///   - name: ASCII letters, digits and '_' (shown in signatures and errors).
    ///   - type: the value's C type.
    public init(_ name: String, _ type: UndoValueType) {
        self.name = name
        self.type = type
    }

    public static func i32(_ name: String) -> Self { Self(name, .i32) }
    public static func u32(_ name: String) -> Self { Self(name, .u32) }
    public static func i64(_ name: String) -> Self { Self(name, .i64) }
    public static func u64(_ name: String) -> Self { Self(name, .u64) }
    public static func f64(_ name: String) -> Self { Self(name, .f64) }
    /// Arrives as `UnsafePointer<CChar>?` (read it with `String(undoArgument:)`).
    public static func string(_ name: String) -> Self { Self(name, .string) }
    /// Arrives as two parameters, `UnsafeRawPointer?` and `UInt64` (read them with
    /// `[UInt8](undoArgument:size:)`).
    public static func bytes(_ name: String) -> Self { Self(name, .bytes) }
}

/// A perform or inverse function, stored type-erased as the ABI's `undo_fn`.
///
/// The host calls it with the C parameters the action declares, so it must be a
/// C function whose parameters match them exactly, after the `undo_call` pointer:
///
///     let insert: @convention(c) (UnsafeMutablePointer<undo_call>?, Int64, UnsafePointer<CChar>?) -> Int32 = {
///         call, position, text in UndoCall.run(call) { call in ... }
///     }
///
/// C function types cannot be generic, so the compiler cannot check the function against the
/// declared parameters. The kit checks it when the host loads the plugin, from the function's
/// Swift type: anything else than a C function returning `Int32` whose parameters are the
/// declared ones makes the load fail with a message naming the action (the host refuses that
/// plugin and carries on; the function is never called).
public struct UndoPluginFunction: @unchecked Sendable {
    /// The function, or nil when `problem` says why it cannot be used.
    let raw: undo_fn?
    /// The function's Swift type, as the runtime names it.
    let typeName: String
    /// Why the function cannot be called, found at once; nil when it is a C function.
    let problem: String?
    /// The names of its parameters after the call pointer, when given with the function: the
    /// kit then derives the declared parameters from its type.
    var parameterNames: [String]? = nil

    /// - Parameter function: a `@convention(c)` function returning `Int32`, its first
    ///   parameter the `undo_call` pointer and the others the action's declared parameters.
    public init<Function>(_ function: Function) {
        typeName = String(describing: Function.self)
        // A Swift closure is two words (function and context) and is named without
        // "@convention(c)"; only a C function pointer can be handed to the host.
        guard MemoryLayout<Function>.size == MemoryLayout<undo_fn>.size,
              Self.cParameterTypes(of: typeName) != nil else {
            raw = nil
            problem = "needs a @convention(c) function returning Int32, not \(typeName)"
            return
        }
        raw = unsafeBitCast(function, to: undo_fn.self)
        problem = nil
    }

    /// The Swift names of the C parameters of a C function type returning Int32 (the
    /// `undo_call` pointer first), or nil for any other type.
    static func cParameterTypes(of typeName: String) -> [Substring]? {
        let prefix = "@convention(c) (", suffix = ") -> Int32"
        guard typeName.hasPrefix(prefix), typeName.hasSuffix(suffix),
              typeName.count >= prefix.count + suffix.count else { return nil }
        let list = typeName.dropFirst(prefix.count).dropLast(suffix.count)
        // None of the types a parameter may have contains a comma.
        return list.isEmpty ? [] : list.split(separator: ", ", omittingEmptySubsequences: false)
    }

    /// The problem with calling this function with `parameters` after the call pointer, or nil.
    func mismatch(with parameters: [UndoPluginParameter]) -> String? {
        if let problem { return problem }
        guard let actual = Self.cParameterTypes(of: typeName) else { return "is not a C function" }
        let callPointer = ["Optional<UnsafeMutablePointer<undo_call>>", "UnsafeMutablePointer<undo_call>"]
        var expected: [[String]] = [callPointer]
        for parameter in parameters { expected += parameter.type.cSwiftTypeNames }
        let matches = actual.count == expected.count
            && zip(actual, expected).allSatisfy { name, allowed in allowed.contains(String(name)) }
        guard !matches else { return nil }
        let declared = parameters.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
        return "is \(typeName), which does not take the declared parameters (\(declared)) after the undo_call pointer"
    }
}

extension UndoValueType {
    /// The Swift names of the C parameter (two for bytes) a value of this type arrives as.
    var cSwiftTypeNames: [[String]] {
        switch self {
        case .i32: [["Int32"]]
        case .u32: [["UInt32"]]
        case .i64: [["Int64"]]
        case .u64: [["UInt64"]]
        case .f64: [["Double"]]
        case .string: [["Optional<UnsafePointer<Int8>>", "UnsafePointer<Int8>"]]
        case .bytes: [["Optional<UnsafeRawPointer>", "UnsafeRawPointer"], ["UInt64"]]
        }
    }
}

/// The C type of a merge function; write it with ``UndoCall/merge(_:_:_:_:_:_:)`` as its body.
public typealias UndoMergeFunction = @convention(c) (
    UnsafeMutablePointer<undo_call>?, UnsafePointer<undo_value>?, UnsafePointer<undo_value>?,
    UnsafePointer<undo_value>?, UnsafePointer<undo_value>?
) -> Int32

/// One undoable action type of a plugin, registered by the kit during init.
public struct UndoPluginAction: Sendable {
    /// The local id ("insert"): ASCII letters, digits, '_' and '-', unique in the plugin.
    public var id: String
    /// The brief name shown after "Undo " ("Typing").
    public var name: String
    public var parameters: [UndoPluginParameter]
    public var perform: UndoPluginFunction
    /// The inverse's own parameters, handed back by perform with
    /// `UndoCall.setInverseArgument`; nil when the inverse takes perform's arguments.
    public var inverseParameters: [UndoPluginParameter]?
    public var inverse: UndoPluginFunction
    /// Steps with the same key in the same context coalesce into one step; nil: never.
    public var coalescingKey: String?
    /// Optional: merges a step into the previous one of the same key.
    public var merge: UndoMergeFunction?
    /// The host merges steps of the same key itself by appending their last (string or bytes)
    /// argument, and the inverse's, in place: typing with no merge function (ABI 1.2,
    /// `UNDO_MERGE_BY_APPEND`). Needs a ``coalescingKey`` and no ``merge``.
    public var mergesByAppending: Bool
    /// The step does not make its context dirty (a selection change).
    public var isDiscardable: Bool
    /// The name in other languages, by locale identifier (`["ko": "입력"]`): a host whose titles
    /// are in that language shows it in place of ``name`` (ABI 1.5, `register_action_name`; an
    /// older host shows ``name``).
    public var localizedNames: [String: String] = [:]
    /// What made the parameters underivable (``init(id:name:perform:inverse:)``): reported
    /// when the host loads the plugin.
    var declarationProblems: [String] = []

    /// An action with its parameters declared beside its functions. Prefer
    /// ``init(id:name:perform:inverse:)``, which takes the parameters' types from the functions.
    /// - Parameters:
    ///   - id: the local id, unique in the plugin.
    ///   - name: the brief name shown after "Undo ".
    ///   - parameters: perform's parameters.
    ///   - perform: the perform function, taking `parameters`.
    ///   - inverseParameters: the inverse's own parameters; nil: perform's.
    ///   - inverse: the inverse function.
    ///   - coalescingKey: see ``coalescingKey``.
    ///   - merge: see ``merge``.
    ///   - isDiscardable: see ``isDiscardable``.
    ///   - mergesByAppending: see ``mergesByAppending``.
    ///   - localizedNames: see ``localizedNames``.
    @available(*, deprecated, message: "use init(id:name:perform:inverse:) with UndoPluginFunction(f, parameterNames: ...), and the modifiers .coalescing, .coalescingByAppending, .discardable, .localized")
    public init(id: String, name: String, parameters: [UndoPluginParameter], perform: UndoPluginFunction,
                inverseParameters: [UndoPluginParameter]? = nil, inverse: UndoPluginFunction,
                coalescingKey: String? = nil, merge: UndoMergeFunction? = nil, isDiscardable: Bool = false,
                mergesByAppending: Bool = false, localizedNames: [String: String] = [:]) {
        self.init(declaring: id, name: name, parameters: parameters, perform: perform,
                  inverseParameters: inverseParameters, inverse: inverse)
        self.coalescingKey = coalescingKey
        self.merge = merge
        self.isDiscardable = isDiscardable
        self.mergesByAppending = mergesByAppending
        self.localizedNames = localizedNames
    }

    init(declaring id: String, name: String, parameters: [UndoPluginParameter], perform: UndoPluginFunction,
         inverseParameters: [UndoPluginParameter]?, inverse: UndoPluginFunction) {
        self.id = id
        self.name = name
        self.parameters = parameters
        self.perform = perform
        self.inverseParameters = inverseParameters
        self.inverse = inverse
        coalescingKey = nil
        merge = nil
        isDiscardable = false
        mergesByAppending = false
    }
}
