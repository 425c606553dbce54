import UndoPluginABI

/// One parameter of a perform or inverse function: `.i64("position")`.
public struct UndoPluginParameter: Sendable, Hashable {
    public var name: String
    public var type: UndoValueType

    /// - Parameters:
    ///   - name: ASCII letters, digits and '_' (shown in signatures and errors).
    ///   - type: the value's type.
    public init(_ name: String, _ type: UndoValueType) {
        self.name = name
        self.type = type
    }

    /// An `Int32` parameter.
    /// - Parameter name: its name.
    public static func i32(_ name: String) -> Self { Self(name, .i32) }
    /// A `UInt32` parameter.
    /// - Parameter name: its name.
    public static func u32(_ name: String) -> Self { Self(name, .u32) }
    /// An `Int64` parameter.
    /// - Parameter name: its name.
    public static func i64(_ name: String) -> Self { Self(name, .i64) }
    /// A `UInt64` parameter.
    /// - Parameter name: its name.
    public static func u64(_ name: String) -> Self { Self(name, .u64) }
    /// A `Double` parameter.
    /// - Parameter name: its name.
    public static func f64(_ name: String) -> Self { Self(name, .f64) }
    /// A `String` parameter (UTF-8 without NUL characters).
    /// - Parameter name: its name.
    public static func string(_ name: String) -> Self { Self(name, .string) }
    /// A `[UInt8]` parameter.
    /// - Parameter name: its name.
    public static func bytes(_ name: String) -> Self { Self(name, .bytes) }
}

/// A perform or inverse function: a Swift closure given the call and the step's arguments
/// (read them by position or name, with their declared types: `try args[0].string`).
/// Throw an ``UndoPluginError`` to fail the call (after changing nothing); any other error is
/// reported as UNDO_EPLUGIN.
public typealias UndoActionFunction = @Sendable (UndoCall, UndoArguments) throws -> Void

/// A merge function: decides whether two coalescing steps become one (see ``UndoMergeRequest``).
/// A thrown error is reported and counts as refused.
public typealias UndoMergeFunction = @Sendable (UndoCall, UndoMergeRequest) throws -> UndoMergeDecision

/// One undoable action type of a plugin, registered by the kit during init.
///
/// Its perform and inverse are Swift closures; the host calls them through the kit's one C
/// function of the values calling convention (ABI 1.7 `UNDO_ACTION_VALUES`), which hands them
/// the declared arguments, so no function is ever called through a prototype it was not
/// declared with, and no declaration can disagree with a function:
///
///     UndoPluginAction(id: "write", name: "New Note", parameters: [.string("text"), .i32("priority")],
///                      perform: { call, args in try write(try args[0].string, in: call) },
///                      inverse: { call, args in try unwrite(try args[0].string, in: call) })
public struct UndoPluginAction: Sendable {
    /// The local id ("insert"): ASCII letters, digits, '_' and '-', unique in the plugin.
    public var id: String
    /// The brief name shown after "Undo " ("Typing").
    public var name: String
    /// perform's parameters: the arguments of a step, in order.
    public var parameters: [UndoPluginParameter]
    /// Called the first time a step is done and on every redo, with ``parameters``' values.
    public var perform: UndoActionFunction
    /// The inverse's own parameters, handed back by perform with
    /// `UndoCall.setInverseArgument`; nil when the inverse takes perform's arguments.
    public var inverseParameters: [UndoPluginParameter]?
    /// Called on undo, with the values of ``inverseParameters`` (perform's when nil).
    public var inverse: UndoActionFunction
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

    /// An action with its parameters and its functions. Add options with the modifiers
    /// (`.coalescing("key", merge: ...)`, `.localized(...)`).
    /// - Parameters:
    ///   - id: the local id ("insert"): ASCII letters, digits, '_' and '-', unique in the plugin.
    ///   - name: the brief name shown after "Undo " ("Typing").
    ///   - parameters: perform's parameters.
    ///   - perform: the perform function, given `parameters`' values.
    ///   - inverseParameters: the inverse's own parameters (handed back by perform with
    ///     `setInverseArgument`); nil: the inverse takes perform's arguments.
    ///   - inverse: the inverse function.
    public init(id: String, name: String, parameters: [UndoPluginParameter], perform: @escaping UndoActionFunction,
                inverseParameters: [UndoPluginParameter]? = nil, inverse: @escaping UndoActionFunction) {
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
