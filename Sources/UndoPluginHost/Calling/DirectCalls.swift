import CUndoHostSupport
import UndoPluginABI

/// The direct calls: a plugin function whose declared parameters are EXACTLY one of a few
/// signatures is called through a C prototype of that signature (`undo_call *` first, then the
/// declared C types), instead of through `ffi_call`. The prototypes, and the conversion of the
/// stored `undo_fn` back to them, are in `undo_host_support.h` (CUndoHostSupport); this file is
/// the only place that chooses one, from the declared parameter types and nothing else. Every
/// other signature goes through libffi (``FFIFunction``). The tests call each prototype with the
/// same values as the libffi call of the same function (CallRouteTests).
///
/// The signatures are those of the bundled and benchmark plugins (`bench.add(amount: i64)`,
/// `bench.type(text: string)`, `text.insert(position: i64, text: string)`,
/// `text.delete(position: i64, length: i64)`) and the other one-number shapes.
enum DirectCall {
    case noArguments(undo__direct_none)
    case i32(undo__direct_i32)
    case u32(undo__direct_u32)
    case i64(undo__direct_i64)
    case u64(undo__direct_u64)
    case f64(undo__direct_f64)
    case string(undo__direct_string)
    case i64I64(undo__direct_i64_i64)
    case i64String(undo__direct_i64_string)

    /// The direct call of `function`, declared with `parameters`, or `nil` when no prototype
    /// matches them exactly.
    init?(_ function: undo_fn, parameters: [ActionValueType]) {
        let call: DirectCall?
        switch parameters {
        case []: call = undo__direct_none_of(function).map(DirectCall.noArguments)
        case [.i32]: call = undo__direct_i32_of(function).map(DirectCall.i32)
        case [.u32]: call = undo__direct_u32_of(function).map(DirectCall.u32)
        case [.i64]: call = undo__direct_i64_of(function).map(DirectCall.i64)
        case [.u64]: call = undo__direct_u64_of(function).map(DirectCall.u64)
        case [.f64]: call = undo__direct_f64_of(function).map(DirectCall.f64)
        case [.string]: call = undo__direct_string_of(function).map(DirectCall.string)
        case [.i64, .i64]: call = undo__direct_i64_i64_of(function).map(DirectCall.i64I64)
        case [.i64, .string]: call = undo__direct_i64_string_of(function).map(DirectCall.i64String)
        default: call = nil
        }
        guard let call else { return nil }
        self = call
    }

    /// The parameter types of the prototype.
    var parameterTypes: [ActionValueType] {
        switch self {
        case .noArguments: []
        case .i32: [.i32]
        case .u32: [.u32]
        case .i64: [.i64]
        case .u64: [.u64]
        case .f64: [.f64]
        case .string: [.string]
        case .i64I64: [.i64, .i64]
        case .i64String: [.i64, .string]
        }
    }

    /// How many parameters the prototype has (without making the array of ``parameterTypes``).
    var parameterCount: Int {
        switch self {
        case .noArguments: 0
        case .i32, .u32, .i64, .u64, .f64, .string: 1
        case .i64I64, .i64String: 2
        }
    }

    /// Calls the function with `values`, which have exactly the declared types (checked when
    /// the step was made: ``ActionArguments``; strings free of NUL bytes).
    @inline(__always)
    func call<Values: ActionValueCollection>(_ call: UnsafeMutablePointer<undo_call>, _ values: Values) -> Int32
    {
        precondition(values.count == parameterCount, "arguments were not checked")
        switch self {
        case .noArguments(let function):
            return function(call)
        case .i32(let function):
            guard case .i32(let a) = values[0] else { Self.unchecked() }
            return function(call, a)
        case .u32(let function):
            guard case .u32(let a) = values[0] else { Self.unchecked() }
            return function(call, a)
        case .i64(let function):
            guard let a = values.int64(at: 0) else { Self.unchecked() }
            return function(call, a)
        case .u64(let function):
            guard case .u64(let a) = values[0] else { Self.unchecked() }
            return function(call, a)
        case .f64(let function):
            guard case .f64(let a) = values[0] else { Self.unchecked() }
            return function(call, a)
        case .string(let function):
            guard let status = values.withCString(at: 0, { function(call, $0) }) else { Self.unchecked() }
            return status
        case .i64I64(let function):
            guard let a = values.int64(at: 0), let b = values.int64(at: 1) else { Self.unchecked() }
            return function(call, a, b)
        case .i64String(let function):
            guard let a = values.int64(at: 0), let status = values.withCString(at: 1, { function(call, a, $0) }) else {
                Self.unchecked()
            }
            return status
        }
    }

    private static func unchecked() -> Never { preconditionFailure("arguments were not checked") }
}
