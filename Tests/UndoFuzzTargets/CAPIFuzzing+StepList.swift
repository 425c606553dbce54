import UndoHostAPI
import UndoPluginABI

// Reading the step list back through the C API: undo_history_step and
// undo_history_step_argument, for every step and every argument.

extension CAPISession {
    /// Reads every step (undo_history_step) and every argument and inverse argument of each
    /// (undo_history_step_argument) three times: with NULL buffers, which gives the lengths;
    /// with buffers of exactly the length plus the NUL; and with small ones that cut the texts.
    /// The lengths, counts, flags and types must agree between the three, the texts be
    /// NUL-terminated, valid UTF-8 and cut at a character boundary, nothing be written past a
    /// capacity or past a 1.0 struct_size, and the first index past the list (and past a step's
    /// arguments) be refused with UNDO_ERANGE.
    ///
    /// Reads no input: inputs saved before it (seeds, regressions) make the same calls as before.
    mutating func checkStepList(_ h: OpaquePointer) throws(FuzzInvariantViolation) {
        var index: UInt64 = 0
        while true {
            let listed = StepRead(size: StepRead.fullSize)
            defer { listed.release() }
            let code = undo_history_step(h, index, listed.info)
            if code == UNDO_ERANGE { break }
            try require(code == UNDO_OK, "step \(index): \(code)")
            try checkStep(h, index: index, listed: listed)
            index += 1
            try require(index <= 1_000_000, "the step list does not end")
        }
        let arg = ArgumentRead()
        defer { arg.release() }
        try require(undo_history_step_argument(h, index, UInt32(UNDO_STEP_ARGUMENTS), 0, arg.argument) == UNDO_ERANGE,
                    "step_argument past the last step was not refused with UNDO_ERANGE")
    }

    private func checkStep(_ h: OpaquePointer, index: UInt64, listed: StepRead) throws(FuzzInvariantViolation) {
        let lengths = listed.lengths
        // Exactly the size of each text, then small buffers that cut them.
        let whole = StepRead(size: StepRead.fullSize, capacities: lengths.map { $0 == UNDO_NO_NAME ? 0 : $0 + 1 })
        defer { whole.release() }
        try require(undo_history_step(h, index, whole.info) == UNDO_OK, "step \(index) with whole buffers")
        try require(whole.lengths == lengths, "step \(index): lengths \(lengths), then \(whole.lengths)")
        try require(whole.numbers == listed.numbers, "step \(index): flags or counts changed between two reads")
        let texts = try whole.texts(index)
        for capacity: UInt32 in [1, 2, 3, 7] {
            let cut = StepRead(size: StepRead.fullSize, capacities: lengths.map { _ in capacity })
            defer { cut.release() }
            try require(undo_history_step(h, index, cut.info) == UNDO_OK, "step \(index) with capacity \(capacity)")
            try require(cut.lengths == lengths, "step \(index): lengths with capacity \(capacity)")
            for field in texts.indices where lengths[field] != UNDO_NO_NAME {
                try checkCut(cut.buffers[field], capacity: capacity, whole: texts[field],
                             "step \(index) field \(field)")
            }
        }
        // A 1.0-sized struct gets the first fields only: the fields added since are not written.
        let old = StepRead(size: StepRead.firstSize)
        defer { old.release() }
        try require(undo_history_step(h, index, old.info) == UNDO_OK, "step \(index) with a 1.0 struct_size")
        try require(old.untouchedTail, "step \(index): written past a 1.0 struct_size")
        try require(Array(old.lengths.prefix(3)) == Array(lengths.prefix(3)), "step \(index): 1.0 lengths differ")

        let info = listed.info.pointee
        if lengths[4] == UNDO_NO_NAME {
            try require(info.argument_count == 0 && info.inverse_argument_count == 0,
                        "step \(index) is no plugin step but has arguments")
        }
        for (which, count) in [(UNDO_STEP_ARGUMENTS, info.argument_count),
                               (UNDO_STEP_INVERSE_ARGUMENTS, info.inverse_argument_count)] {
            try require(count <= UInt32(UNDO_MAX_PARAMS), "step \(index): \(count) arguments")
            for argument in 0...count {
                try checkArgument(h, index: index, which: UInt32(which), argument: argument, count: count)
            }
        }
        let bad = ArgumentRead()
        defer { bad.release() }
        try require(undo_history_step_argument(h, index, 2, 0, bad.argument) == UNDO_EINVAL,
                    "step_argument with which 2 was not refused with UNDO_EINVAL")
    }

    /// Argument `argument` of step `index`; `argument == count` must be refused.
    private func checkArgument(_ h: OpaquePointer, index: UInt64, which: UInt32, argument: UInt32, count: UInt32)
        throws(FuzzInvariantViolation)
    {
        let what = "step \(index) \(which == 0 ? "argument" : "inverse argument") \(argument)"
        let first = ArgumentRead()
        defer { first.release() }
        let code = undo_history_step_argument(h, index, which, argument, first.argument)
        guard argument < count else {
            return try require(code == UNDO_ERANGE, "\(what) of \(count): \(code), not UNDO_ERANGE")
        }
        try require(code == UNDO_OK, "\(what): \(code)")
        let type = first.argument.pointee.type
        let isData = type == UInt32(UNDO_TYPE_STRING) || type == UInt32(UNDO_TYPE_BYTES)
        let size = first.argument.pointee.value.as.bytes.size
        try require(first.argument.pointee.value.type == type, "\(what): value.type \(first.argument.pointee.value.type), type \(type)")
        if isData { try require(first.argument.pointee.value.as.bytes.data == nil, "\(what): data without a buffer") }
        let nameLength = first.argument.pointee.name_length
        let textLength = first.argument.pointee.text_length
        // Whole buffers: the texts and the data, all of it.
        let dataCapacity = isData ? size + (type == UInt32(UNDO_TYPE_STRING) ? 1 : 0) : 0
        let whole = ArgumentRead(name: nameLength + 1, text: textLength + 1, data: dataCapacity)
        defer { whole.release() }
        try require(undo_history_step_argument(h, index, which, argument, whole.argument) == UNDO_OK, "\(what) whole")
        let read = whole.argument.pointee
        try require(read.type == type && read.name_length == nameLength && read.text_length == textLength,
                    "\(what): type or lengths changed between two reads")
        let name = try Self.text(read.name, length: nameLength, what + " name")
        let text = try Self.text(read.text, length: textLength, what + " text")
        try require(!name.isEmpty && !text.isEmpty, "\(what): an empty name or text")
        if isData {
            try require(read.value.as.bytes.size == size, "\(what): size \(size), then \(read.value.as.bytes.size)")
            try require(read.value.as.bytes.data == UnsafeRawPointer(read.data), "\(what): the data does not point into the buffer")
            if type == UInt32(UNDO_TYPE_STRING) {
                try require(read.data[Int(size)] == 0, "\(what): the string is not NUL-terminated")
            }
        }
        // Small buffers: the texts cut, and data that does not fit is not pointed to.
        let small = ArgumentRead(name: min(nameLength, 2), text: min(textLength, 3), data: dataCapacity > 0 ? dataCapacity - 1 : 0)
        defer { small.release() }
        try require(undo_history_step_argument(h, index, which, argument, small.argument) == UNDO_OK, "\(what) small")
        let cut = small.argument.pointee
        try require(cut.name_length == nameLength && cut.text_length == textLength, "\(what): lengths with small buffers")
        try checkCut(cut.name, capacity: min(nameLength, 2), whole: Array(name.utf8), what + " name")
        try checkCut(cut.text, capacity: min(textLength, 3), whole: Array(text.utf8), what + " text")
        if isData && dataCapacity > 0 {
            try require(cut.value.as.bytes.data == nil, "\(what): data that does not fit is pointed to")
            try require(cut.value.as.bytes.size == size, "\(what): size with a small buffer")
        }
    }

    /// A text of `length` bytes written whole into `buffer`.
    static func text(_ buffer: UnsafeMutablePointer<CChar>?, length: UInt32, _ what: String) throws(FuzzInvariantViolation) -> String {
        guard let buffer else { throw FuzzInvariantViolation("\(what): no buffer") }
        try require(buffer[Int(length)] == 0, "\(what): not NUL-terminated at its length \(length)")
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: Int(length))
        try require(!bytes.contains(0), "\(what): a NUL inside")
        guard let text = String(validating: bytes, as: UTF8.self) else { throw FuzzInvariantViolation("\(what): not UTF-8") }
        return text
    }

    /// What a buffer of `capacity` bytes holds of `whole`: as much as fits without ending
    /// inside a UTF-8 sequence, and a NUL (nothing at all when the capacity is 0).
    private func checkCut(_ buffer: UnsafeMutablePointer<CChar>?, capacity: UInt32, whole: [UInt8], _ what: String)
        throws(FuzzInvariantViolation)
    {
        guard capacity > 0, let buffer else { return }
        let bytes = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
        guard let written = (0..<Int(capacity)).first(where: { bytes[$0] == 0 }) else {
            throw FuzzInvariantViolation("\(what): no NUL within capacity \(capacity)")
        }
        var fitting = min(whole.count, Int(capacity) - 1)
        while fitting > 0 && fitting < whole.count && whole[fitting] & 0xC0 == 0x80 { fitting -= 1 }
        try require(written == fitting, "\(what): wrote \(written) of \(whole.count) bytes with capacity \(capacity), expected \(fitting)")
        try require(UnsafeBufferPointer(start: bytes, count: written).elementsEqual(whole.prefix(written)),
                    "\(what): the written text is not a prefix of the whole")
    }
}

/// One undo_step_info and its five text buffers (name, display name, context, description,
/// action id), each allocated at exactly its capacity so ASan sees any overrun; the struct is
/// allocated at its full size with a marked tail past a smaller struct_size.
///
/// Invariants: `info` and every non-nil buffer are allocated until ``release()``; the info's
/// pointers and capacities are these buffers and their sizes.
struct StepRead {
    static let firstSize = MemoryLayout<undo_step_info>.offset(of: \.reserved)! + 4 * MemoryLayout<UnsafeRawPointer>.size
    static let fullSize = MemoryLayout<undo_step_info>.size
    static let tailMark: UInt8 = 0xA5

    let info: UnsafeMutablePointer<undo_step_info>
    let size: Int
    var buffers: [UnsafeMutablePointer<CChar>?] = []

    init(size: Int, capacities: [UInt32] = [0, 0, 0, 0, 0]) {
        self.size = size
        info = .allocate(capacity: 1)
        let raw = UnsafeMutableRawPointer(info)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        raw.advanced(by: size).initializeMemory(as: UInt8.self, repeating: Self.tailMark, count: Self.fullSize - size)
        info.pointee.struct_size = UInt32(size)
        buffers = capacities.map { capacity in
            guard capacity > 0 else { return nil }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(capacity))
            buffer.initialize(repeating: 0x7F, count: Int(capacity))
            return buffer
        }
        info.pointee.name = buffers[0]
        info.pointee.name_capacity = capacities[0]
        info.pointee.display_name = buffers[1]
        info.pointee.display_name_capacity = capacities[1]
        info.pointee.context = buffers[2]
        info.pointee.context_capacity = capacities[2]
        if size == Self.fullSize {
            info.pointee.description = buffers[3]
            info.pointee.description_capacity = capacities[3]
            info.pointee.action_id = buffers[4]
            info.pointee.action_id_capacity = capacities[4]
        }
        assert(buffers.count == 5 && size <= Self.fullSize)
    }

    /// The five texts' full lengths (UNDO_NO_NAME when there is none).
    var lengths: [UInt32] {
        let info = info.pointee
        return [info.name_length, info.display_name_length, info.context_length, info.description_length, info.action_id_length]
    }

    var numbers: [UInt32] {
        let info = info.pointee
        return [info.flags, info.serial, info.member_count, info.argument_count, info.inverse_argument_count]
    }

    /// Whether nothing past a struct_size smaller than the full one was written.
    var untouchedTail: Bool {
        let raw = UnsafeRawPointer(info)
        return (size..<Self.fullSize).allSatisfy { raw.load(fromByteOffset: $0, as: UInt8.self) == Self.tailMark }
    }

    /// The texts, read from buffers of their exact size (empty for a text there is none of).
    func texts(_ index: UInt64) throws(FuzzInvariantViolation) -> [[UInt8]] {
        var all: [[UInt8]] = []
        for (field, length) in lengths.enumerated() {
            guard length != UNDO_NO_NAME else { all.append([]); continue }
            all.append(Array(try CAPISession.text(buffers[field], length: length, "step \(index) field \(field)").utf8))
        }
        return all
    }

    func release() {
        info.deallocate()
        for buffer in buffers { buffer?.deallocate() }
    }
}

/// One undo_step_argument and its name, text and data buffers, each allocated at exactly its
/// capacity (nil for 0). Invariants: as ``StepRead``'s.
struct ArgumentRead {
    let argument: UnsafeMutablePointer<undo_step_argument>

    init(name: UInt32 = 0, text: UInt32 = 0, data: UInt64 = 0) {
        argument = .allocate(capacity: 1)
        argument.initialize(to: undo_step_argument())
        argument.pointee.struct_size = UInt32(MemoryLayout<undo_step_argument>.size)
        argument.pointee.name = Self.buffer(Int(name))
        argument.pointee.name_capacity = name
        argument.pointee.text = Self.buffer(Int(text))
        argument.pointee.text_capacity = text
        argument.pointee.data = Self.buffer(Int(data)).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt8.self) }
        argument.pointee.data_capacity = data
    }

    private static func buffer(_ capacity: Int) -> UnsafeMutablePointer<CChar>? {
        guard capacity > 0 else { return nil }
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0x7F, count: capacity)
        return buffer
    }

    func release() {
        argument.pointee.name?.deallocate()
        argument.pointee.text?.deallocate()
        argument.pointee.data?.deallocate()
        argument.deallocate()
    }
}
