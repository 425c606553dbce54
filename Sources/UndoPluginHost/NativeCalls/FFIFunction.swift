#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLibFFI
import UndoPluginABI

/// How the host calls plugin functions (see ``FFIFunction``).
public enum PluginCallRoute: String, Sendable, CaseIterable {
    /// Functions whose arguments all travel in registers are called through one fixed
    /// prototype, classified once at registration; the others through `ffi_call`. The default.
    case registers
    /// Every call through libffi's `ffi_call` (which classifies the arguments again on each
    /// call): set `UNDOHOST_PLUGIN_CALLS=libffi` in the environment, or ``PluginHost/callRoute``.
    case libffi

    /// The environment variable that chooses the route of new hosts.
    public static let environmentVariable = "UNDOHOST_PLUGIN_CALLS"

    /// The route `UNDOHOST_PLUGIN_CALLS` asks for: ``registers`` when it is unset or empty.
    static var fromEnvironment: (route: PluginCallRoute, problem: String?) {
        parse(getenv(environmentVariable).map { String(cString: $0) })
    }

    /// The route a value of `UNDOHOST_PLUGIN_CALLS` asks for, and what is wrong with a value that
    /// names neither route (the host then calls in registers and logs it).
    static func parse(_ value: String?) -> (route: PluginCallRoute, problem: String?) {
        guard let value, !value.isEmpty else { return (.registers, nil) }
        if let route = PluginCallRoute(rawValue: value) { return (route, nil) }
        let names = allCases.map(\.rawValue).joined(separator: " or ")
        return (.registers, "\(environmentVariable)=\(value) is not \(names); plugin calls go in registers")
    }
}

/// One C function of a plugin (a perform or an inverse) with its prepared call: the only place
/// the host calls plugin actions.
///
/// The C signature is `int32_t f(undo_call *call, <one C parameter per value>)`, where a
/// `bytes` value is two C parameters (`const void *data, uint64_t size`). libffi prepares the
/// call interface (`ffi_cif`) once, at registration, and it lives as long as this object.
///
/// **Routes.** `ffi_call` classifies every argument for the platform's calling convention again
/// on each call (about 500 instructions for a two-argument call, 15 times the call itself).
/// These signatures are made of integers, pointers and doubles only, so the classification is
/// done once here: when every C argument fits in an argument register (on x86-64 at most 6
/// integers or pointers and 8 doubles; on AArch64 8 and 8), the call goes through a fixed
/// prototype that loads all argument registers (`undo__call_in_registers` in the CLibFFI shim),
/// as ffi_call's own assembly does. A function with more arguments, or any function on another
/// platform or with ``PluginCallRoute/libffi``, is called through `ffi_call`. Both routes
/// pass the same values: the tests run every parameter type through each.
final class FFIFunction: @unchecked Sendable {
    let address: UnsafeRawPointer
    let parameterTypes: [ActionValueType]
    /// Whether calls go through registers rather than `ffi_call`.
    let callsInRegisters: Bool
    private let cif: UnsafeMutablePointer<ffi_cif>
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    private let cArgumentCount: Int
    /// Where each C argument's 8-byte slot is in a call's scratch (bytes): consecutive for
    /// `ffi_call`; in the register file (integer registers, then floating point) for a call
    /// in registers.
    private let slotOffsets: UnsafeMutablePointer<Int>
    /// A function of one argument called in registers, through its own one-argument prototype:
    /// an integer or a string (a pointer) in an integer register, or a double.
    private let oneRegister: OneRegister
    private enum OneRegister { case no, integer, double }
    /// Whether a parameter is a string or bytes (whose values are copied for the call).
    private let copiesValues: Bool
    /// For functions of numbers only: the scratch of a call, prepared once (see
    /// ``callWithPreparedSlots(_:_:)``); `nil` when a parameter is a string or bytes.
    private let prepared: UnsafeMutableRawPointer?
    /// Whether a call is using `prepared` (changed only with the plugin's call lock held).
    @exclusivity(unchecked) private var preparedInUse = false

    // Computed: constants of the shim, with no lazily initialized global to check.
    static var generalRegisters: Int { Int(undo__register_call_gp()) }
    static var floatRegisters: Int { Int(undo__register_call_fp()) }
    /// The register file of a call in registers: the integer registers, then the floating-point ones.
    private static var registerFileSize: Int { 8 * (generalRegisters + floatRegisters) }

    /// Prepares the call interface.
    /// - Throws: when libffi refuses it (it should not, for these types).
    init(address: UnsafeRawPointer, parameters: [ActionValueType], route: PluginCallRoute) throws(FFIError) {
        self.address = address
        self.parameterTypes = parameters
        let count = 1 + parameters.reduce(0) { $0 + ($1 == .bytes ? 2 : 1) }
        cArgumentCount = count
        copiesValues = parameters.contains { $0 == .string || $0 == .bytes }
        let types = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: count)
        var isFloat: [Bool] = []
        func append(_ type: UnsafeMutablePointer<ffi_type>, float: Bool = false) {
            types[isFloat.count] = type
            isFloat.append(float)
        }
        append(undo__ffi_type_pointer()) // undo_call *
        for parameter in parameters {
            switch parameter {
            case .i32: append(undo__ffi_type_sint32())
            case .u32: append(undo__ffi_type_uint32())
            case .i64: append(undo__ffi_type_sint64())
            case .u64: append(undo__ffi_type_uint64())
            case .f64: append(undo__ffi_type_double(), float: true)
            case .string: append(undo__ffi_type_pointer())
            case .bytes:
                append(undo__ffi_type_pointer())
                append(undo__ffi_type_uint64())
            }
        }
        argumentTypes = types
        let floats = isFloat.filter { $0 }.count
        callsInRegisters = route == .registers && count - floats <= Self.generalRegisters
            && floats <= Self.floatRegisters
        oneRegister = !callsInRegisters || parameters.count != 1 ? .no
            : parameters[0].isInteger || parameters[0] == .string ? .integer : parameters[0] == .f64 ? .double : .no
        slotOffsets = .allocate(capacity: count)
        var general = 0, float = 0
        for index in 0..<count {
            if !callsInRegisters {
                slotOffsets[index] = 8 * index
            } else if isFloat[index] {
                slotOffsets[index] = 8 * (Self.generalRegisters + float)
                float += 1
            } else {
                slotOffsets[index] = 8 * general
                general += 1
            }
        }
        if copiesValues {
            prepared = nil
        } else {
            let size = callsInRegisters ? Self.registerFileSize : Self.scratchSize(count)
            let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            block.initializeMemory(as: UInt8.self, repeating: 0, count: size)
            if !callsInRegisters {
                let pointers = (block + Self.pointersOffset(count)).bindMemory(to: UnsafeMutableRawPointer?.self, capacity: count)
                for index in 0..<count { pointers[index] = block + 8 * index }
            }
            prepared = block
        }
        cif = .allocate(capacity: 1)
        let status = ffi_prep_cif(cif, undo__ffi_default_abi(), UInt32(count), undo__ffi_type_sint32(),
                                  argumentTypes)
        guard status == FFI_OK else {
            cif.deallocate()
            argumentTypes.deallocate()
            slotOffsets.deallocate()
            prepared?.deallocate()
            throw FFIError(status: Int(status.rawValue))
        }
    }

    deinit {
        cif.deallocate()
        argumentTypes.deallocate()
        slotOffsets.deallocate()
        prepared?.deallocate()
    }

    /// libffi widens integer results to a full ffi_arg: a 4-byte slot would be overrun.
    private static var resultSize: Int { max(8, Int(undo__ffi_return_slot_size())) }
    /// The layout of an `ffi_call` scratch: one 8-byte slot per C argument, the result, then
    /// the pointers libffi reads the slots through.
    private static func pointersOffset(_ count: Int) -> Int { 8 * count + resultSize }
    private static func scratchSize(_ count: Int) -> Int { 8 * count + resultSize + 8 * count }

    /// The scratch a call needs before its string and bytes copies.
    private var fixedScratchSize: Int { callsInRegisters ? Self.registerFileSize : Self.scratchSize(cArgumentCount) }

    /// Makes the call whose arguments are in `scratch` (laid out by `slotOffsets`).
    @inline(__always)
    private func invoke(_ scratch: UnsafeMutableRawPointer) -> Int32 {
        if callsInRegisters {
            return undo__call_in_registers(address, scratch.assumingMemoryBound(to: UInt64.self),
                                           (scratch + 8 * Self.generalRegisters).assumingMemoryBound(to: Double.self))
        }
        let result = scratch + 8 * cArgumentCount
        result.storeBytes(of: 0, as: UInt64.self)
        let pointers = (scratch + Self.pointersOffset(cArgumentCount)).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        let function = unsafeBitCast(address, to: (@convention(c) () -> Void).self)
        ffi_call(cif, function, result, pointers)
        return Int32(truncatingIfNeeded: result.load(as: UInt64.self))
    }

    /// Stores a number in its slot: 32-bit integers widened to the 64-bit slot (sign-extended or
    /// zero-extended, as the calling convention's register would hold them).
    @inline(__always)
    private static func store(_ value: ActionValue, at slot: UnsafeMutableRawPointer) {
        switch value {
        case .i32(let v): slot.storeBytes(of: Int64(v), as: Int64.self)
        case .u32(let v): slot.storeBytes(of: UInt64(v), as: UInt64.self)
        case .i64(let v): slot.storeBytes(of: v, as: Int64.self)
        case .u64(let v): slot.storeBytes(of: v, as: UInt64.self)
        case .f64(let v): slot.storeBytes(of: v, as: Double.self)
        case .string, .bytes: preconditionFailure("arguments were not checked")
        }
    }

    /// Calls a function of numbers only through its prepared scratch: only the values are stored.
    /// - Precondition: the plugin's call lock is held and `prepared` is not in use.
    private func callWithPreparedSlots(_ call: UnsafeMutablePointer<undo_call>,
                                       _ values: UnsafeMutableBufferPointer<ActionValue>) -> Int32 {
        let block = prepared!
        preparedInUse = true
        defer { preparedInUse = false }
        block.storeBytes(of: UnsafeMutableRawPointer(call), toByteOffset: slotOffsets[0], as: UnsafeMutableRawPointer.self)
        for index in 0..<values.count {
            Self.store(values[index], at: block + slotOffsets[index + 1])
        }
        return invoke(block)
    }

    /// Calls the function with the arguments of a step (see ``call(_:_:)-(_,Values)``), through
    /// the prepared scratch when it takes numbers only. Only with the plugin's call lock held
    /// (``LoadedPlugin/beginCall(_:action:context:)``), which is what keeps the prepared scratch
    /// to one call at a time; a nested call on the same thread uses its own.
    @inline(__always)
    func call(_ call: UnsafeMutablePointer<undo_call>, _ values: UnsafeMutableBufferPointer<ActionValue>) -> Int32 {
        // The count was checked when the step was made (ActionArguments, makeCommand).
        if prepared != nil && !preparedInUse { return callWithPreparedSlots(call, values) }
        if callsInRegisters && values.count == 1, case .string(var text) = values[0] {
            return callWithString(call, &text)
        }
        return self.call(call, values[...])
    }

    /// Calls a function of one number with the number's slot bits (``ActionValue/numberBits``),
    /// as ``call(_:_:)-(_,UnsafeMutableBufferPointer<ActionValue>)`` with that value: a step
    /// stored inline in its command.
    @inline(__always)
    func call(_ call: UnsafeMutablePointer<undo_call>, numberBits bits: UInt64) -> Int32 {
        switch oneRegister {
        case .integer: return undo__call_one_integer(address, call, bits)
        case .double: return undo__call_one_double(address, call, Double(bitPattern: bits))
        case .no: break
        }
        guard let block = prepared, !preparedInUse else {
            // A nested call on this thread (the scratch is in use): through the general path.
            var value = ActionValue(numberBits: bits, type: parameterTypes[0])
            return withUnsafeMutablePointer(to: &value) {
                self.call(call, UnsafeMutableBufferPointer(start: $0, count: 1))
            }
        }
        preparedInUse = true
        defer { preparedInUse = false }
        block.storeBytes(of: UnsafeMutableRawPointer(call), toByteOffset: slotOffsets[0], as: UnsafeMutableRawPointer.self)
        block.storeBytes(of: bits, toByteOffset: slotOffsets[1], as: UInt64.self)
        return invoke(block)
    }

    /// Calls a function of one string with `text`: its bytes in one register where the route
    /// allows, else as a string value through the general path.
    @inline(__always)
    func call(_ call: UnsafeMutablePointer<undo_call>, _ text: AppendedText) -> Int32 {
        if oneRegister == .integer {
            return text.withBytes { undo__call_one_integer(address, call, UInt64(UInt(bitPattern: $0.baseAddress))) }
        }
        var value = ActionValue.string(text.withBytes { String(decoding: $0, as: UTF8.self) })
        return withUnsafeMutablePointer(to: &value) { self.call(call, UnsafeMutableBufferPointer(start: $0, count: 1)) }
    }

    /// Calls a function of one string in registers, passing the string's own NUL-terminated
    /// UTF-8 (checked free of NUL bytes when the step was made): no copy for a native string.
    private func callWithString(_ call: UnsafeMutablePointer<undo_call>, _ text: inout String) -> Int32 {
        withUnsafeTemporaryAllocation(byteCount: Self.registerFileSize, alignment: 16) { scratch in
            let base = scratch.baseAddress!
            base.initializeMemory(as: UInt8.self, repeating: 0, count: Self.registerFileSize)
            base.storeBytes(of: UnsafeMutableRawPointer(call), toByteOffset: slotOffsets[0], as: UnsafeMutableRawPointer.self)
            return text.withCString { pointer in
                base.storeBytes(of: pointer, toByteOffset: slotOffsets[1], as: UnsafePointer<CChar>.self)
                return invoke(base)
            }
        }
    }

    /// Calls the function with `call` first and `values`, which must already have exactly the
    /// parameter types (``ActionArguments`` checks them). Strings are passed as NUL-terminated
    /// copies and bytes as a copy with its size; all of it lives until the call returns.
    /// - Returns: the function's `int32_t` result.
    /// - Complexity: O(bytes of the string and bytes values); no heap allocation when those
    ///   are small (the slots and the copies are on the stack).
    func call<Values: RandomAccessCollection>(_ call: UnsafeMutablePointer<undo_call>, _ values: Values) -> Int32
        where Values.Element == ActionValue
    {
        precondition(values.count == parameterTypes.count, "arguments were not checked")
        // The copies of strings and bytes, each with a NUL after it, in one buffer.
        var copyBytes = 0
        if copiesValues { for value in values {
            switch value {
            case .string(let s): copyBytes += s.utf8.count + 1
            case .bytes(let b): copyBytes += b.count + 1
            default: break
            }
        } }
        let fixedBytes = fixedScratchSize
        return withUnsafeTemporaryAllocation(byteCount: fixedBytes + copyBytes, alignment: 16) { scratch in
            let base = scratch.baseAddress!
            // Registers the function does not read are loaded all the same: zeroed, not left
            // undefined.
            if callsInRegisters { base.initializeMemory(as: UInt8.self, repeating: 0, count: fixedBytes) }
            var copies = base + fixedBytes
            var index = 0
            func slot() -> UnsafeMutableRawPointer {
                let pointer = base + slotOffsets[index]
                if !callsInRegisters {
                    (base + Self.pointersOffset(cArgumentCount)).storeBytes(
                        of: pointer, toByteOffset: 8 * index, as: UnsafeMutableRawPointer.self)
                }
                index += 1
                return pointer
            }
            func copy(_ source: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
                let destination = copies
                if let from = source.baseAddress, source.count > 0 {
                    destination.copyMemory(from: from, byteCount: source.count)
                }
                destination.storeBytes(of: 0, toByteOffset: source.count, as: UInt8.self)
                copies += source.count + 1
                return destination
            }
            slot().storeBytes(of: UnsafeMutableRawPointer(call), as: UnsafeMutableRawPointer.self)
            for value in values {
                switch value {
                case .string(var s):
                    let pointer = s.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
                    slot().storeBytes(of: pointer, as: UnsafeMutableRawPointer.self)
                case .bytes(let b):
                    // Never NULL, even when empty, so a plugin may always read `size` bytes.
                    let pointer = b.withUnsafeBytes { copy($0) }
                    slot().storeBytes(of: pointer, as: UnsafeMutableRawPointer.self)
                    slot().storeBytes(of: UInt64(b.count), as: UInt64.self)
                default:
                    Self.store(value, at: slot())
                }
            }
            return invoke(base)
        }
    }
}

/// libffi could not prepare a call interface.
struct FFIError: Error, Sendable {
    var status: Int
}
