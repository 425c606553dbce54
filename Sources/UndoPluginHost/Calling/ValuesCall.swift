import CUndoHostSupport
import UndoPluginABI

/// The call of a perform or inverse function in the values calling convention (an action type
/// flagged `UNDO_ACTION_VALUES`, ABI 1.7): `int32_t f(undo_call *call, const undo_value *args,
/// uint32_t count)`, the `undo_values_fn` the plugin declared it as. The conversion of the stored
/// `undo_fn` back to that prototype is C's (`undo__values_fn_of`, CUndoHostSupport), so the call
/// is through the function's own type, with the declared parameters as one array of values.
struct ValuesCall {
    let function: undo_values_fn
    /// How many values every call passes: the declared parameters' count.
    let parameterCount: Int

    init(_ function: undo_fn, parameterCount: Int) {
        // A non-NULL undo_fn converts to a non-NULL undo_values_fn.
        self.function = undo__values_fn_of(function)!
        self.parameterCount = parameterCount
    }

    /// Calls the function with `values`, which have exactly the declared types (checked when the
    /// step was made: ``ActionArguments``), as C values valid during the call.
    /// - Complexity: O(bytes of the string and bytes values), copied once onto the stack when small.
    func call<Values: ActionValueCollection>(_ call: UnsafeMutablePointer<undo_call>, _ values: Values) -> Int32
    {
        precondition(values.count == parameterCount, "arguments were not checked")
        return ActionValue.withCValues(values) { function(call, $0, UInt32(parameterCount)) }
    }
}
