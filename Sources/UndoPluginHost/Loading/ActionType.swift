#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CUndoHostSupport
import Synchronization
import UndoCore
import UndoPluginABI

/// An action type a plugin registered: its ids, name, typed signatures and prepared calls.
///
/// Ids: ``fullID`` is "<plugin id>/<local id>" ("org.undohost.text/insert"); ``shortID`` is
/// "<last label of the plugin id>.<local id>" ("text.insert"). ``PluginHost`` resolves either,
/// or the bare local id, when unambiguous.
public final class ActionType: @unchecked Sendable, CustomStringConvertible {
    public let pluginID: String
    /// The id the plugin registered ("insert").
    public let localID: String
    /// The brief name shown after "Undo " ("Typing"): the default, see ``displayName``.
    public let name: String
    /// The perform function's parameters.
    public let signature: ActionSignature
    /// The inverse's own parameters, or `nil` when the inverse takes perform's arguments.
    public let inverseSignature: ActionSignature?
    /// Steps of the same plugin with the same key in the same context coalesce into one.
    public let coalescingKey: String?
    /// The step does not make its context dirty.
    public let isDiscardable: Bool
    /// Consecutive steps merge in the host by appending their last (string or bytes) argument,
    /// and their last inverse argument (`UNDO_MERGE_BY_APPEND`, ABI 1.2), without a merge function.
    public let appendsOnMerge: Bool

    let pluginShortName: String
    /// The plugin's functions, prepared; `nil` for an isolated plugin's action type (its
    /// functions are in its process: ``LoadedPlugin/remote``).
    let performFunction: FFIFunction!
    let inverseFunction: FFIFunction!
    let mergeFunction: MergeFunction?
    /// An isolated plugin's action type has a merge function in the plugin's process.
    let mergesInItsProcess: Bool
    /// Strong: a step in the history keeps its plugin record alive. The cycle through
    /// `LoadedPlugin.actions` is broken on unload.
    let plugin: LoadedPlugin
    /// The type of the one parameter of an action type that has exactly one (checked without
    /// touching the signature's array, see ``PluginHost/perform(_:argument:in:)``).
    let onlyParameterType: ActionValueType?
    /// What a step of this type costs (``PluginStep/currentCost``) when every parameter and
    /// inverse parameter is a number; `nil` when a string or bytes value makes it vary.
    let fixedStepCost: Int?
    /// The names in other languages and the one chosen for the host's locale
    /// (ActionType+LocalizedNames).
    let localized: Locked<LocalizedActionNames>
    /// The place of the chosen name among ``frozenNames``, or -1 for ``name`` (stored under
    /// `localized`'s lock, read without it by ``displayName``).
    let chosenName = Atomic<Int>(-1)
    /// The names in other languages, frozen when the host first chooses one.
    let frozenNames = AtomicLazyReference<FrozenActionNames>()
    /// `localID` as a C string for `undo_call.action_id`, made once (freed in deinit).
    let cLocalID: UnsafeMutablePointer<CChar>

    /// The merge function, converted back to its documented type (``undo__merge_fn``).
    typealias MergeFunction = undo__merge_fn

    init(plugin: LoadedPlugin, localID: String, name: String, signature: ActionSignature,
         inverseSignature: ActionSignature?, coalescingKey: String?, isDiscardable: Bool,
         appendsOnMerge: Bool = false, performFunction: FFIFunction?, inverseFunction: FFIFunction?, mergeFunction: MergeFunction?,
         mergesInItsProcess: Bool = false) {
        self.plugin = plugin
        self.pluginID = plugin.id
        self.pluginShortName = plugin.shortName
        self.localID = localID
        self.name = name
        self.localized = Locked(LocalizedActionNames())
        self.signature = signature
        self.inverseSignature = inverseSignature
        self.coalescingKey = coalescingKey
        self.isDiscardable = isDiscardable
        self.appendsOnMerge = appendsOnMerge
        // withCString: the id's own bytes (passing the String would copy them to the heap first).
        self.cLocalID = localID.withCString { strdup($0)! }
        self.onlyParameterType = signature.parameters.count == 1 ? signature.parameters[0].type : nil
        // Both lists read in place (joining them cost an array per registration).
        let inverseParameters = inverseSignature?.parameters ?? []
        let varies = { (parameter: ActionParameter) in parameter.type == .string || parameter.type == .bytes }
        self.fixedStepCost = signature.parameters.contains(where: varies) || inverseParameters.contains(where: varies)
            ? nil : 96 + 16 * (signature.parameters.count + inverseParameters.count)
        self.performFunction = performFunction
        self.inverseFunction = inverseFunction
        self.mergeFunction = mergeFunction
        self.mergesInItsProcess = mergesInItsProcess
        self.historyCoalescingKey = coalescingKey.map { UndoCoalescingKey(plugin.id + "/" + $0) }
    }

    deinit { free(cLocalID) }

    /// "org.undohost.text/insert"
    public var fullID: String { pluginID + "/" + localID }
    /// "text.insert"
    public var shortID: String { pluginShortName + "." + localID }
    /// Whether the plugin merges consecutive steps of this type.
    public var canMerge: Bool { mergeFunction != nil || appendsOnMerge || mergesInItsProcess }
    /// The parameters the inverse is called with.
    public var effectiveInverseSignature: ActionSignature { inverseSignature ?? signature }

    /// `text.insert(position: i64, text: string) "Typing"`
    public var description: String { "\(shortID)\(signature) \(ActionValue.quoted(displayName))" }

    /// One line with everything: signature, name, inverse, coalescing and flags.
    public var detailedDescription: String {
        var text = description
        if let inverseSignature { text += " inverse\(inverseSignature)" }
        if let coalescingKey { text += " coalesces(\(ActionValue.quoted(coalescingKey)))" + (appendsOnMerge ? " appends" : canMerge ? " merges" : "") }
        if isDiscardable { text += " discardable" }
        return text
    }

    /// The coalescing key as the history sees it: namespaced by the plugin (made once: the
    /// history reads it on every perform and every coalescing).
    let historyCoalescingKey: UndoCoalescingKey?
}
