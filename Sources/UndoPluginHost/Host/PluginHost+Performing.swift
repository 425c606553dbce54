import UndoCore
import UndoPluginABI

// Performing an action type its caller resolved once (undo-host, the C API), with its arguments
// as script text or as a C client's values: each value is read and checked once, here.

extension PluginHost {
    /// Parses script argument text (see ``ActionArguments/parse(_:for:)``) for a resolved action
    /// type of this host and makes the step, without performing it.
    /// - Throws: ``PluginHostError/unknownAction(_:suggestion:)`` for an action type of another
    ///   host; ``PluginHostError/invalidArguments(action:signature:_:)``.
    /// - Complexity: O(the text's length).
    public func makeCommand(_ action: ActionType, argumentText: String, in context: UndoContext = .global)
        throws(PluginHostError) -> PluginCommand
    {
        try Self.checkContext(context)
        try checkBelongsHere(action)
        do throws(ActionArgumentError) {
            let checked = try ActionArguments.parse(argumentText, for: action.signature)
            return PluginCommand(action: action, arguments: checked, context: context)
        } catch {
            throw .invalidArguments(action, error)
        }
    }

    /// Performs a resolved action type with script argument text (`0 "Hello"`). Nothing is
    /// performed when the text is wrong.
    /// - Throws: as ``makeCommand(_:argumentText:in:)``, the plugin's failure, the history's refusal.
    /// - Returns: as ``perform(_:_:in:)-(String,_,_)``.
    @discardableResult
    public func perform(_ action: ActionType, argumentText: String, in context: UndoContext = .global)
        throws(PluginHostError) -> UndoPerformOutcome
    {
        try perform(try makeCommand(action, argumentText: argumentText, in: context))
    }

    /// Reads a C client's values, checks them against a resolved action type's signature and
    /// makes the step, without performing it. The count is checked before any value is read.
    /// - Parameters:
    ///   - values: `count` values, copied; may be NULL when `count` is 0.
    /// - Throws: as ``makeCommand(_:argumentText:in:)``.
    /// - Complexity: O(the values' size).
    public func makeCommand(_ action: ActionType, values: UnsafePointer<undo_value>?, count: Int,
                            in context: UndoContext = .global) throws(PluginHostError) -> PluginCommand
    {
        try Self.checkContext(context)
        try checkBelongsHere(action)
        do throws(ActionArgumentError) {
            let checked = try ActionArguments.check(values, count: count, against: action.signature)
            return PluginCommand(action: action, arguments: checked, context: context)
        } catch {
            throw .invalidArguments(action, error)
        }
    }

    /// Performs a resolved action type with a C client's values (see
    /// ``makeCommand(_:values:count:in:)``). Nothing is performed when they are wrong.
    /// - Returns: as ``perform(_:_:in:)-(String,_,_)``.
    @discardableResult
    public func perform(_ action: ActionType, values: UnsafePointer<undo_value>?, count: Int,
                        in context: UndoContext = .global) throws(PluginHostError) -> UndoPerformOutcome
    {
        try perform(try makeCommand(action, values: values, count: count, in: context))
    }

    /// Refuses `count` arguments when `action` takes another number: for a caller that must
    /// check an array's count before it reads anything of it (UNDO_ECOUNT).
    public static func checkArgumentCount(_ count: Int, of action: ActionType) throws(PluginHostError) {
        let expected = action.signature.parameters.count
        guard count == expected else {
            throw .invalidArguments(action, ActionArgumentError(.wrongCount(expected: expected, given: count)))
        }
    }

    private func checkBelongsHere(_ action: ActionType) throws(PluginHostError) {
        guard action.plugin.hostID == ObjectIdentifier(self) else {
            throw .unknownAction(action.fullID, suggestion: nil)
        }
    }
}

extension PluginHostError {
    /// Arguments that do not fit `action`, with its signature as the one expected.
    static func invalidArguments(_ action: ActionType, _ error: ActionArgumentError) -> PluginHostError {
        .invalidArguments(action: action.shortID, signature: action.shortID + action.signature.description, error)
    }
}
