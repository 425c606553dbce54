import UndoCore

/// Reads a command whose type is a generic parameter as the ``PluginCommand`` it is, in place:
/// for a question asked of every step of a history (``PluginCommand/StepsOf``, which an
/// unload asks of each step), where the run time's cast (`as?`) cost about 110 instructions and
/// a copy of the command (two retains and releases) per step, about 230 in all.
///
/// **Invariant** (checked in every build, before anything is read): the command's type *is*
/// `PluginCommand` (`C.self == PluginCommand.self`), so its memory is bound to `PluginCommand`
/// and is read as the type it holds; any other type is answered `nil` without being read. The
/// command is borrowed for the read only, and nothing is written or kept.
enum PluginCommandView {
    /// Whether `command` is a step of `plugin`, or `nil` when it is not a plugin step.
    /// - Complexity: O(1): a type comparison and one read.
    static func belongs<C: UndoCommand>(_ command: borrowing C, to plugin: LoadedPlugin) -> Bool? {
        guard C.self == PluginCommand.self else { return nil }
        return withUnsafePointer(to: command) { pointer in
            UnsafeRawPointer(pointer).assumingMemoryBound(to: PluginCommand.self).pointee.actionType.plugin === plugin
        }
    }
}
