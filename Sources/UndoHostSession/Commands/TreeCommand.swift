import UndoCore

/// The commands that move across the branches of the history and show its tree: `earlier`,
/// `later`, `goto` and `tree` (see docs/undo-host.md, "Branches and time travel").
public enum TreeCommand: Equatable, Sendable {
    /// Back in the order the states were made: states (`3`), a time (`10s`), saves (`1f`).
    case earlier(UndoTravel)
    case later(UndoTravel)
    /// To the state ID (0: the start), on any branch.
    case goTo(UInt32)
    /// `earlier --doc N`, `later --doc N`: the current document alone, N of its own states.
    case earlierInDocument(Int)
    case laterInDocument(Int)
    /// `goto --doc ID`: the current document alone to its content at state ID.
    case goToInDocument(UInt32)
    /// Draw the tree; `dot`: as Graphviz DOT; `times`: with each state's age; `clock`: with
    /// each state's time of day.
    case tree(dot: Bool, times: Bool, clock: Bool = false, document: Bool = false)
    /// `show --at N [NAME]`: a document as at state N, without moving.
    case showAt(UInt32, document: String?)
    /// `diff N [M]`: the current document at state N beside state M (`nil`: now), without moving.
    case diff(UInt32, UInt32?)

    static let words = ["earlier", "later", "goto", "tree", "diff"]

    static let usages: [String: String] = [
        "earlier": "earlier [N|Ns|Nm|Nh|Nd|Nf] | earlier --doc [N]", "later": "later [N|Ns|Nm|Nh|Nd|Nf] | later --doc [N]",
        "goto": "goto [--doc] ID", "tree": "tree [--doc] [--times] [--clock] [--dot]", "diff": "diff N [M]",
    ]

    static let descriptions: [String: String] = [
        "earlier": "Go back N states in the order they were made, across branches (1: the one before), or by a time (10s, 5m, 1h, 2d), or to the previous save (1f). --doc moves only this document, through its own states.",
        "later": "Go forward N states in the order they were made, by a time, or to the next save (Nf). --doc moves only this document, through its own states.",
        "goto": "Go to state ID of the tree, on any branch (0: the start). --doc gives only this document its content at ID, as one new step; the others stay.",
        "tree": "Draw every state, branches too: @ is the current one, saved the saved content now, redo where redo goes. --doc only this document's states. --times adds ages, --clock times of day (UTC), --dot gives Graphviz DOT.",
        "diff": "Compare this document at state N with state M (or now), line by line, without moving.",
    ]

    var jsonName: String {
        switch self {
        case .earlier, .earlierInDocument: "earlier"
        case .later, .laterInDocument: "later"
        case .goTo, .goToInDocument: "goto"
        case .tree: "tree"
        case .showAt: "show --at"
        case .diff: "diff"
        }
    }

    /// Parses the words after `word` (one of ``words``).
    static func parse(_ word: String, _ words: [CommandWords.Word], text: SessionText = .english) throws(SessionError) -> TreeCommand {
        func usage(_ at: CommandWords.Word?) -> SessionError {
            let what = at.map { text.unexpectedWord(word, $0.text) } ?? text.missingArgument(word)
            return SessionError(.syntax, what, hint: text.usage(usages[word] ?? word), column: at?.column)
        }
        switch word {
        // (A `where` after two patterns would guard only the second.)
        case "earlier" where words.first?.text == "--doc", "later" where words.first?.text == "--doc":
            if words.count > 2 { throw usage(words[2]) }
            guard let distance = words.dropFirst().first else { return word == "earlier" ? .earlierInDocument(1) : .laterInDocument(1) }
            guard let count = Int(distance.text), count >= 0 else {
                throw SessionError(.syntax, text.documentCountOnly(word, distance.text), hint: text.usage(usages[word] ?? word),
                                   column: distance.column)
            }
            return word == "earlier" ? .earlierInDocument(count) : .laterInDocument(count)
        case "earlier", "later":
            if words.count > 1 { throw usage(words[1]) }
            guard let distance = words.first else { return word == "earlier" ? .earlier(.states(1)) : .later(.states(1)) }
            let travel: UndoTravel
            do throws(UndoError) {
                travel = try UndoTravel(parsing: distance.text)
            } catch {
                throw SessionError(.syntax, text.notADistance(word, distance.text), hint: text.distanceHint, column: distance.column)
            }
            return word == "earlier" ? .earlier(travel) : .later(travel)
        case "diff":
            if words.count > 2 { throw usage(words[2]) }
            guard let first = words.first else { throw usage(nil) }
            var states: [UInt32] = []
            for word in words {
                guard let id = UInt32(word.text) else {
                    throw SessionError(.syntax, text.notAStateNumber(in: "diff", word.text), hint: text.stateNumbersHint,
                                       column: word.column)
                }
                states.append(id)
            }
            _ = first
            return .diff(states[0], states.count > 1 ? states[1] : nil)
        case "goto":
            let inDocument = words.first?.text == "--doc"
            let rest = inDocument ? Array(words.dropFirst()) : words
            if rest.count > 1 { throw usage(rest[1]) }
            guard let target = rest.first else { throw usage(nil) }
            guard let id = UInt32(target.text) else {
                throw SessionError(.syntax, text.notAStateNumber(target.text), hint: text.stateNumbersHint, column: target.column)
            }
            return inDocument ? .goToInDocument(id) : .goTo(id)
        default:
            var dot = false, times = false, clock = false, document = false
            for option in words {
                switch option.text {
                case "--doc": document = true
                case "--dot": dot = true
                case "--times": times = true
                case "--clock": clock = true
                default: throw usage(option)
                }
            }
            return .tree(dot: dot, times: times, clock: clock, document: document)
        }
    }
}
