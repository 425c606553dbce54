#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UndoHostAPI
import UndoPluginABI

/// Fuzzes the C API (undo_host.h) with a random sequence of calls on a few handle slots: live
/// histories, destroyed ones kept as stale handles, and handles that never were. libundohost's
/// code (the UndoHostC target) is linked in, so ASan and the fuzzer's coverage see all of it;
/// the bundled plugins are loaded from the program's folder.
///
/// Checked after every call: the code is UNDO_OK, a count, or one of the documented UNDO_E*
/// codes; stale and foreign handles get UNDO_EHANDLE; undo_history_last_error explains every
/// failure and is "" after a success; text written into a buffer is a NUL-terminated,
/// valid-UTF-8 prefix of the full text no longer than the capacity allows; growable structs are
/// not written past their struct_size (buffers are allocated at their exact size, so ASan sees
/// any overrun); a refused undo, redo or perform leaves the titles as they were. At the end,
/// undoing everything and redoing it again brings every document back to what it showed.
public enum CAPIFuzzing {
    static func run(_ data: UnsafeRawBufferPointer) throws(FuzzInvariantViolation) {
        _ = try transcript(of: data)
    }

    /// Runs one input, as the fuzzer does, and returns what it saw. An input must see the same
    /// whenever it runs (first in a process, or after any other inputs), or a crash the fuzzer
    /// saves would not reproduce; FuzzRegressionTests checks it.
    public static func transcript(of data: UnsafeRawBufferPointer) throws(FuzzInvariantViolation) -> CAPITranscript {
        var session = CAPISession(input: FuzzInput(data))
        defer { session.destroyAll() }
        try session.play()
        return session.transcript
    }

    /// The most calls one input makes: enough for long sessions, bounded so a run stays fast.
    static let maximumCalls = 400
}

/// One fuzz run's handles and the objects that must outlive them.
struct CAPISession {
    var input: FuzzInput

    enum Slot {
        case empty
        case live(OpaquePointer)
        /// Destroyed: every call with it must be refused.
        case stale(OpaquePointer)
    }
    var slots: [Slot] = [.empty, .empty, .empty]
    /// Contexts each slot's calls used successfully, for the final round trip.
    var contexts: [Set<String>] = [[], [], []]
    /// Observers' user data: alive until the run ends (after the histories are destroyed).
    var probes: [ObserverProbe] = []
    /// Performs made so far: every other one goes through undo_history_perform_v2 (chosen
    /// without reading input, so inputs saved before make the same calls).
    var performs = 0
    /// Every code and text the run saw.
    let transcript = CAPITranscript()
    /// The titles a refused perform, undo or redo left, taken after it to compare: when the
    /// next step is another of these on the same history, with only reads between, they are
    /// what it must leave unchanged, and reading them again would only repeat the same calls.
    /// Any other step drops them.
    var carriedTitles: (handle: OpaquePointer, titles: Titles)?

    init(input: FuzzInput) { self.input = input }

    // MARK: Vocabulary

    static let actionIDs = [
        "text.insert", "text.delete", "text.bold", "text.italic", "canvas.add", "canvas.remove", "canvas.move",
        "canvas.recolor", "notes.write", "notes.erase", "notes.prioritize", "insert", "org.undohost.text/insert",
        "org.undohost.canvas/move", "bench.add", "nope", "text.", ".insert", "/", "",
    ]
    static let contextNames = ["", "a.txt", "b", "文書", "a.txt ", "x/y"]
    static let pluginIDs = ["org.undohost.text", "org.undohost.canvas", "org.undohost.notes", "org.undohost.nope", ""]

    /// The folder of this program, where SwiftPM puts the plugins it builds.
    static let productsFolder: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "." }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }()

    /// The bundled plugins' files, in the products folder.
    static let pluginFiles: [(name: String, path: String)] = ["TextEditor", "Canvas", "SwiftNotes"].map {
        ($0, productsFolder + "/libUndoPlugin\($0).so")
    }

    // MARK: Playing

    mutating func play() throws(FuzzInvariantViolation) {
        var calls = 0
        while !input.isAtEnd && calls < CAPIFuzzing.maximumCalls {
            calls += 1
            try step()
        }
        for index in slots.indices {
            if case .live(let handle) = slots[index] {
                try checkRoundTrip(handle, contexts: contexts[index])
            }
        }
    }

    /// Destroys the live histories; their handles must then be refused.
    mutating func destroyAll() {
        for index in slots.indices {
            if case .live(let handle) = slots[index] {
                _ = undo_history_destroy(handle)
                slots[index] = .stale(handle)
            }
        }
    }

    private mutating func step() throws(FuzzInvariantViolation) {
        let carried = carriedTitles
        carriedTitles = nil
        let slot = input.choice(slots.count)
        let operationByte = input.byte()
        let operation = Int(operationByte) % 24
        // Making a history with plugins costs as much as dozens of calls, and the calls on a
        // history are what most of an input explores: so histories are made and destroyed by a
        // few byte values, never by the byte 0. That one is the commonest of all in a grown
        // corpus (libFuzzer pads and inserts zeros: 8.6% of the bytes, where a uniform byte
        // would be 0.4%), and when it made a history, inputs made one every dozen calls.
        switch slots[slot] {
        case .empty:
            try create(in: slot)
        case .stale(let handle):
            // A new history in a destroyed one's slot: for the 10 byte values that choose
            // operation 0, the byte 0 aside.
            if operation == 0 && operationByte != 0 {
                try create(in: slot)
                return
            }
            try checkRefused(handle, operation: operation)
        case .live(let handle):
            // A new history in place of a live one: for 96 and 192 (the others that choose
            // operation 0 check the titles).
            if operationByte == 96 || operationByte == 192 {
                try create(in: slot)
                return
            }
            if input.choice(16) == 0 {
                // A handle that never was: random bits, or a live one with another generation.
                let bits = input.bool() ? UInt(input.integer(UInt64.self)) : UInt(bitPattern: Int(bitPattern: handle)) ^ (1 << 20)
                guard let foreign = OpaquePointer(bitPattern: bits), !isLive(foreign) else { return }
                try checkRefused(foreign, operation: operation)
                return
            }
            // Only a perform, undo or redo takes the titles before it; their calls before
            // that (action_count, action_info, action_text) only read.
            if (2...8).contains(operation), let carried, carried.handle == handle { carriedTitles = carried }
            try call(operation, byte: operationByte, on: handle, slot: slot)
        }
    }

    private func isLive(_ handle: OpaquePointer) -> Bool {
        slots.contains { if case .live(let live) = $0 { live == handle } else { false } }
    }

    // MARK: Creating and destroying

    private mutating func create(in slot: Int) throws(FuzzInvariantViolation) {
        if case .live(let old) = slots[slot] {
            try expectCode(undo_history_destroy(old), [UNDO_OK], "destroy")
            try checkRefused(old, operation: input.choice(24))
        }
        slots[slot] = .empty
        contexts[slot] = []

        var handle: OpaquePointer?
        let code: Int32
        switch input.choice(4) {
        case 0:
            code = undo_history_create(nil, &handle)
        case 1:
            code = undo_history_create(nil, nil)
            try expectCode(code, [UNDO_EINVAL], "create with out NULL")
            return
        default:
            code = withOptions { options in undo_history_create(options, &handle) }
        }
        if code != UNDO_OK {
            try require(handle == nil, "a failed create left a handle")
            try checkMessage(nil, code, "create")
            return
        }
        guard let handle else { throw FuzzInvariantViolation("create succeeded without a handle") }
        try checkMessage(nil, code, "create")
        slots[slot] = .live(handle)
        // One byte: its low two bits choose how plugins are loaded; for files, the next three
        // choose which (none set: all three, as every input saved before loaded).
        let plugins = input.byte()
        switch Int(plugins) % 4 {
        case 0:
            break  // no plugins: every action is unknown
        case 1:
            // Not load_folder on the products folder: it also holds libundohost.so itself.
            var loaded: UInt32 = 99
            let folderCode = input.bool()
                ? undo_history_load_bundled(handle, &loaded)
                : "/nonexistent".withCString { undo_history_load_folder(handle, $0, &loaded) }
            try checkCode(folderCode, "load plugins")
            try checkMessage(handle, folderCode, "load plugins")
            try require(loaded < 99, "load plugins did not set the loaded count")
        default:
            // File by file, the plugins the input chose: a history with one or two of them is
            // as telling as one with all three (the others' actions are unknown), and each
            // plugin loaded is most of what making a history costs.
            let chosen = (plugins >> 2) & 7
            for (index, plugin) in Self.pluginFiles.enumerated() where chosen == 0 || chosen & (1 << index) != 0 {
                let code = plugin.path.withCString { undo_history_load_file(handle, $0) }
                try checked(handle, code, "load_file \(plugin.name)")
            }
        }
    }

    /// Calls `body` with undo_history_options in memory of exactly struct_size bytes.
    private mutating func withOptions(_ body: (UnsafePointer<undo_history_options>) -> Int32) -> Int32 {
        let full = MemoryLayout<undo_history_options>.size
        let size = [full, full, CSizes.historyOptionsV1, 8, full + 8][input.choice(5)]
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(size, full), alignment: 8)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, full))
        let options = memory.bindMemory(to: undo_history_options.self, capacity: 1)
        options.pointee.struct_size = UInt32(size)
        options.pointee.flags = input.choice(8) == 0 ? 1 : 0
        options.pointee.count_limit = [0, 1, 2, 5, UInt64.max][input.choice(5)]
        options.pointee.memory_limit = [0, 0, 64, 1024, UInt64.max][input.choice(5)]
        options.pointee.coalescing_window_ms = [0, -1, 1, Int64.max][input.choice(4)]
        if options.pointee.coalescing_window_ms == 1 { transcript.dependsOnClock = true }
        let locales: [String?] = [nil, "", "en", "ko", "ko_KR", "xx", "/nonexistent/de.locale"]
        let locale = locales[input.choice(locales.count)]
        return CStrings.with(locale) { locale in
            options.pointee.locale = locale
            // Bytes past struct_size stay outside what the library may read: fuzz them.
            if size > full { memory.advanced(by: full).storeBytes(of: input.integer(UInt64.self), as: UInt64.self) }
            return body(UnsafePointer(options))
        }
    }

    // MARK: Calls on a live history

    private mutating func call(_ operation: Int, byte: UInt8, on h: OpaquePointer, slot: Int) throws(FuzzInvariantViolation) {
        switch operation {
        case 1 where (byte / 24) % 3 == 0:
            // Destroyed for 4 of the 11 byte values that choose operation 1 (1, 73, 145, 217):
            // a history lives for about 40 calls of its slot.
            try expectCode(undo_history_destroy(h), [UNDO_OK], "destroy")
            slots[slot] = .stale(h)
            try checkRefused(h, operation: input.choice(24))
        case 1, 2, 3, 4:
            try performTyped(h, slot: slot)
        case 5:
            try performRaw(h, slot: slot)
        case 6:
            try performText(h, slot: slot)
        case 7, 8:
            try move(h, undo: operation == 7)
        case 0, 9:
            try checkTitles(h)
            try checkStepList(h)
        case 10:
            let context = randomContext()
            let code = CStrings.with(input.bool() ? randomName() : nil) { name in
                CStrings.with(context) { undo_history_begin_group(h, name, $0) }
            }
            try checked(h, code, "begin_group")
        case 11:
            try checked(h, undo_history_end_group(h), "end_group")
        case 12:
            try checked(h, undo_history_break_coalescing(h), "break_coalescing")
        case 13:
            let context = randomContext()
            let saved = CStrings.with(context) { undo_history_mark_saved(h, $0) }
            try checked(h, saved, "mark_saved")
            let dirty = CStrings.with(context) { undo_history_is_dirty(h, $0) }
            try checked(h, dirty, "is_dirty")
            // Only a save that succeeded makes the document clean (one refused while a group is
            // open leaves it as it was).
            try require(saved != UNDO_OK || dirty == 0 || dirty < 0, "is_dirty right after mark_saved gave \(dirty)")
        case 14:
            let context = randomContext()
            try checked(h, CStrings.with(context) { undo_history_is_dirty(h, $0) }, "is_dirty")
        case 15:
            try revert(h)
        case 16:
            let context = randomContext()
            let code = CStrings.with(context) { undo_history_set_context(h, $0) }
            try checked(h, code, "set_context")
            if code == UNDO_OK, let context { contexts[slot].insert(context) }
            try checkText("get_context") { undo_history_get_context(h, $0, $1) }
        case 17:
            let context = randomContext()
            try checked(h, CStrings.with(context) { undo_history_close_context(h, $0) }, "close_context")
        case 18:
            try observe(h)
        case 19:
            try checked(h, undo_history_unobserve(h, UInt64(input.choice(6))), "unobserve")
        case 20:
            try describe(h, slot: slot)
        case 21:
            try listPlugins(h)
        case 22:
            let id = Self.pluginIDs[input.choice(Self.pluginIDs.count)]
            try checked(h, id.withCString { undo_history_unload(h, $0) }, "unload")
        default:
            try loadFile(h)
        }
    }

    private mutating func performTyped(_ h: OpaquePointer, slot: Int) throws(FuzzInvariantViolation) {
        let count = undo_history_action_count(h)
        try checked(h, count, "action_count")
        guard count > 0 else { return try performRaw(h, slot: slot) }
        let index = UInt32(input.choice(Int(count)))
        let info = UnsafeMutablePointer<undo_action_info>.allocate(capacity: 1)
        defer { info.deallocate() }
        info.initialize(to: undo_action_info())
        info.pointee.struct_size = UInt32(MemoryLayout<undo_action_info>.size)
        try expectCode(undo_history_action_info(h, index, info), [UNDO_OK], "action_info")
        let parameterCount = Int(info.pointee.param_count)
        try require(parameterCount <= Int(UNDO_MAX_PARAMS), "action_info param_count \(parameterCount)")
        let types = withUnsafeBytes(of: info.pointee.param_types) { Array($0.bindMemory(to: UInt32.self).prefix(parameterCount)) }
        let id = try readText("action_text") { undo_history_action_text(h, index, UInt32(UNDO_ACTION_TEXT_SHORT_ID), $0, $1) }
        var arguments = CArguments()
        defer { arguments.release() }
        for type in types { arguments.append(typed: type, from: &input) }
        try perform(h, id: id, arguments: &arguments, slot: slot)
    }

    private mutating func performRaw(_ h: OpaquePointer, slot: Int) throws(FuzzInvariantViolation) {
        let id = input.choice(8) == 0 ? randomName() : Self.actionIDs[input.choice(Self.actionIDs.count)]
        var arguments = CArguments()
        defer { arguments.release() }
        for _ in 0..<input.choice(Int(UNDO_MAX_PARAMS) + 2) { arguments.append(any: &input) }
        try perform(h, id: id, arguments: &arguments, slot: slot)
    }

    private mutating func perform(_ h: OpaquePointer, id: String?, arguments: inout CArguments, slot: Int) throws(FuzzInvariantViolation) {
        let context = randomContext()
        let before = try titlesBefore(h)
        let values = arguments.values
        performs += 1
        var result = undo_perform_result()
        result.struct_size = UInt32(MemoryLayout<undo_perform_result>.size)
        let v2 = performs % 2 == 0
        let code = CStrings.with(id) { id in
            CStrings.with(context) { context in
                values.withUnsafeBufferPointer { values in
                    v2 ? undo_history_perform_v2(h, id, context, values.baseAddress, UInt32(values.count), &result)
                       : undo_history_perform(h, id, context, values.baseAddress, UInt32(values.count))
                }
            }
        }
        try checked(h, code, "perform \(id ?? "NULL")")
        if code == UNDO_OK, let context { contexts[slot].insert(context) }
        if code < 0 { try requireUnchanged(h, before, "a refused perform (\(code)) changed the titles") }
        if v2 {
            let expected: Set<UInt32> = code == UNDO_OK ? [UInt32(UNDO_PERFORM_RECORDED), UInt32(UNDO_PERFORM_OBSOLETE)] : [0]
            try require(expected.contains(result.outcome), "perform_v2 gave \(code) with outcome \(result.outcome)")
            if result.outcome == UInt32(UNDO_PERFORM_OBSOLETE) {
                try requireUnchanged(h, before, "an obsolete perform changed the titles")
            }
        }
    }

    private mutating func performText(_ h: OpaquePointer, slot: Int) throws(FuzzInvariantViolation) {
        let id = Self.actionIDs[input.choice(Self.actionIDs.count)]
        let context = randomContext()
        let text = input.bool() ? randomName() : nil
        let before = try titlesBefore(h)
        let code = CStrings.with(id) { id in
            CStrings.with(context) { context in CStrings.with(text) { undo_history_perform_text(h, id, context, $0) } }
        }
        try checked(h, code, "perform_text")
        if code == UNDO_OK, let context { contexts[slot].insert(context) }
        if code < 0 { try requireUnchanged(h, before, "a refused perform_text (\(code)) changed the titles") }
    }

    private mutating func move(_ h: OpaquePointer, undo: Bool) throws(FuzzInvariantViolation) {
        let count = UInt32([0, 1, 1, 1, 2, 3, 100, UInt32.max][input.choice(8)])
        let before = try titlesBefore(h)
        var request = ResultRequest(&input)
        defer { request.release() }
        let code = undo ? undo_history_undo(h, count, request.pointer) : undo_history_redo(h, count, request.pointer)
        let what = undo ? "undo" : "redo"
        try checked(h, code, what)
        try request.check(code: code, what)
        if code < 0 && code != UNDO_EEMPTY || count == 0 {
            try requireUnchanged(h, before, "a refused \(what) (\(code)) changed the titles")
        }
        if code == UNDO_OK {
            try require(request.pointer == nil || request.stepCount > 0, "\(what) succeeded with step_count 0")
            if request.changeCount > 0 {
                let index = UInt32(input.choice(Int(request.changeCount) + 1))
                let changeCode = try readTextCode("change_context") { undo_history_change_context(h, index, $0, $1) }
                try require((changeCode >= 0) == (index < request.changeCount), "change_context(\(index)) of \(request.changeCount) gave \(changeCode)")
            }
        }
    }

    private mutating func revert(_ h: OpaquePointer) throws(FuzzInvariantViolation) {
        let context = randomContext()
        var request = ResultRequest(&input)
        defer { request.release() }
        let code = CStrings.with(context) { undo_history_revert(h, $0, request.pointer) }
        try checked(h, code, "revert")
        try request.check(code: code, "revert")
        if code == UNDO_OK {
            let dirty = CStrings.with(context) { undo_history_is_dirty(h, $0) }
            try require(dirty == 0, "is_dirty after a revert gave \(dirty)")
        }
    }

    private mutating func checkTitles(_ h: OpaquePointer) throws(FuzzInvariantViolation) {
        try checkText("undo_title") { undo_history_undo_title(h, $0, $1) }
        try checkText("redo_title") { undo_history_redo_title(h, $0, $1) }
        try checkText("alert_title") { undo_history_alert_title(h, $0, $1) }
        let choices = undo_history_alert_choice_count(h)
        try checked(h, choices, "alert_choice_count")
        try require((1...3).contains(choices), "alert_choice_count \(choices)")
        let index = UInt32(input.choice(Int(choices) + 1))
        var kind: UInt32 = 0
        let code = try readTextCode("alert_choice") { undo_history_alert_choice(h, index, &kind, $0, $1) }
        if index < choices {
            try require(code >= 0, "alert_choice(\(index)) of \(choices) gave \(code)")
            let last = index == UInt32(choices) - 1
            try require(last == (kind == UInt32(UNDO_CHOICE_CANCEL)), "alert choice \(index) of \(choices) has kind \(kind)")
        } else {
            try require(code == UNDO_ERANGE, "alert_choice(\(index)) of \(choices) gave \(code)")
        }
    }

    private mutating func observe(_ h: OpaquePointer) throws(FuzzInvariantViolation) {
        let probe = ObserverProbe(handle: h)
        probes.append(probe)
        var id: UInt64 = 0
        let code = undo_history_observe(h, ObserverProbe.callback, Unmanaged.passUnretained(probe).toOpaque(), &id)
        try checked(h, code, "observe")
        try require(undo_history_observe(h, nil, nil, nil) == UNDO_EINVAL, "observe with a NULL function was accepted")
    }

    private mutating func describe(_ h: OpaquePointer, slot: Int) throws(FuzzInvariantViolation) {
        let id = Self.pluginIDs[input.choice(Self.pluginIDs.count)]
        let context = randomContext()
        try checkText("describe") { buffer, capacity in
            id.withCString { id in CStrings.with(context) { undo_history_describe(h, id, $0, buffer, capacity) } }
        }
    }

    private mutating func listPlugins(_ h: OpaquePointer) throws(FuzzInvariantViolation) {
        let plugins = undo_history_plugin_count(h)
        try checked(h, plugins, "plugin_count")
        let index = UInt32(input.choice(Int(max(plugins, 0)) + 1))
        let field = UInt32(input.choice(7))
        try checkText("plugin_text") { undo_history_plugin_text(h, index, field, $0, $1) }
        let actions = undo_history_action_count(h)
        try checked(h, actions, "action_count")
        let action = UInt32(input.choice(Int(max(actions, 0)) + 1))
        try checkText("action_text") { undo_history_action_text(h, action, field, $0, $1) }
        // undo_action_info in memory of exactly struct_size bytes (below the minimum: refused).
        let full = MemoryLayout<undo_action_info>.size
        let size = [full, CSizes.actionInfoV1, 4, 12][input.choice(4)]
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        memory.storeBytes(of: UInt32(size), as: UInt32.self)
        let code = undo_history_action_info(h, action, memory.assumingMemoryBound(to: undo_action_info.self))
        try checked(h, code, "action_info")
        try require(size >= CSizes.actionInfoV1 || code == UNDO_EINVAL, "action_info accepted struct_size \(size)")
        try require(memory.load(as: UInt32.self) == UInt32(size), "action_info changed struct_size")
    }

    private mutating func loadFile(_ h: OpaquePointer) throws(FuzzInvariantViolation) {
        let paths: [String?] = Self.pluginFiles.map(\.path) + [Self.productsFolder, "/nonexistent.so", "/etc/hostname", "", nil]
        let path = paths[input.choice(paths.count)]
        let code = CStrings.with(path) { undo_history_load_file(h, $0) }
        try checked(h, code, "load_file")
    }

    // MARK: Stale and foreign handles

    /// Every call with a handle that is not live must be refused with UNDO_EHANDLE.
    private mutating func checkRefused(_ h: OpaquePointer, operation: Int) throws(FuzzInvariantViolation) {
        var buffer = [CChar](repeating: 0, count: 8)
        var result = undo_result()
        result.struct_size = UInt32(MemoryLayout<undo_result>.size)
        let code: Int32 = switch operation % 12 {
        case 0: undo_history_destroy(h)
        case 1: "text.insert".withCString { undo_history_perform(h, $0, nil, nil, 0) }
        case 2: undo_history_undo(h, 1, &result)
        case 3: undo_history_redo(h, 1, nil)
        case 4: undo_history_undo_title(h, &buffer, UInt32(buffer.count))
        case 5: undo_history_alert_choice_count(h)
        case 6: undo_history_begin_group(h, nil, nil)
        case 7: undo_history_set_context(h, nil)
        case 8: undo_history_plugin_count(h)
        case 9: undo_history_load_bundled(h, nil)
        case 10: undo_history_is_dirty(h, nil)
        default: undo_history_observe(h, ObserverProbe.callback, nil, nil)
        }
        try require(code == UNDO_EHANDLE, "call \(operation % 12) on a stale or foreign handle gave \(code)")
        let message = undo_history_last_error(h)
        try require(message.map { String(cString: $0) } == "stale or foreign handle",
                    "last_error of a stale handle: \(message.map { String(cString: $0) } ?? "NULL")")
    }

    // MARK: The final round trip

    /// Undoing everything and redoing what was undone must bring every document back to what
    /// it showed, and the titles too (steps that were already undone stay redoable).
    private mutating func checkRoundTrip(_ h: OpaquePointer, contexts: Set<String>) throws(FuzzInvariantViolation) {
        var ends = 0
        while undo_history_end_group(h) == UNDO_OK && ends < 1000 { ends += 1 }
        try expectCode(undo_history_set_context(h, nil), [UNDO_OK], "set_context(NULL)")
        let plugins = Self.pluginIDs.dropLast(2)
        func documents() throws(FuzzInvariantViolation) -> [String] {
            var shown: [String] = []
            for plugin in plugins {
                for context in contexts.sorted() {
                    let code = plugin.withCString { plugin in context.withCString { undo_history_describe(h, plugin, $0, nil, 0) } }
                    if code < 0 {
                        shown.append("error \(code)")
                        continue
                    }
                    shown.append(try readText("describe") { buffer, capacity in
                        plugin.withCString { plugin in context.withCString { undo_history_describe(h, plugin, $0, buffer, capacity) } }
                    } ?? "")
                }
            }
            return shown
        }
        let before = try documents()
        let titles = try fingerprint(h)
        var undone = 0
        while undone < 1_000_000 {
            let code = undo_history_undo(h, 1, nil)
            if code == UNDO_EEMPTY { break }
            try checkObservers("undoing everything")
            try require(code == UNDO_OK, "undoing everything: undo \(undone + 1) failed with \(code): \(message(h))")
            undone += 1
        }
        for step in 0..<undone {
            let code = undo_history_redo(h, 1, nil)
            try require(code == UNDO_OK, "redoing everything: redo \(step + 1) of \(undone) failed with \(code): \(message(h))")
        }
        let after = try documents()
        try require(after == before, "documents after undoing and redoing \(undone) steps: \(after), before: \(before)")
        try require(try fingerprint(h) == titles, "titles differ after undoing and redoing \(undone) steps")
    }

    // MARK: Checking codes, messages and text

    private static let documentedCodes: ClosedRange<Int32> = UNDO_EEMPTY...UNDO_OK

    private func checkCode(_ code: Int32, _ what: String) throws(FuzzInvariantViolation) {
        transcript.record(code)
        try require(code >= 0 || Self.documentedCodes.contains(code), "\(what) returned undocumented code \(code)")
    }

    private func expectCode(_ code: Int32, _ expected: [Int32], _ what: String) throws(FuzzInvariantViolation) {
        try require(expected.contains(code), "\(what) returned \(code), expected one of \(expected)")
    }

    /// The code is documented, and last_error explains a failure and is "" after a success.
    private func checked(_ h: OpaquePointer, _ code: Int32, _ what: String) throws(FuzzInvariantViolation) {
        try checkCode(code, what)
        try checkMessage(h, code, what)
        try checkObservers(what)
    }

    private func checkObservers(_ what: String) throws(FuzzInvariantViolation) {
        for probe in probes {
            if let violation = probe.takeViolation() { throw FuzzInvariantViolation("observer during \(what): \(violation)") }
        }
    }

    private func checkMessage(_ h: OpaquePointer?, _ code: Int32, _ what: String) throws(FuzzInvariantViolation) {
        guard let pointer = undo_history_last_error(h) else { throw FuzzInvariantViolation("last_error after \(what) is NULL") }
        guard let message = String(validatingCString: pointer) else {
            throw FuzzInvariantViolation("last_error after \(what) is not UTF-8")
        }
        if code < 0 {
            try require(!message.isEmpty, "\(what) failed with \(code) but last_error is empty")
        } else {
            try require(message.isEmpty, "\(what) succeeded but last_error says \(message)")
        }
    }

    private func message(_ h: OpaquePointer) -> String {
        undo_history_last_error(h).map { String(cString: $0) } ?? "NULL"
    }

    /// What a refused call must not change: the titles and the alert.
    struct Titles: Equatable {
        var undo: String
        var redo: String
        var alertChoices: Int32
    }

    private func fingerprint(_ h: OpaquePointer) throws(FuzzInvariantViolation) -> Titles {
        let undo = try readText("undo_title") { undo_history_undo_title(h, $0, $1) } ?? ""
        let redo = try readText("redo_title") { undo_history_redo_title(h, $0, $1) } ?? ""
        return Titles(undo: undo, redo: redo, alertChoices: undo_history_alert_choice_count(h))
    }

    /// The titles before a perform, undo or redo: those the refused call just before it left
    /// (``carriedTitles``), or read now.
    private mutating func titlesBefore(_ h: OpaquePointer) throws(FuzzInvariantViolation) -> Titles {
        if let carried = carriedTitles, carried.handle == h {
            carriedTitles = nil
            return carried.titles
        }
        carriedTitles = nil
        return try fingerprint(h)
    }

    /// The titles are still `before`; they are carried to the next step.
    private mutating func requireUnchanged(_ h: OpaquePointer, _ before: Titles, _ what: @autoclosure () -> String) throws(FuzzInvariantViolation) {
        let after = try fingerprint(h)
        try require(after == before, what())
        carriedTitles = (h, after)
    }

    /// A text the library writes: its length, then the whole text in a buffer of exactly that
    /// size plus the NUL. `nil` when the call fails.
    private func readText(_ what: String, _ call: (UnsafeMutablePointer<CChar>?, UInt32) -> Int32) throws(FuzzInvariantViolation) -> String? {
        let length = call(nil, 0)
        try checkCode(length, what)
        guard length >= 0 else { return nil }
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(length) + 1)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0x7F, count: Int(length) + 1)
        let again = call(buffer, UInt32(length) + 1)
        try require(again == length, "\(what): length \(length), then \(again)")
        try require(buffer[Int(length)] == 0, "\(what): the whole text is not NUL-terminated")
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: Int(length))
        try require(!bytes.contains(0), "\(what): a NUL inside the text")
        guard let text = String(validating: bytes, as: UTF8.self) else { throw FuzzInvariantViolation("\(what): the text is not UTF-8") }
        transcript.record(bytes)
        return text
    }

    private func readTextCode(_ what: String, _ call: (UnsafeMutablePointer<CChar>?, UInt32) -> Int32) throws(FuzzInvariantViolation) -> Int32 {
        let length = call(nil, 0)
        _ = try readText(what, call)
        return length
    }

    /// Writes the text into a buffer of a random capacity (allocated at exactly that size) and
    /// checks it against the whole text.
    private mutating func checkText(_ what: String, _ call: (UnsafeMutablePointer<CChar>?, UInt32) -> Int32) throws(FuzzInvariantViolation) {
        guard let whole = try readText(what, call) else {
            // A failure: a NULL buffer with a capacity must be refused the same way or as EINVAL.
            return
        }
        let length = whole.utf8.count
        let capacity = [0, 1, 2, 3, 4, length, length + 1, length + 2, Int(input.byte())][input.choice(9)]
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(capacity, 1))
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0x7F, count: max(capacity, 1))
        let code = call(buffer, UInt32(capacity))
        try require(code == Int32(length), "\(what): length \(length), then \(code) with capacity \(capacity)")
        if capacity == 0 {
            try require(buffer[0] == 0x7F, "\(what): wrote into a buffer of capacity 0")
            try require(call(nil, 1) == UNDO_EINVAL, "\(what): a NULL buffer with capacity 1 was accepted")
            return
        }
        let bytes = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
        guard let written = (0..<capacity).first(where: { bytes[$0] == 0 }) else {
            throw FuzzInvariantViolation("\(what): no NUL within capacity \(capacity)")
        }
        let prefix = UnsafeBufferPointer(start: bytes, count: written)
        try require(prefix.elementsEqual(whole.utf8.prefix(written)), "\(what): the written text is not a prefix of the whole")
        // As much as fits without ending inside a UTF-8 sequence.
        let utf8 = Array(whole.utf8)
        var fitting = min(length, capacity - 1)
        while fitting > 0 && fitting < length && utf8[fitting] & 0xC0 == 0x80 { fitting -= 1 }
        try require(written == fitting, "\(what): wrote \(written) of \(length) bytes with capacity \(capacity), expected \(fitting)")
    }

    // MARK: Random text

    private mutating func randomName() -> String? {
        let bytes = input.shortBytes()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A context name: NULL (the current context), a known one, or bytes from the input that
    /// may not be UTF-8 (then refused with UNDO_EUTF8).
    private mutating func randomContext() -> String? {
        switch input.choice(8) {
        case 0: return nil
        case 1: return String(decoding: input.shortBytes().filter { $0 != 0 }, as: UTF8.self)
        default: return Self.contextNames[input.choice(Self.contextNames.count)]
        }
    }
}

// MARK: - Helpers

/// What one run of the C API target saw: every code it checked and every whole text it read, in
/// order, folded into a number (64-bit FNV-1a, the same in every process), and how many.
public final class CAPITranscript: Equatable, CustomStringConvertible {
    public private(set) var digest: UInt64 = 0xCBF2_9CE4_8422_2325
    public private(set) var entries = 0
    /// A history was made with a 1 ms coalescing window: whether two steps join then depends on
    /// the time between them, so the run may see other titles and step counts another time.
    /// (The default window, 500 ms, is far longer than a whole input takes.)
    public internal(set) var dependsOnClock = false

    func record(_ code: Int32) {
        withUnsafeBytes(of: code.littleEndian) { fold($0) }
        entries += 1
    }

    func record(_ text: UnsafeBufferPointer<UInt8>) {
        withUnsafeBytes(of: UInt32(text.count).littleEndian) { fold($0) }
        fold(UnsafeRawBufferPointer(text))
        entries += 1
    }

    private func fold(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01B3 }
    }

    public static func == (lhs: CAPITranscript, rhs: CAPITranscript) -> Bool {
        lhs.digest == rhs.digest && lhs.entries == rhs.entries
    }

    public var description: String { "\(entries) codes and texts, digest \(String(digest, radix: 16))" }
}

/// The *_SIZE_V1 macros of undo_host.h (offsetof does not reach Swift): the 1.0 struct sizes.
enum CSizes {
    static let historyOptionsV1 = MemoryLayout<undo_history_options>.offset(of: \.reserved)! + 4 * MemoryLayout<UnsafeRawPointer>.size
    static let actionInfoV1 = MemoryLayout<undo_action_info>.offset(of: \.reserved)! + 6 * MemoryLayout<UInt32>.size
    static let resultV1 = MemoryLayout<undo_result>.offset(of: \.reserved)! + 4 * MemoryLayout<UnsafeRawPointer>.size
}

/// NUL-terminated copies of optional strings for the duration of a call.
enum CStrings {
    static func with<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let text else { return body(nil) }
        return text.withCString(body)
    }
}

/// undo_value arguments whose strings and bytes live in memory allocated at exactly their size.
struct CArguments {
    private(set) var values: [undo_value] = []
    private var allocations: [UnsafeMutableRawPointer] = []

    /// A value of the parameter type `type`, usually valid.
    mutating func append(typed type: UInt32, from input: inout FuzzInput) {
        var value = undo_value()
        value.type = type
        switch Int32(bitPattern: type) {
        case Int32(UNDO_TYPE_I32): value.as.i32 = Int32(truncatingIfNeeded: Int8(bitPattern: input.byte()))
        case Int32(UNDO_TYPE_U32): value.as.u32 = UInt32(input.byte())
        case Int32(UNDO_TYPE_I64): value.as.i64 = Int64(Int8(bitPattern: input.byte()))
        case Int32(UNDO_TYPE_U64): value.as.u64 = UInt64(input.byte() & 7)
        case Int32(UNDO_TYPE_F64): value.as.f64 = Double(Int8(bitPattern: input.byte()))
        case Int32(UNDO_TYPE_STRING):
            let bytes = input.shortBytes().filter { $0 != 0 }
            value.as.string.data = UnsafePointer(copy(bytes, terminated: true).assumingMemoryBound(to: CChar.self))
            value.as.string.size = UInt64(bytes.count)
        default:
            let bytes = input.shortBytes()
            value.as.bytes.data = UnsafeRawPointer(copy(bytes, terminated: false))
            value.as.bytes.size = UInt64(bytes.count)
        }
        values.append(value)
    }

    /// Any value: unknown type tags, NaN, invalid UTF-8, NULL data, sizes over the limit.
    mutating func append(any input: inout FuzzInput) {
        var value = undo_value()
        let tag = input.choice(10)
        value.type = tag < 8 ? UInt32(tag) : input.integer(UInt32.self)  // 0 and 8+ are unknown tags
        switch Int32(bitPattern: value.type) {
        case Int32(UNDO_TYPE_STRING), Int32(UNDO_TYPE_BYTES):
            let bytes = input.shortBytes()
            switch input.choice(6) {
            case 0:
                value.as.bytes.data = nil
                value.as.bytes.size = UInt64(input.byte())
            case 1:
                // Over the limit: must be refused before anything is read.
                value.as.bytes.data = UnsafeRawPointer(copy(bytes, terminated: false))
                value.as.bytes.size = [UInt64(UNDO_MAX_VALUE_SIZE) + 1, UInt64.max][input.choice(2)]
            default:
                value.as.bytes.data = UnsafeRawPointer(copy(bytes, terminated: value.type == UInt32(UNDO_TYPE_STRING)))
                value.as.bytes.size = UInt64(bytes.count)
            }
        default:
            value.as.u64 = input.integer(UInt64.self)
        }
        values.append(value)
    }

    private mutating func copy(_ bytes: [UInt8], terminated: Bool) -> UnsafeMutableRawPointer {
        let count = bytes.count + (terminated ? 1 : 0)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 1)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { memory.copyMemory(from: base, byteCount: bytes.count) }
        }
        allocations.append(memory)
        return memory
    }

    mutating func release() {
        for memory in allocations { memory.deallocate() }
        allocations.removeAll()
    }
}

/// An undo_result in memory of exactly struct_size bytes, with name, context and changes
/// buffers of random capacities (each allocated at exactly that capacity).
struct ResultRequest {
    private(set) var pointer: UnsafeMutablePointer<undo_result>?
    private var memory: UnsafeMutableRawPointer?
    private var size = 0
    private var nameBuffer: UnsafeMutablePointer<CChar>?
    private var contextBuffer: UnsafeMutablePointer<CChar>?
    private var changesBuffer: UnsafeMutablePointer<undo_change>?
    private var nameCapacity = 0
    private var contextCapacity = 0
    private var changesCapacity = 0

    init(_ input: inout FuzzInput) {
        guard input.choice(4) != 0 else { return }
        let full = MemoryLayout<undo_result>.size
        size = [full, full, CSizes.resultV1, 8, full + 16][input.choice(5)]
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(size, full), alignment: 8)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, full))
        self.memory = memory
        let result = memory.bindMemory(to: undo_result.self, capacity: 1)
        pointer = result
        nameCapacity = [0, 1, 3, 8, 64][input.choice(5)]
        contextCapacity = [0, 1, 4, 64][input.choice(4)]
        changesCapacity = [0, 1, 2, 8][input.choice(4)]
        if nameCapacity > 0 { nameBuffer = .allocate(capacity: nameCapacity); nameBuffer!.initialize(repeating: 0x7F, count: nameCapacity) }
        if contextCapacity > 0 { contextBuffer = .allocate(capacity: contextCapacity); contextBuffer!.initialize(repeating: 0x7F, count: contextCapacity) }
        if changesCapacity > 0 { changesBuffer = .allocate(capacity: changesCapacity); changesBuffer!.initialize(repeating: undo_change(), count: changesCapacity) }
        if input.choice(16) == 0 {
            // A NULL buffer with a capacity: refused (UNDO_EINVAL), never written through.
            nameBuffer?.deallocate()
            nameBuffer = nil
        }
        result.pointee.struct_size = UInt32(size)
        result.pointee.name = nameBuffer
        result.pointee.name_capacity = UInt32(nameCapacity)
        result.pointee.context = contextBuffer
        result.pointee.context_capacity = UInt32(contextCapacity)
        result.pointee.changes = changesBuffer
        result.pointee.changes_capacity = UInt32(changesCapacity)
        if size > full { memory.advanced(by: full).initializeMemory(as: UInt8.self, repeating: 0xA5, count: size - full) }
    }

    var stepCount: UInt32 { pointer.map { $0.pointee.step_count } ?? 0 }
    var changeCount: UInt32 { pointer.map { $0.pointee.change_count } ?? 0 }

    /// A result below the 1.0 size is refused; otherwise the fields are consistent and the
    /// bytes past what the library knows are untouched.
    func check(code: Int32, _ what: String) throws(FuzzInvariantViolation) {
        guard let pointer, let memory else { return }
        let full = MemoryLayout<undo_result>.size
        try require(memory.load(as: UInt32.self) == UInt32(size), "\(what) changed struct_size")
        if size < CSizes.resultV1 {
            try require(code == UNDO_EINVAL, "\(what) accepted struct_size \(size)")
            return
        }
        if size > full {
            let tail = UnsafeRawBufferPointer(start: memory.advanced(by: full), count: size - full)
            try require(tail.allSatisfy { $0 == 0xA5 }, "\(what) wrote past the undo_result it knows")
        }
        guard code == UNDO_OK || code == UNDO_EEMPTY else { return }
        let result = pointer.pointee
        if code == UNDO_EEMPTY { try require(result.step_count == 0, "\(what): nothing done but step_count \(result.step_count)") }
        try require(result.name_capacity == UInt32(nameCapacity) && result.context_capacity == UInt32(contextCapacity)
                    && result.changes_capacity == UInt32(changesCapacity), "\(what) changed the capacities")
        if let name = nameBuffer, result.name_length != UInt32(UNDO_NO_NAME) {
            try checkWritten(name, capacity: nameCapacity, length: Int(result.name_length), "\(what) name")
        }
        if let context = contextBuffer {
            try checkWritten(context, capacity: contextCapacity, length: Int(result.context_length), "\(what) context")
        }
    }

    private func checkWritten(_ buffer: UnsafeMutablePointer<CChar>, capacity: Int, length: Int, _ what: String) throws(FuzzInvariantViolation) {
        let bytes = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
        guard let written = (0..<capacity).first(where: { bytes[$0] == 0 }) else {
            throw FuzzInvariantViolation("\(what): no NUL within capacity \(capacity)")
        }
        try require(written <= length, "\(what): wrote \(written) bytes of a \(length)-byte text")
        try require(String(validating: UnsafeBufferPointer(start: bytes, count: written), as: UTF8.self) != nil,
                    "\(what): the written text ends inside a UTF-8 sequence")
    }

    mutating func release() {
        nameBuffer?.deallocate()
        contextBuffer?.deallocate()
        changesBuffer?.deallocate()
        memory?.deallocate()
        pointer = nil
        memory = nil
        nameBuffer = nil
        contextBuffer = nil
        changesBuffer = nil
    }
}

/// An observer's user data: checks what it is shown, and that it may read but not change the
/// history it observes.
final class ObserverProbe {
    let handle: OpaquePointer
    private var violation: String?
    private var depth = 0

    init(handle: OpaquePointer) { self.handle = handle }

    func takeViolation() -> String? {
        defer { violation = nil }
        return violation
    }

    static let callback: undo_observer_fn = { userData, state, changed in
        guard let userData else { return }
        let probe = Unmanaged<ObserverProbe>.fromOpaque(userData).takeUnretainedValue()
        probe.observe(state, changed)
    }

    private func observe(_ state: UnsafePointer<undo_state>?, _ changed: UInt32) {
        guard violation == nil else { return }
        guard let state = state?.pointee else { violation = "state is NULL"; return }
        let titles = [state.undo_title, state.redo_title].map { $0.flatMap { String(validatingCString: $0) } }
        if titles.contains(where: { $0 == nil }) { violation = "a title is NULL or not UTF-8"; return }
        if state.can_undo > 1 || state.can_redo > 1 || state.is_dirty > 1 { violation = "flags not 0 or 1"; return }
        if state.position > state.count { violation = "position \(state.position) past count \(state.count)"; return }
        if changed == 0 || changed & ~UInt32(0x1F) != 0 { violation = "changed bits \(changed)"; return }
        // Observers may read...
        var buffer = [CChar](repeating: 0, count: 64)
        if undo_history_undo_title(handle, &buffer, UInt32(buffer.count)) < 0 { violation = "undo_title refused in an observer" }
        if undo_history_is_dirty(handle, nil) < 0 { violation = "is_dirty refused in an observer" }
        // ...but not change it (destroying it is allowed, and tested on its own: CAPIContractTests).
        let changing = [
            undo_history_break_coalescing(handle), undo_history_undo(handle, 1, nil),
            undo_history_set_context(handle, nil),
        ]
        if let accepted = changing.firstIndex(where: { $0 != UNDO_EREENTRANT }) {
            violation = "changing call \(accepted) from an observer gave \(changing[accepted])"
        }
    }
}
