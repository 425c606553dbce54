#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLibFFI
import UndoCore
import UndoPluginABI

/// How the host calls plugin functions (see ``FFIFunction``).
public enum PluginCallRoute: String, Sendable, CaseIterable {
    /// A function whose declared parameters match one of the direct prototypes exactly
    /// (``DirectCall``) is called through it; every other one through `ffi_call`. The default.
    case direct
    /// Every call through libffi's `ffi_call`: set `UNDOHOST_PLUGIN_CALLS=libffi` in the
    /// environment, or ``PluginHost/callRoute``.
    case libffi

    /// The environment variable that chooses the route of new hosts.
    public static let environmentVariable = "UNDOHOST_PLUGIN_CALLS"

    /// The route `UNDOHOST_PLUGIN_CALLS` asks for: ``direct`` when it is unset or empty.
    static var fromEnvironment: (route: PluginCallRoute, problem: String?) {
        parse(getenv(environmentVariable).map { String(cString: $0) })
    }

    /// The route a value of `UNDOHOST_PLUGIN_CALLS` asks for, and what is wrong with a value that
    /// names neither route (the host then calls directly where it can, and logs it).
    static func parse(_ value: String?) -> (route: PluginCallRoute, problem: String?) {
        guard let value, !value.isEmpty else { return (.direct, nil) }
        if let route = PluginCallRoute(rawValue: value) { return (route, nil) }
        let names = allCases.map(\.rawValue).joined(separator: " or ")
        return (.direct, "\(environmentVariable)=\(value) is not \(names); plugin calls go direct where they can")
    }
}

/// One C function of a plugin (a perform or an inverse) with its prepared call: the only place
/// the host calls plugin actions.
///
/// The C signature is `int32_t f(undo_call *call, <one C parameter per value>)`, where a
/// `bytes` value is two C parameters (`const void *data, uint64_t size`). libffi prepares the
/// call interface (`ffi_cif`) once, at registration, and it lives as long as this object.
/// A function whose declared parameters are exactly those of a direct prototype
/// (``DirectCall``) is called through that prototype unless the route is
/// ``PluginCallRoute/libffi``; every other call goes through `ffi_call`.
///
/// (`@unchecked Sendable`: nothing in it changes after init; libffi only reads the `ffi_cif`.)
final class FFIFunction: @unchecked Sendable {
    /// The function, as the plugin stored it.
    let function: undo_fn
    let parameterTypes: [ActionValueType]
    /// The direct call, when the route allows it and a prototype matches exactly.
    let direct: DirectCall?
    /// The call of a values-convention function (`UNDO_ACTION_VALUES`, ABI 1.7): always
    /// through its one prototype, whatever the route; then there is no libffi interface.
    let values: ValuesCall?
    /// Shared by every function with the same parameter types (``FFICallInterface/shared(for:)``).
    let interface: FFICallInterface?

    /// Prepares the call interface.
    /// - Parameters:
    ///   - function: the plugin's function, as stored.
    ///   - parameters: its declared parameter types.
    ///   - route: direct calls allowed or not.
    ///   - takesValues: the function is an `undo_values_fn` (its action type has `UNDO_ACTION_VALUES`).
    /// - Throws: when libffi refuses it (it should not, for these types).
    init(function: undo_fn, parameters: [ActionValueType], route: PluginCallRoute,
         takesValues: Bool = false) throws(FFIError) {
        self.function = function
        self.parameterTypes = parameters
        if takesValues {
            self.values = ValuesCall(function, parameterCount: parameters.count)
            self.interface = nil
            self.direct = nil
        } else {
            self.values = nil
            self.interface = try FFICallInterface.shared(for: parameters)
            self.direct = route == .direct ? DirectCall(function, parameters: parameters) : nil
        }
    }

    /// Whether calls go through a direct prototype rather than `ffi_call`.
    var callsDirectly: Bool { direct != nil }

    /// Calls the function with `call` first and `values`, which must already have exactly the
    /// parameter types (``ActionArguments`` checks them).
    /// - Returns: the function's `int32_t` result.
    // Inlined (with the direct call) into the frame's call: the one path of every perform and
    // inverse, so a call of a direct prototype costs no frames of its own on the way.
    @inline(__always)
    func call<Values: ActionValueCollection>(_ call: UnsafeMutablePointer<undo_call>, _ values: Values) -> Int32
    {
        if let valuesCall = self.values { return valuesCall.call(call, values) }
        if let direct { return direct.call(call, values) }
        return callThroughFFI(call, values)
    }

    /// The same call through `ffi_call`, whatever the route (the tests compare the two); a
    /// values-convention function has no other call than its own prototype.
    func callThroughFFI<Values: ActionValueCollection>(_ call: UnsafeMutablePointer<undo_call>, _ values: Values) -> Int32
    {
        // Called through the optional, not bound: a bound copy was retained and released per call.
        return interface?.call(function, call, values) ?? self.values!.call(call, values)
    }
}

/// A prepared libffi call interface: the `ffi_cif` and the argument type array it points to,
/// owned together (freed in deinit), never changed after init.
///
/// (`@unchecked Sendable`: nothing in it changes after init, and `ffi_call` only reads the
/// `ffi_cif`, so calls on several threads may share one.)
final class FFICallInterface: @unchecked Sendable {
    /// The interfaces prepared so far, by parameter types: an interface depends on those alone,
    /// so every function declared with them shares one, and a plugin loaded into a second
    /// history (a C host making many, the C API fuzz target) prepares no call again. At most
    /// ``maximumShared`` are kept; past that, each function gets its own.
    private static let preparedInterfaces = Locked([[ActionValueType]: FFICallInterface]())
    static let maximumShared = 256

    /// The interface for functions declared with `parameters`: the one prepared before, or a
    /// new one.
    /// - Complexity: O(parameters) once one was prepared (a lookup under a lock).
    static func shared(for parameters: [ActionValueType]) throws(FFIError) -> FFICallInterface {
        if let prepared = preparedInterfaces.withLock({ $0[parameters] }) { return prepared }
        let made = try FFICallInterface(parameters)
        return preparedInterfaces.withLock { table in
            if let prepared = table[parameters] { return prepared }  // another thread was first
            if table.count < maximumShared { table[parameters] = made }
            return made
        }
    }

    let parameterTypes: [ActionValueType]
    /// C arguments: the `undo_call *`, then one per value (two for bytes).
    let argumentCount: Int
    /// Whether a value is passed as a copy (a string or bytes parameter): without one, a
    /// call's scratch has the same size every time (``fixedScratchSize``).
    private let copiesValues: Bool
    /// The scratch of a call without copies.
    private let fixedScratchSize: Int
    private let cif: UnsafeMutablePointer<ffi_cif>
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>

    init(_ parameters: [ActionValueType]) throws(FFIError) {
        parameterTypes = parameters
        var types: [UnsafeMutablePointer<ffi_type>?] = [undo__ffi_type_pointer()]  // undo_call *
        for parameter in parameters {
            switch parameter {
            case .i32: types.append(undo__ffi_type_sint32())
            case .u32: types.append(undo__ffi_type_uint32())
            case .i64: types.append(undo__ffi_type_sint64())
            case .u64: types.append(undo__ffi_type_uint64())
            case .f64: types.append(undo__ffi_type_double())
            case .string: types.append(undo__ffi_type_pointer())
            case .bytes:
                types.append(undo__ffi_type_pointer())
                types.append(undo__ffi_type_uint64())
            }
        }
        argumentCount = types.count
        copiesValues = parameters.contains { $0 == .string || $0 == .bytes }
        fixedScratchSize = FFIScratch.byteCount(arguments: types.count, copies: 0)
        argumentTypes = .allocate(capacity: types.count)
        argumentTypes.initialize(from: types, count: types.count)
        cif = .allocate(capacity: 1)
        let status = ffi_prep_cif(cif, undo__ffi_default_abi(), UInt32(types.count), undo__ffi_type_sint32(),
                                  argumentTypes)
        guard status == FFI_OK else {
            cif.deallocate()
            argumentTypes.deallocate()
            throw FFIError(status: Int(status.rawValue))
        }
    }

    deinit {
        cif.deallocate()
        argumentTypes.deallocate()
    }

    /// Calls `function` through `ffi_call` with `call` first and `values` (exactly the parameter
    /// types). Strings are passed as NUL-terminated copies and bytes as a copy with its size,
    /// all in one scratch on the stack (``FFIScratch``) that lives until the call returns.
    /// - Complexity: O(bytes of the string and bytes values); no heap allocation when those are
    ///   small.
    @inline(__always)
    func call<Values: ActionValueCollection>(_ function: undo_fn, _ call: UnsafeMutablePointer<undo_call>,
                                              _ values: Values) -> Int32
    {
        precondition(values.count == parameterTypes.count, "arguments were not checked")
        var size = fixedScratchSize
        if copiesValues {
            for index in values.indices {
                switch values[index] {
                case .string(let s): size += s.utf8.count + 1
                case .bytes(let b): size += b.count + 1
                default: break
                }
            }
        }
        return withUnsafeTemporaryAllocation(byteCount: size, alignment: FFIScratch.alignment) { buffer in
            var scratch = FFIScratch(buffer, arguments: argumentCount)
            scratch.append(UnsafeMutableRawPointer(call))
            // By index: an iterator copied the whole list first.
            for index in values.indices {
                switch values[index] {
                case .i32(let v): scratch.append(v)
                case .u32(let v): scratch.append(v)
                case .i64(let v): scratch.append(v)
                case .u64(let v): scratch.append(v)
                case .f64(let v): scratch.append(v)
                case .string(var s):
                    let pointer = s.withUTF8 { scratch.appendCopy(UnsafeRawBufferPointer($0)) }
                    scratch.append(pointer)
                case .bytes(let b):
                    // Never NULL, even when empty, so a plugin may always read `size` bytes.
                    let pointer = b.withUnsafeBytes { scratch.appendCopy($0) }
                    scratch.append(pointer)
                    scratch.append(UInt64(b.count))
                }
            }
            return scratch.invoke(cif, function)
        }
    }
}

/// The storage of one `ffi_call`: the only place the call's argument memory is handled.
///
/// Layout of the buffer (``byteCount(arguments:copies:)`` bytes, aligned to ``alignment``):
/// one 8-byte slot per C argument, the result slot (an `ffi_arg` at least, which libffi widens
/// integer results to), the array of pointers to the slots that `ffi_call` reads, then the
/// copies of string and bytes values, each followed by a NUL.
///
/// Invariants (checked with assertions): at most `arguments` values are appended, each at most
/// 8 bytes; the copies stay inside the buffer; ``invoke(_:_:)`` runs only once every slot is set.
/// The buffer must outlive the call (a `withUnsafeTemporaryAllocation` around the whole call).
struct FFIScratch {
    static let alignment = 16
    private static let slotSize = 8
    /// libffi widens integer results to a full ffi_arg: a 4-byte slot would be overrun.
    /// (Computed: a constant once inlined, where a stored static was a lazy global's check per use.)
    private static var resultSize: Int { max(8, Int(undo__ffi_return_slot_size())) }

    private let base: UnsafeMutableRawPointer
    private let size: Int
    private let arguments: Int
    private var appended = 0
    private var copyOffset: Int

    static func byteCount(arguments: Int, copies: Int) -> Int {
        slotSize * arguments + resultSize + MemoryLayout<UnsafeMutableRawPointer>.stride * arguments + copies
    }

    private var resultOffset: Int { Self.slotSize * arguments }
    private var pointersOffset: Int { resultOffset + Self.resultSize }

    // The scratch's functions are inlined into the one call that uses them (``FFICallInterface/call(_:_:_:)``).
    @inline(__always)
    init(_ buffer: UnsafeMutableRawBufferPointer, arguments: Int) {
        base = buffer.baseAddress!
        size = buffer.count
        self.arguments = arguments
        copyOffset = Self.byteCount(arguments: arguments, copies: 0)
        precondition(copyOffset <= size, "the scratch is too small")
        let pointers = (base + pointersOffset).bindMemory(to: UnsafeMutableRawPointer?.self, capacity: arguments)
        for index in 0..<arguments { pointers[index] = base + Self.slotSize * index }
    }

    /// Stores the next C argument in its slot, in its own C type (libffi reads that many bytes).
    mutating func append<T: BitwiseCopyable>(_ value: T) {
        assert(MemoryLayout<T>.size <= Self.slotSize, "a C argument wider than its slot")
        precondition(appended < arguments, "more values than the function's parameters")
        (base + Self.slotSize * appended).storeBytes(of: value, as: T.self)
        appended += 1
    }

    /// Copies `bytes` and a NUL after them into the scratch.
    /// - Returns: where the copy is (valid until the call returns).
    mutating func appendCopy(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
        precondition(copyOffset + bytes.count + 1 <= size, "the copies overrun the scratch")
        let destination = base + copyOffset
        copyTerminated(bytes, to: destination)
        copyOffset += bytes.count + 1
        return destination
    }

    /// Calls `function` through `cif` with the slots.
    @inline(__always)
    func invoke(_ cif: UnsafeMutablePointer<ffi_cif>, _ function: undo_fn) -> Int32 {
        precondition(appended == arguments, "fewer values than the function's parameters")
        let result = base + resultOffset
        result.initializeMemory(as: UInt8.self, repeating: 0, count: Self.resultSize)
        let pointers = (base + pointersOffset).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        ffi_call(cif, function, result, pointers)
        return Int32(truncatingIfNeeded: result.load(as: UInt64.self))
    }
}

/// libffi could not prepare a call interface.
struct FFIError: Error, Sendable {
    var status: Int
}
