/// The optional parts of an action, added one at a time to
/// `UndoPluginAction(id:name:parameters:perform:inverseParameters:inverse:)`:
///
///     UndoPluginAction(id: "type", name: "Typing", parameters: [.u32("index"), .string("text")],
///                      perform: typeInto, inverse: untype)
///         .coalescingByAppending("typing")
///         .localized(["ko": "입력"])
extension UndoPluginAction {
    /// This action with steps that coalesce by `key` and, with `merge`, merge into one step.
    /// - Parameters:
    ///   - key: steps with the same key in the same context coalesce.
    ///   - merge: combines two coalescing steps; nil: they coalesce but never merge.
    public func coalescing(_ key: String, merge: UndoMergeFunction? = nil) -> Self {
        var action = self
        action.coalescingKey = key
        action.merge = merge
        action.mergesByAppending = false
        return action
    }

    /// This action with steps that coalesce by `key` and that the host joins itself by
    /// appending their last (string or bytes) argument (ABI 1.2, `UNDO_MERGE_BY_APPEND`).
    /// - Parameter key: steps with the same key in the same context coalesce.
    public func coalescingByAppending(_ key: String) -> Self {
        var action = self
        action.coalescingKey = key
        action.merge = nil
        action.mergesByAppending = true
        return action
    }

    /// This action as one that does not make its context dirty (a selection change).
    public func discardable() -> Self {
        var action = self
        action.isDiscardable = true
        return action
    }

    /// This action with its name in other languages.
    /// - Parameter names: the name by locale identifier (`["ko": "입력"]`).
    public func localized(_ names: [String: String]) -> Self {
        var action = self
        action.localizedNames = names
        return action
    }
}
