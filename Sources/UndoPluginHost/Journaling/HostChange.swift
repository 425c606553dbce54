import UndoCore

/// One change a ``PluginHost`` made to its history or its plugins, as the typed call that makes
/// it again: what a journal keeps, and what ``PluginHost/replay(_:)`` makes again through the
/// same host calls.
///
/// The history's own changes are ``UndoCore/UndoOperation``s in their recorded form (a move by
/// time or a jump to a position as the state it reached, an undo with the context it acted in).
public enum HostChange: Sendable, Equatable {
    /// A change of the history (undo, redo, a group, a save, the limits, …).
    case history(UndoOperation)
    /// A plugin action performed: the call, and the step it made.
    case perform(PluginStepRecord)
    /// A document closed: its steps left the history and its plugins forgot it.
    case closeContext(String)
    /// A plugin loaded from `path` (absolute), with the id and version it had.
    case load(path: String, plugin: String, pluginVersion: String)
    /// A plugin unloaded (its steps left the history).
    case unload(plugin: String)
}

/// A plugin step as values: its typed call (plugin, action type, context, arguments) and what
/// perform handed back (inverse arguments, description, coalescing key), each value as script
/// text read back against the action type's signature. The one form a step takes outside the
/// history: a journal's perform row, a replay's check and a checkpoint's step.
public struct PluginStepRecord: Sendable, Equatable {
    /// Which coalescing key the step has.
    public enum Coalescing: Sendable, Equatable {
        /// Its action type's (a checkpoint keeps this; a journal row keeps the key itself).
        case actionType
        /// None: perform said it never coalesces.
        case never
        /// This key, namespaced by the plugin ("org.undohost.text/typing").
        case key(String)
    }

    /// The plugin's id.
    public var plugin: String
    /// The plugin's version when the step was made.
    public var pluginVersion: String
    /// The action type's full id ("org.undohost.text/insert").
    public var action: String
    /// The document.
    public var context: String
    /// The perform arguments as script text.
    public var arguments: String
    /// Whether the fields below were kept: journals of format 2 kept the call only.
    public var outcomeKept = true
    /// The action type's default name (not the host locale's: a journal reopens in any
    /// language); `nil` where it was not kept (a checkpoint).
    public var name: String?
    /// The inverse's own arguments; `nil` when the inverse takes the perform arguments.
    public var inverseArguments: String?
    /// The description perform gave (`set_description`, ABI 1.7), in the performing host's locale.
    public var description: String?
    public var coalescing: Coalescing
    /// What the history did with the step once perform made it: kept it as a step of its own,
    /// or merged it into the step before (or annulled both); `nil` where it was not kept (a
    /// checkpoint, a journal row written before merges were kept).
    public var merge: Merge?

    /// What became of a performed step in the history.
    public enum Merge: Int, Sendable, Equatable {
        /// A step of its own (no merge was asked, or the merge refused).
        case separate = 1
        /// Merged into the step before it.
        case merged = 2
        /// It and the step before cancelled out: both left the history.
        case annulled = 3

        /// How a person reads it in a replay's message.
        public var word: String {
            switch self {
            case .separate: "a step of its own"
            case .merged: "merged into the step before"
            case .annulled: "annulled with the step before"
            }
        }
    }

    /// - Parameters:
    ///   - plugin: the plugin's id.
    ///   - pluginVersion: its version.
    ///   - action: the action type's full id.
    ///   - context: the document.
    ///   - arguments: the perform arguments as script text.
    ///   - name: the action type's default name, if kept.
    ///   - inverseArguments: the inverse arguments as script text, if the inverse has its own.
    ///   - description: the step's description, if any.
    ///   - coalescing: the step's coalescing key.
    public init(plugin: String, pluginVersion: String, action: String, context: String, arguments: String,
                name: String? = nil, inverseArguments: String?, description: String?, coalescing: Coalescing) {
        self.plugin = plugin
        self.pluginVersion = pluginVersion
        self.action = action
        self.context = context
        self.arguments = arguments
        self.name = name
        self.inverseArguments = inverseArguments
        self.description = description
        self.coalescing = coalescing
    }

    /// The call only, as journals of format 2 kept it.
    /// - Parameters: as ``init(plugin:pluginVersion:action:context:arguments:name:inverseArguments:description:coalescing:)``.
    public static func call(plugin: String, pluginVersion: String, action: String, context: String,
                            arguments: String) -> PluginStepRecord {
        var record = PluginStepRecord(plugin: plugin, pluginVersion: pluginVersion, action: action, context: context,
                                      arguments: arguments, inverseArguments: nil, description: nil, coalescing: .never)
        record.outcomeKept = false
        return record
    }

    /// What a replay checks differs between `self` (as recorded) and `replayed`, the step the
    /// same call made again: the name, the coalescing key, the inverse arguments and what the
    /// history did with it (a merge), each as "what: recorded → replayed". The description is
    /// not compared: it is written in the performing host's language. Empty when `self` kept no
    /// outcome; the merge is compared when both kept it.
    /// - Parameter replayed: the step the same call made again.
    /// - Complexity: O(*n*) in the sizes of the texts.
    public func differences(from replayed: PluginStepRecord) -> [String] {
        guard outcomeKept else { return [] }
        func shown(_ text: String?) -> String { text.map(ActionValue.quoted) ?? "none" }
        func key(_ coalescing: Coalescing) -> String? { if case .key(let key) = coalescing { key } else { nil } }
        var found: [String] = []
        if let name, name != replayed.name { found.append("name \(shown(name)) → \(shown(replayed.name))") }
        if key(coalescing) != key(replayed.coalescing) {
            found.append("coalescing key \(shown(key(coalescing))) → \(shown(key(replayed.coalescing)))")
        }
        if inverseArguments != replayed.inverseArguments {
            found.append("inverse arguments \(shown(inverseArguments)) → \(shown(replayed.inverseArguments))")
        }
        if let merge, let again = replayed.merge, merge != again {
            found.append("merge: \(merge.word) → \(again.word)")
        }
        return found
    }
}

extension HostChange {
    /// The major version of a version text ("1" of "1.2.0").
    /// - Complexity: O(*n*) in its length.
    public static func major(_ version: String) -> Substring { version.prefix { $0 != "." } }

    /// Whether two versions have the same major version (the ABI promise of a plugin).
    /// - Complexity: O(*n*) in their lengths.
    public static func sameMajor(_ first: String, _ second: String) -> Bool { major(first) == major(second) }
}

/// Where a host's changes go as they are made (a journal). ``record(_:)`` runs under the
/// history's lock, right after the change succeeded, so records come in the order the
/// changes were made; when it throws, the change was made but is reported as failed.
///
/// **One rule for a change that cannot be kept** (every journal, every face): once a change was
/// made that the recorder could not keep, the history holds what the recorder lacks, so the
/// host refuses every later change before making it (``checkWritable()`` throws) until the
/// recorder is replaced: a journal is reopened, and goes on from the last change it holds.
public protocol PluginHostRecorder: AnyObject, Sendable {
    /// Keeps `change`; when it returns, the change may be acknowledged.
    /// - Parameter change: the change just made.
    /// - Throws: a description of why it could not be kept (the disk is full, …).
    func record(_ change: HostChange) throws(PluginHostError)

    /// Called before the host makes a change: throws when the recorder can keep no more
    /// changes (one could not be kept), so the change is refused instead of made.
    /// - Throws: why, and how to go on.
    func checkWritable() throws(PluginHostError)
}

extension PluginHostRecorder {
    /// A recorder that never fails keeps every change.
    public func checkWritable() throws(PluginHostError) {}
}

extension PluginCommand {
    /// This step as values. `resolvingCoalescing`: the action type's key written out (a journal
    /// row keeps the key itself); otherwise kept as ``PluginStepRecord/Coalescing/actionType``.
    func record(resolvingCoalescing: Bool) -> PluginStepRecord {
        let action = self.action
        let coalescing: PluginStepRecord.Coalescing = switch step.coalescing {
        case .actionType where resolvingCoalescing: action.historyCoalescingKey.map { .key($0.rawValue) } ?? .never
        case .actionType: .actionType
        case .never: .never
        case .key(let key): .key(key.rawValue)
        }
        return PluginStepRecord(
            plugin: action.pluginID, pluginVersion: action.plugin.version, action: action.fullID,
            context: context.name, arguments: ActionArguments.format(arguments), name: action.name,
            inverseArguments: action.inverseSignature == nil ? nil : ActionArguments.format(inverseArguments),
            description: historyDescription, coalescing: coalescing)
    }
}
