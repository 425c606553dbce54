import UndoCore
import UndoPluginABI
import UndoPluginHost

/// Performs, undoes and redoes in several documents, and checks after every call that each
/// document is in the state it must be in: the model keeps, per document, the state after each
/// of its steps (as describe shows it).
///
/// A perform that joins the previous step (a merge) replaces that step's state; one that annuls
/// it removes the step, and the document must then be as before both. A failing perform must
/// return an error code from the table and leave the document as it was. Without describe the
/// calls are still made and their errors checked, but no state is compared.
struct HistoryWalk {
    struct Document {
        let context: UndoContext
        /// states[i]: the state after i done steps of this document; states[0] the initial one.
        var states: [String?]
        /// made[i]: the perform (or performs, merged) that made step i; made[0] is unused.
        var made: [String] = [""]
        /// merges[i]: how many performs merged into step i.
        var merges: [Int] = [0]
        var position = 0
        /// What describe showed last, as argument values (ArgumentGenerator.values(in:)).
        var values: [ActionValueType: [ActionValue]] = [:]
    }

    /// Per action type: successful performs, and how many of them changed the document.
    struct Effect {
        var succeeded = 0
        var changed = 0
        /// Successful performs without a 0, an empty string or empty bytes among the arguments
        /// (deleting 0 characters may rightly change nothing), and how many changed the document.
        var substantial = 0
        var substantialChanged = 0
        var failed = 0
        var merged = 0
        var annulled = 0
        /// The plugin's reason for the last call that failed.
        var lastFailure: String?
    }

    let plugin: PluginUnderTest
    let log: CheckLog
    var documents: [Document] = []
    var effects: [String: Effect] = [:]
    /// Values of performs that succeeded (ids of objects that exist, positions that fit), by type.
    var used: [ActionValueType: [ActionValue]] = [:]

    /// Arguments for `action`, some of them values that worked before, some read from the
    /// documents (the numbers and words describe shows: ids and positions that exist); an
    /// action that has not succeeded yet takes them more often, so that it runs.
    /// With `document`, the values read from that document come first: an action that has not
    /// succeeded yet takes only them, most of the time.
    func arguments(for action: ActionType, document: Int? = nil, using random: inout CheckRandom) -> [ActionValue] {
        let stuck = isStuck(action)
        if let document, stuck, random.chance(70) {
            let values = documents[document].values
            return ArgumentGenerator.arguments(for: action.signature, using: &random, used: values, percent: 85)
        }
        var hints = used
        for (index, each) in documents.enumerated() where document == nil || index == document {
            for (type, values) in each.values { hints[type, default: []] += values }
        }
        return ArgumentGenerator.arguments(for: action.signature, using: &random, used: hints, percent: stuck ? 80 : 35)
    }

    init(plugin: PluginUnderTest, log: CheckLog, documentNames: [String]) throws(CheckFailure) {
        self.plugin = plugin
        self.log = log
        for name in documentNames {
            let context = UndoContext(name)
            let state = try plugin.state(context)
            var document = Document(context: context, states: [state])
            document.values = ArgumentGenerator.values(in: state)
            documents.append(document)
        }
    }

    /// A failure with the steps that led to it.
    func failure(_ message: String) -> CheckFailure {
        CheckFailure(message + "\n  after: " + log.trail.joined(separator: "\n         "))
    }

    private func requireState(_ expected: String?, in document: Document, _ what: String) throws(CheckFailure) {
        let actual = try plugin.state(document.context)
        guard let expected, let actual else { return }
        if actual != expected {
            throw failure("\(what): document \(ActionValue.string(document.context.name)) differs from what it must be:\n"
                          + StateDifference.text(expected: expected, actual: actual))
        }
    }

    static func shown(_ state: String) -> String {
        let text = ActionValue.string(state).description
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }

    /// Performs `action` in document `index`, and checks what happened.
    /// - Returns: whether the plugin performed it.
    @discardableResult
    mutating func perform(_ action: ActionType, _ arguments: [ActionValue], document index: Int) throws(CheckFailure) -> Bool {
        let call = "\(action.shortID)(\(arguments.map(\.checkDescription).joined(separator: ", "))) in \(ActionValue.string(documents[index].context.name))"
        log.step("perform " + call)
        let before = documents[index].states[documents[index].position]
        let countsBefore = plugin.stepCounts(documents[index].context)
        let doneBefore = countsBefore.done
        if let error = plugin.perform(action, arguments, in: documents[index].context) {
            if error.refusedByHost { return false }
            effects[action.localID, default: Effect()].failed += 1
            effects[action.localID, default: Effect()].lastFailure = "\(error)"
            if error.brokeContract { throw failure("perform \(call) broke the ABI contract: \(error)") }
            try requireState(before, in: documents[index], "perform \(call) failed (\(error)) but changed the document")
            return false
        }
        try checkLog("perform " + call)
        let after = try plugin.state(documents[index].context)
        var effect = effects[action.localID, default: Effect()]
        effect.succeeded += 1
        if after != before { effect.changed += 1 }
        if !arguments.contains(where: \.isTrivial) {
            effect.substantial += 1
            if after != before { effect.substantialChanged += 1 }
        }
        var document = documents[index]
        document.values = ArgumentGenerator.values(in: after)
        documents[index].values = document.values
        let countsAfter = plugin.stepCounts(document.context)
        if countsAfter.done == doneBefore && countsAfter.redoable == countsBefore.redoable
            && (countsBefore.redoable > 0 || document.position == 0) {
            // Obsolete (set_obsolete): nothing recorded, the redo steps kept; nothing may change.
            if let before, let after, after != before {
                throw failure("perform \(call) added no step (obsolete) but changed the document:\n"
                              + StateDifference.text(expected: before, actual: after))
            }
            effects[action.localID] = effect
            return true
        }
        document.states.removeSubrange((document.position + 1)...)
        document.made.removeSubrange((document.position + 1)...)
        document.merges.removeSubrange((document.position + 1)...)
        switch countsAfter.done - doneBefore {
        case 1:
            document.states.append(after)
            document.made.append(call)
            document.merges.append(0)
            document.position += 1
        case 0 where document.position > 0:
            effect.merged += 1
            document.states[document.position] = after
            // The first perform and the last merged into it (a long run of merges stays short).
            let first = document.made[document.position].components(before: ", then merged with ")
            document.merges[document.position] += 1
            let count = document.merges[document.position]
            document.made[document.position] = first + ", then merged with " + (count > 1 ? "\(count) more, the last " : "") + call
        case -1 where document.position > 0:
            effect.annulled += 1
            let start = document.states[document.position - 1]
            if let start, let after, start != after {
                throw failure("perform \(call) annulled the previous step (merge returned UNDO_MERGE_ANNULLED), but the document "
                              + "is not as before both steps:\n" + StateDifference.text(expected: start, actual: after))
            }
            document.states.removeLast()
            document.made.removeLast()
            document.merges.removeLast()
            document.position -= 1
        case let delta:
            throw failure("perform \(call) changed the number of done steps by \(delta)")
        }
        effects[action.localID] = effect
        documents[index] = document
        for value in arguments where value.type.isNumber {
            if used[value.type, default: []].count >= 16 { used[value.type]!.removeFirst() }
            used[value.type, default: []].append(value)
        }
        syncRedoable()
        return true
    }

    /// Undoes (`undo`) or redoes the newest step of document `index`, if it has one.
    mutating func move(_ undo: Bool, document index: Int) throws(CheckFailure) {
        var document = documents[index]
        let target = undo ? document.position - 1 : document.position + 1
        guard target >= 0, target < document.states.count else { return }
        let what = (undo ? "undo" : "redo") + " in \(ActionValue.string(document.context.name))"
        log.step(what)
        // The step moved over, by the perform that made it: a failure names it.
        let stepIndex = undo ? document.position : target
        let step = "step \(stepIndex) of document \(ActionValue.string(document.context.name)), made by perform \(document.made[stepIndex])"
        if let error = plugin.move(undo, in: document.context) {
            throw failure("\(undo ? "undo" : "redo") of \(step) failed: \(error)")
        }
        try checkLog(what)
        try requireState(document.states[target], in: document,
                         undo ? "undo of \(step) did not restore the state before the step"
                              : "redo of \(step) did not reproduce the performed state")
        document.position = target
        documents[index] = document
    }

    /// Undoes every step of every document, checking each state, then redoes them all.
    mutating func unwindAndReplay() throws(CheckFailure) {
        for index in documents.indices {
            while documents[index].position > 0 { try move(true, document: index) }
        }
        for index in documents.indices {
            while documents[index].position < documents[index].states.count - 1 { try move(false, document: index) }
        }
    }

    /// A random step: perform (of `focus` half the time, when given), undo or redo, in a random
    /// document.
    /// While `focus` has not succeeded, the walk undoes less and works where there is something:
    /// the other actions make the objects it needs, and it is tried in a document that is not
    /// empty, with values read from that document.
    mutating func randomStep(actions: [ActionType], focus: ActionType?, using random: inout CheckRandom) throws(CheckFailure) {
        var index = Int.random(in: 0..<documents.count, using: &random)
        var roll = Int.random(in: 0..<100, using: &random)
        if let focus, isStuck(focus) {
            let filled = documents.indices.filter { documents[$0].states[documents[$0].position].map { !$0.isEmpty } ?? false }
            if !filled.isEmpty, random.chance(75) { index = random.pick(filled) }
            // Performs nine times in ten, not five and a half: undo takes away what was made.
            if roll < 90 { roll = 0 }
        }
        if roll < 55 {
            let action = focus.flatMap { random.chance(50) ? $0 : nil } ?? random.pick(actions)
            try perform(action, arguments(for: action, document: index, using: &random), document: index)
        } else {
            try move(roll < 80, document: index)
        }
    }

    /// Whether `action` failed a few times and has not succeeded yet.
    func isStuck(_ action: ActionType) -> Bool {
        (effects[action.localID]?.succeeded ?? 0) == 0 && (effects[action.localID]?.failed ?? 0) > 2
    }

    /// The steps of another document may have been dropped (a perform ends every redo): the
    /// model follows the history.
    private mutating func syncRedoable() {
        for index in documents.indices {
            let redoable = plugin.stepCounts(documents[index].context).redoable
            let modelled = documents[index].states.count - 1 - documents[index].position
            if redoable < modelled {
                documents[index].states.removeLast(modelled - redoable)
                documents[index].made.removeLast(modelled - redoable)
                documents[index].merges.removeLast(modelled - redoable)
            }
        }
    }

    /// A warning or error the plugin logged (or the host about it: a merge that failed) fails
    /// the test.
    func checkLog(_ what: String) throws(CheckFailure) {
        if let warning = plugin.takeWarnings().first {
            throw failure("\(what): logged \(warning.level): \(warning.message)")
        }
    }
}

extension String {
    /// The text before the first `separator`, or all of it.
    func components(before separator: String) -> String {
        guard let range = firstRange(of: separator) else { return self }
        return String(self[..<range.lowerBound])
    }
}

extension ActionValue {
    /// The value as a call shows it, a long string or bytes cut to their start and length.
    var checkDescription: String {
        switch self {
        case .string(let text) where text.utf8.count > 80:
            return ActionValue.string(String(text.prefix(40))).description + "… (\(text.utf8.count) bytes)"
        case .bytes(let bytes) where bytes.count > 32:
            return "\(bytes.count) bytes"
        default:
            return description
        }
    }

    /// 0, an empty string or empty bytes: an argument with which doing nothing may be right.
    var isTrivial: Bool {
        switch self {
        case .i32(let v): v == 0
        case .u32(let v): v == 0
        case .i64(let v): v == 0
        case .u64(let v): v == 0
        case .f64(let v): v == 0
        case .string(let s): s.isEmpty
        case .bytes(let b): b.isEmpty
        }
    }
}
