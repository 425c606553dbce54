import CLibFFI
import UndoPluginABI

/// One C function of a plugin (a perform or an inverse) with its prepared libffi call
/// interface: the only place the host calls through libffi.
///
/// The C signature is `int32_t f(undo_call *call, <one C parameter per value>)`, where a
/// `bytes` value is two C parameters (`const void *data, uint64_t size`). The `ffi_cif` and its
/// type array are prepared once, at registration, and live as long as this object.
final class FFIFunction: @unchecked Sendable {
    let address: UnsafeRawPointer
    let parameterTypes: [ActionValueType]
    private let cif: UnsafeMutablePointer<ffi_cif>
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    private let cArgumentCount: Int
    /// Whether a parameter is a string or bytes (whose values are copied for the call).
    private let copiesValues: Bool
    /// For functions of numbers only: slots, result and the pointers to the slots, prepared
    /// once (see ``callWithPreparedSlots(_:_:)``); `nil` when a parameter is a string or bytes.
    private let prepared: UnsafeMutableRawPointer?
    /// Whether a call is using `prepared` (changed only with the plugin's call lock held).
    @exclusivity(unchecked) private var preparedInUse = false

    /// Prepares the call interface.
    /// - Throws: when libffi refuses it (it should not, for these types).
    init(address: UnsafeRawPointer, parameters: [ActionValueType]) throws(FFIError) {
        self.address = address
        self.parameterTypes = parameters
        let count = 1 + parameters.reduce(0) { $0 + ($1 == .bytes ? 2 : 1) }
        cArgumentCount = count
        copiesValues = parameters.contains { $0 == .string || $0 == .bytes }
        let types = UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>.allocate(capacity: count)
        var index = 0
        func append(_ type: UnsafeMutablePointer<ffi_type>) {
            types[index] = type
            index += 1
        }
        append(undo__ffi_type_pointer()) // undo_call *
        for parameter in parameters {
            switch parameter {
            case .i32: append(undo__ffi_type_sint32())
            case .u32: append(undo__ffi_type_uint32())
            case .i64: append(undo__ffi_type_sint64())
            case .u64: append(undo__ffi_type_uint64())
            case .f64: append(undo__ffi_type_double())
            case .string: append(undo__ffi_type_pointer())
            case .bytes:
                append(undo__ffi_type_pointer())
                append(undo__ffi_type_uint64())
            }
        }
        argumentTypes = types
        if copiesValues {
            prepared = nil
        } else {
            let block = UnsafeMutableRawPointer.allocate(byteCount: Self.scratchSize(count), alignment: 16)
            let pointers = (block + Self.pointersOffset(count)).bindMemory(to: UnsafeMutableRawPointer?.self, capacity: count)
            for index in 0..<count { pointers[index] = block + 8 * index }
            prepared = block
        }
        cif = .allocate(capacity: 1)
        let status = ffi_prep_cif(cif, undo__ffi_default_abi(), UInt32(count), undo__ffi_type_sint32(),
                                  argumentTypes)
        guard status == FFI_OK else {
            cif.deallocate()
            argumentTypes.deallocate()
            prepared?.deallocate()
            throw FFIError(status: Int(status.rawValue))
        }
    }

    deinit {
        cif.deallocate()
        argumentTypes.deallocate()
        prepared?.deallocate()
    }

    /// libffi widens integer results to a full ffi_arg: a 4-byte slot would be overrun.
    private static var resultSize: Int { max(8, Int(undo__ffi_return_slot_size())) }
    /// The layout of a call's scratch: one 8-byte slot per C argument, the result, then the
    /// pointers libffi reads the slots through.
    private static func pointersOffset(_ count: Int) -> Int { 8 * count + resultSize }
    private static func scratchSize(_ count: Int) -> Int { 8 * count + resultSize + 8 * count }

    /// Calls a function of numbers only through its prepared slots: only the values are stored.
    /// - Precondition: the plugin's call lock is held and `prepared` is not in use.
    private func callWithPreparedSlots(_ call: UnsafeMutablePointer<undo_call>,
                                       _ values: UnsafeMutableBufferPointer<ActionValue>) -> Int32 {
        let block = prepared!
        preparedInUse = true
        defer { preparedInUse = false }
        block.storeBytes(of: UnsafeMutableRawPointer(call), as: UnsafeMutableRawPointer.self)
        var slot = block + 8
        for value in values {
            switch value {
            case .i32(let v): slot.storeBytes(of: v, as: Int32.self)
            case .u32(let v): slot.storeBytes(of: v, as: UInt32.self)
            case .i64(let v): slot.storeBytes(of: v, as: Int64.self)
            case .u64(let v): slot.storeBytes(of: v, as: UInt64.self)
            case .f64(let v): slot.storeBytes(of: v, as: Double.self)
            case .string, .bytes: preconditionFailure("arguments were not checked")
            }
            slot += 8
        }
        let result = block + 8 * cArgumentCount
        result.storeBytes(of: 0, as: UInt64.self)
        let pointers = (block + Self.pointersOffset(cArgumentCount)).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        let function = unsafeBitCast(address, to: (@convention(c) () -> Void).self)
        ffi_call(cif, function, result, pointers)
        return Int32(truncatingIfNeeded: result.load(as: UInt64.self))
    }

    /// Calls the function with the arguments of a step (see ``call(_:_:)-(_,Values)``), through
    /// the prepared slots when it takes numbers only. Only with the plugin's call lock held
    /// (``LoadedPlugin/beginCall(_:action:context:)``), which is what keeps the prepared slots
    /// to one call at a time; a nested call on the same thread uses its own.
    func call(_ call: UnsafeMutablePointer<undo_call>, _ values: UnsafeMutableBufferPointer<ActionValue>) -> Int32 {
        precondition(values.count == parameterTypes.count, "arguments were not checked")
        if prepared != nil && !preparedInUse { return callWithPreparedSlots(call, values) }
        return self.call(call, values[...])
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
        let resultSize = Self.resultSize
        // One 8-byte slot per C argument, the result, and the pointers libffi reads them through.
        let fixedBytes = 8 * cArgumentCount + resultSize + 8 * cArgumentCount
        return withUnsafeTemporaryAllocation(byteCount: fixedBytes + copyBytes, alignment: 16) { scratch in
            let base = scratch.baseAddress!
            let slots = base
            let result = base + 8 * cArgumentCount
            let slotPointers = (result + resultSize).bindMemory(to: UnsafeMutableRawPointer?.self,
                                                               capacity: cArgumentCount)
            var copies = base + fixedBytes
            var index = 0
            func slot() -> UnsafeMutableRawPointer {
                let pointer = slots + 8 * index
                slotPointers[index] = pointer
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
                case .i32(let v): slot().storeBytes(of: v, as: Int32.self)
                case .u32(let v): slot().storeBytes(of: v, as: UInt32.self)
                case .i64(let v): slot().storeBytes(of: v, as: Int64.self)
                case .u64(let v): slot().storeBytes(of: v, as: UInt64.self)
                case .f64(let v): slot().storeBytes(of: v, as: Double.self)
                case .string(var s):
                    let pointer = s.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
                    slot().storeBytes(of: pointer, as: UnsafeMutableRawPointer.self)
                case .bytes(let b):
                    // Never NULL, even when empty, so a plugin may always read `size` bytes.
                    let pointer = b.withUnsafeBytes { copy($0) }
                    slot().storeBytes(of: pointer, as: UnsafeMutableRawPointer.self)
                    slot().storeBytes(of: UInt64(b.count), as: UInt64.self)
                }
            }
            result.storeBytes(of: 0, as: UInt64.self)
            let function = unsafeBitCast(address, to: (@convention(c) () -> Void).self)
            ffi_call(cif, function, result, slotPointers)
            return Int32(truncatingIfNeeded: result.load(as: UInt64.self))
        }
    }
}

/// libffi could not prepare a call interface.
struct FFIError: Error, Sendable {
    var status: Int
}
