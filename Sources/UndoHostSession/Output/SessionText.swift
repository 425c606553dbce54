/// Every word undo-host itself prints, in one language: messages, errors and their hints, help,
/// the banner, questions and the labels of the menu, history, alert and document views.
///
/// Not in it: the command language (command words, usages such as `undo [N] | undo to N`, error
/// code names such as `UNDO_ERANGE`), which stays the same in every language so scripts run
/// anywhere; the Undo and Redo titles, which come from the history's ``UndoCore/UndoLocale``; the
/// names of plugins' actions (the plugin gives them per locale); messages plugins report; and
/// swift-argument-parser's help of the command-line options.
///
/// English and Korean are built in. A locale file (`--locale FILE`) supplies only the titles: the
/// session's words are then Korean when the file's identifier is Korean, else English
/// (``forLocale(_:)``).
public struct SessionText: Sendable, Equatable {
    public enum Language: Sendable, Equatable { case english, korean }
    public let language: Language

    public static let english = SessionText(language: .english)
    public static let korean = SessionText(language: .korean)

    /// The words for a locale identifier ("ko", "ko-KR"): Korean for Korean, English otherwise.
    public static func forLocale(_ identifier: String) -> SessionText {
        identifier.prefix { $0 != "-" && $0 != "_" }.lowercased() == "ko" ? .korean : .english
    }

    func pick(_ english: String, _ korean: String) -> String {
        language == .english ? english : korean
    }

    /// "1 step", "2 steps"; "단계 2개".
    func steps(_ count: Int) -> String {
        pick("\(count) step\(count == 1 ? "" : "s")", "단계 \(count)개")
    }

    // MARK: Views

    var editMenu: String { pick("Edit", "편집") }
    var disabled: String { pick("(disabled)", "(비활성)") }
    var history: String { pick("History", "실행 기록") }
    var noSteps: String { pick("no steps", "단계 없음") }
    func done(_ position: Int, of count: Int) -> String { pick("\(position) of \(count) done", "\(count)개 중 \(position)개 실행됨") }
    var start: String { pick("Start", "처음") }
    func group(of count: Int) -> String {
        pick("group of \(count) action\(count == 1 ? "" : "s")", "동작 \(count)개의 그룹")
    }
    var discardable: String { pick("discardable", "버릴 수 있음") }
    var saved: String { pick("saved", "저장됨") }
    /// A tree state that was its document's saved content once and is not now.
    var wasSaved: String { pick("was saved", "저장된 적 있음") }
    /// The tree state `redo` goes to next.
    var nextRedo: String { pick("redo", "다시 실행") }
    var undone: String { pick("undone", "실행 취소됨") }
    var unnamed: String { pick("(unnamed)", "(이름 없음)") }
    /// Before the arguments a plugin step's inverse takes, in `history --values`.
    var inverseArguments: String { pick("undo with", "되돌릴 때") }
    var alert: String { pick("Alert", "알림") }
    func choose(_ count: Int, keys: String) -> String {
        // One choice (Cancel alone) is not a range.
        guard count > 1 else { return pick("Choose 1 or \(keys): ", "1 또는 \(keys)을(를) 고르세요: ") }
        return pick("Choose 1-\(count) or \(keys): ", "1-\(count) 또는 \(keys) 중에서 고르세요: ")
    }
    var empty: String { pick("empty", "비어 있음") }
    func linesAbove(_ count: Int) -> String { pick("\(count) more line\(count == 1 ? "" : "s") above", "위에 \(count)줄 더 있음") }
    func linesBelow(_ count: Int) -> String { pick("\(count) more line\(count == 1 ? "" : "s") below", "아래에 \(count)줄 더 있음") }
    /// Around an excerpt of a large document (the part a change touched).
    func charactersAbove(_ count: Int) -> String {
        pick("\(Self.grouped(count)) more character\(count == 1 ? "" : "s") above", "위에 \(Self.grouped(count))자 더 있음")
    }
    func charactersBelow(_ count: Int) -> String {
        pick("\(Self.grouped(count)) more character\(count == 1 ? "" : "s") below", "아래에 \(Self.grouped(count))자 더 있음")
    }
    var excerptHint: String { pick("(show: the whole document)", "(문서 전체: show)") }
    var vanished: String { pick("changed and no longer there", "바뀐 뒤 없어짐") }
    var noPluginHasIt: String { pick("no plugin has it yet", "아직 이 문서를 가진 플러그인 없음") }
    /// The note under a view cut at the most a view may have (a document of hundreds of megabytes).
    func viewCut(shown: Int, of length: Int) -> String {
        pick("… (the view is \(Self.grouped(length)) bytes: only its first \(Self.grouped(shown)) are shown)",
             "… (보기는 \(Self.grouped(length))바이트입니다: 처음 \(Self.grouped(shown))바이트만 보여 줍니다)")
    }

    // MARK: The tree and the moves across it

    var historyTree: String { pick("History tree", "기록 트리") }
    /// "5 steps, 2 branches, at state 3".
    func treeSummary(steps count: Int, branches: Int, at state: Int) -> String {
        pick("\(steps(count)), \(branches) branch\(branches == 1 ? "" : "es"), at state \(state)",
             "\(steps(count)), 가지 \(branches)개, 현재 상태 \(state)")
    }
    /// The document of steps made with no document.
    var global: String { pick("global", "전역") }
    var current: String { pick("current", "현재") }
    /// A state's age: "4s ago", "3m ago", "2h ago", "1d ago".
    func ago(seconds: UInt64) -> String {
        if seconds < 60 { return pick("\(seconds)s ago", "\(seconds)초 전") }
        if seconds < 3600 { return pick("\(seconds / 60)m ago", "\(seconds / 60)분 전") }
        if seconds < 86400 { return pick("\(seconds / 3600)h ago", "\(seconds / 3600)시간 전") }
        return pick("\(seconds / 86400)d ago", "\(seconds / 86400)일 전")
    }
    func goToState(_ id: UInt32) -> String { pick("Go to state \(id)", "상태 \(id)(으)로 이동") }
    func alreadyAtState(_ id: UInt32) -> String { pick("Already at state \(id)", "이미 상태 \(id)에 있습니다") }
    /// `earlier 1`, `later 10s` as a move's title.
    func travel(earlier: Bool, _ distance: String) -> String {
        earlier ? pick("Earlier \(distance)", "이전으로 \(distance)") : pick("Later \(distance)", "이후로 \(distance)")
    }
    /// "Go to state 2: at state 2 (2 steps)".
    func travelled(_ what: String, state: Int, steps count: Int) -> String {
        pick("\(what): at state \(state) (\(steps(count)))", "\(what): 상태 \(state) (\(steps(count)))")
    }
    func nothingFurther(earlier: Bool) -> String {
        earlier ? pick("nothing earlier: the history is at its first state", "더 이전이 없습니다: 기록이 첫 상태에 있습니다")
                : pick("nothing later: the history is at its newest state", "더 이후가 없습니다: 기록이 가장 새 상태에 있습니다")
    }
    var treeHint: String { pick("type tree to see every state", "모든 상태를 보려면 tree를 입력하세요") }
    /// `goto ID` of a state the tree does not have.
    func noState(_ id: UInt32) -> String {
        pick("goto: no state \(id) in the history (it never existed, or a limit dropped it)",
             "goto: 기록에 상태 \(id)이(가) 없습니다 (있었던 적이 없거나 제한 때문에 버려졌습니다)")
    }
    func notADistance(_ command: String, _ given: String) -> String {
        pick("\(command): \"\(given)\" is not a distance", "\(command): \"\(given)\"은(는) 거리가 아닙니다")
    }
    var distanceHint: String {
        pick("a count of states (3), a time (10s, 5m, 1h, 2d) or saves (1f)", "상태 개수(3), 시간(10s, 5m, 1h, 2d), 또는 저장 횟수(1f)")
    }
    func notAStateNumber(_ given: String) -> String {
        pick("goto: \"\(given)\" is not a state number", "goto: \"\(given)\"은(는) 상태 번호가 아닙니다")
    }
    var stateNumbersHint: String {
        pick("the numbers are those of the tree (type tree); 0 is the start", "번호는 트리의 번호입니다 (tree 입력). 0은 처음입니다")
    }

    // MARK: Outcomes

    var cancelled: String { pick("Cancelled", "취소함") }
    var documents: String { pick("Documents:", "문서:") }
    var edited: String { pick("edited", "수정됨") }
    var noPluginsLoaded: String { pick("No plugins are loaded.", "불러온 플러그인이 없습니다.") }
    func from(_ path: String) -> String { pick("from \(path)", "위치: \(path)") }
    var coalesces: String { pick("coalesces", "하나로 합쳐짐") }
    func saved(_ document: String) -> String { pick("Saved \(document)", "\(document) 저장됨") }
    /// What `limit` says: the count limit and the steps kept now.
    func limit(_ limit: Int?, kept: Int) -> String {
        guard let limit else {
            return pick("No limit: every step is kept (\(steps(kept)) now)", "제한 없음: 모든 단계를 남깁니다 (지금 \(steps(kept)))")
        }
        return pick("At most \(steps(limit)) kept, the oldest dropped first (\(steps(kept)) now)",
                    "최대 \(steps(limit))를 남기고 가장 오래된 것부터 버립니다 (지금 \(steps(kept)))")
    }
    func notALimit(_ word: String) -> String {
        pick("limit: \"\(word)\" is not a count of steps (0: unlimited)",
             "limit: \"\(word)\"은(는) 단계 수가 아닙니다 (0: 제한 없음)")
    }
    /// What `group cancel` says: the group (`nil`: unnamed) and whether it had changes.
    func cancelledGroup(_ name: String?, changes: Bool) -> String {
        let group = name.map { "\"\($0)\"" }
        switch (changes, group) {
        case (true, let group?): return pick("Cancelled \(group): its changes are taken back", "\(group) 취소함: 그 변경을 모두 되돌렸습니다")
        case (true, nil): return pick("Cancelled the group: its changes are taken back", "그룹 취소함: 그 변경을 모두 되돌렸습니다")
        case (false, let group?): return pick("Cancelled \(group): it had no changes", "\(group) 취소함: 변경이 없었습니다")
        case (false, nil): return pick("Cancelled the group: it had no changes", "그룹 취소함: 변경이 없었습니다")
        }
    }
    func forgotSave(_ document: String) -> String {
        pick("\(document) has no saved state now: it counts as changed until the next save",
             "이제 \(document)에는 저장된 상태가 없습니다. 다음에 저장할 때까지 바뀐 것으로 봅니다")
    }
    func closed(_ document: String, removed: Int, now current: String) -> String {
        pick("Closed \(document): \(steps(removed)) left the history; now in \(current)",
             "\(document) 닫음: \(steps(removed))가 기록에서 빠졌습니다. 지금 문서: \(current)")
    }
    /// "Undo 3 steps (newest Typing)".
    func movedSteps(undo: Bool, count: Int, newest: String?) -> String {
        pick("\(undo ? "Undo" : "Redo") \(count) steps" + (newest.map { " (newest \($0))" } ?? ""),
             "\(steps(count)) \(undo ? "실행 취소" : "실행 복귀")" + (newest.map { " (가장 최근: \($0))" } ?? ""))
    }
    /// "Undo to step 5 (2 steps, newest Typing)".
    func movedTo(undo: Bool, target: Int, count: Int, newest: String?) -> String {
        pick("\(undo ? "Undo" : "Redo") to step \(target) (\(steps(count))" + (newest.map { ", newest \($0)" } ?? "") + ")",
             "\(target)단계까지 \(undo ? "실행 취소" : "실행 복귀") (\(steps(count))" + (newest.map { ", 가장 최근: \($0)" } ?? "") + ")")
    }
    /// After an undo or redo in which `obsolete` of the `moved` steps found that they change
    /// nothing any more and left the history (`name`: the step's, when only one was moved).
    func leftHistory(obsolete: Int, moved: Int, name: String?) -> String {
        if moved == 1 {
            let step = name ?? unnamed
            return pick("\(step) changed nothing any more: it left the history",
                        "\(step): 더 이상 바꾸는 것이 없어 기록에서 빠졌습니다")
        }
        return pick("\(obsolete) of the \(moved) steps changed nothing any more: \(obsolete == 1 ? "it" : "they") left the history",
                    "단계 \(moved)개 중 \(obsolete)개는 더 이상 바꾸는 것이 없어 기록에서 빠졌습니다")
    }
    /// After a perform whose action found, performing it, that it changes nothing (the plugin
    /// marked it obsolete): no step was added.
    func performedNothing(_ action: String) -> String {
        pick("\(action) changed nothing: no step was added",
             "\(action): 바꾸는 것이 없어 단계를 더하지 않았습니다")
    }
    func alreadyAt(_ step: Int) -> String { pick("Already at step \(step)", "이미 \(step)단계에 있습니다") }
    /// The name of the step that reverts to the saved state.
    var revertToSaved: String { pick("Revert to Saved", "저장된 상태로 되돌리기") }
    func loaded(_ id: String, _ version: String, _ name: String, actions: Int) -> String {
        pick("Loaded \(id) \(version) (\(name)): \(actions) actions", "\(id) \(version) (\(name)) 불러옴: 동작 \(actions)개")
    }
    func skipped(_ path: String, _ reason: String) -> String { pick("Skipped \(path): \(reason)", "\(path) 건너뜀: \(reason)") }
    func noPlugins(in path: String) -> String { pick("No plugins in \(path)", "\(path)에 플러그인이 없습니다") }
    func unloaded(_ id: String, removed: Int) -> String {
        pick("Unloaded \(id): \(steps(removed)) left the history", "\(id) 내림: \(steps(removed))가 기록에서 빠졌습니다")
    }
    /// What `checkpoint` says: the last change it holds, and what it holds.
    func checkpointWritten(after sequence: Int64, steps stepCount: Int, documents count: Int, bytes: Int) -> String {
        pick("Checkpoint after change \(sequence): \(steps(stepCount)) and \(count) document\(count == 1 ? "" : "s") "
                + "(\(Self.grouped(bytes)) byte\(bytes == 1 ? "" : "s")); the journal keeps only the changes after it",
             "변경 \(sequence) 뒤의 체크포인트: \(steps(stepCount))와 문서 \(count)개 (\(Self.grouped(bytes))바이트). "
                + "저널에는 그 뒤의 변경만 남습니다")
    }
    /// 1234567 as "1,234,567".
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }

    // MARK: Errors and hints

    var errorPrefix: String { pick("error: ", "오류: ") }
    func column(_ column: Int) -> String { pick(" (column \(column))", " (\(column)번째 칸)") }
    var hint: String { pick("hint: ", "도움말: ") }
    func usage(_ usage: String) -> String { pick("usage: ", "사용법: ") + usage }
    func didYouMean(_ candidate: String) -> String { pick("did you mean \(candidate)?", "혹시 \(candidate) 말인가요?") }
    var noGroupOpen: String { pick("no group is open", "열린 그룹이 없습니다") }
    var beginGroupHint: String { pick("begin one with group begin \"Name\"", "group begin \"이름\"으로 먼저 시작하세요") }
    func ambiguous(_ id: String) -> String { pick("\(id) is an action of several plugins", "\(id)은(는) 여러 플러그인에 있는 동작입니다") }
    func writeOneOf(_ list: String) -> String { pick("write one of \(list)", "다음 중 하나를 쓰세요: \(list)") }
    var noPluginsHint: String {
        pick("no plugins are loaded: load one with load PATH, or start with --plugins DIR",
             "불러온 플러그인이 없습니다. load PATH로 불러오거나 --plugins DIR로 시작하세요")
    }
    var listActionsHint: String {
        pick("type plugins to list the actions, help for the commands", "동작 목록은 plugins, 명령 목록은 help를 입력하세요")
    }
    func unknownAction(_ id: String) -> String { pick("unknown action \(id)", "알 수 없는 동작: \(id)") }
    func unknownCommand(_ id: String) -> String { pick("unknown command \(id)", "알 수 없는 명령: \(id)") }
    func argument(_ number: Int) -> String { pick("argument \(number)", "인수 \(number)") }
    func expected(_ signature: String) -> String { pick("expected " + signature, "필요한 형식: " + signature) }
    func phase(_ phase: PhaseWord) -> String {
        switch phase {
        case .perform: pick("perform", "수행")
        case .redo: pick("redo", "다시 수행")
        case .undo: pick("undo", "되돌리기")
        case .describe: pick("describe", "문서 보기")
        case .save: pick("save", "상태 저장")
        case .load: pick("load", "상태 불러오기")
        case .merge: pick("merge", "병합")
        case .close: pick("close", "문서 닫기")
        }
    }
    enum PhaseWord { case perform, redo, undo, describe, save, load, merge, close }
    var pluginCrashedHint: String {
        pick("the plugin's own process failed, not this program; the history is as it was before the call",
             "이 프로그램이 아니라 플러그인의 프로세스가 실패했습니다. 기록은 호출 전 그대로입니다")
    }
    func failed(_ what: String, phase: String, _ message: String) -> String {
        pick("\(what): \(phase) failed: \(message)", "\(what): \(phase) 실패: \(message)")
    }
    var pluginRefusedHint: String { pick("the plugin refused; nothing was changed", "플러그인이 거부했습니다. 바뀐 것은 없습니다") }
    func noPlugin(_ id: String) -> String { pick("no plugin \(id) is loaded", "\(id) 플러그인은 불러오지 않았습니다") }
    var listPluginsHint: String { pick("type plugins to list the loaded plugins", "불러온 플러그인 목록은 plugins를 입력하세요") }
    func groupOpen(_ name: String?) -> String {
        pick("a group\(name.map { " \"\($0)\"" } ?? "") is open", "그룹\(name.map { " \"\($0)\"" } ?? "")이 열려 있습니다")
    }
    var notLeaving: String { pick("not quitting", "끝내지 않습니다") }
    /// After Ctrl+D with a group open: what a second one does.
    var endGroupOrCtrlDHint: String {
        pick("end it with group end first, or press Ctrl+D again to leave without it (exit status 1)",
             "먼저 group end로 끝내거나, 그룹을 끝내지 않고 나가려면 Ctrl+D를 한 번 더 누르세요 (종료 상태 1)")
    }
    /// The second Ctrl+D with a group open: leaving.
    func leavingWithOpenGroup(_ name: String?) -> String {
        pick("leaving with group\(name.map { " \"\($0)\"" } ?? "") never ended (exit status 1)",
             "그룹\(name.map { " \"\($0)\"" } ?? "")을 끝내지 않은 채 나갑니다 (종료 상태 1)")
    }
    var endGroupHint: String { pick("end it with group end first", "먼저 group end로 끝내세요") }
    var historyUnchangedHint: String { pick("the history is unchanged", "기록은 바뀌지 않았습니다") }
    func noDocument(_ name: String) -> String { pick("no document \(name) is open", "\(name) 문서는 열려 있지 않습니다") }
    var listDocumentsHint: String { pick("type doc to list the documents", "문서 목록은 doc을 입력하세요") }
    func nothingTo(undo: Bool, in document: String) -> String {
        pick("nothing to \(undo ? "undo" : "redo") in \(document)",
             "\(document)에 \(undo ? "실행 취소할" : "실행 복귀할") 것이 없습니다")
    }
    func disabledItemHint(undo: Bool) -> String {
        pick("the \(undo ? "Undo" : "Redo") item is disabled; type history to see every step",
             "\(undo ? "실행 취소" : "실행 복귀") 항목이 비활성입니다. 모든 단계는 history로 보세요")
    }
    func noStep(undo: Bool, _ target: Int) -> String {
        pick("\(undo ? "undo" : "redo") to \(target): there is no step \(target) in the history",
             "\(undo ? "undo" : "redo") to \(target): 기록에 \(target)단계가 없습니다")
    }
    var stepNumbersHint: String {
        pick("type history to see the steps there are (a closed, unloaded or replaced step's number is not reused)",
             "있는 단계는 history로 보세요 (닫히거나 내려졌거나 바뀐 단계의 번호는 다시 쓰지 않습니다)")
    }
    func alreadyPast(undo: Bool, target: Int, current: Int) -> String {
        undo ? pick("undo to \(target): the history is at step \(current), before it",
                    "undo to \(target): 기록이 이미 그 앞인 \(current)단계에 있습니다")
            : pick("redo to \(target): the history is at step \(current), after it",
                   "redo to \(target): 기록이 이미 그 뒤인 \(current)단계에 있습니다")
    }
    func use(_ command: String) -> String { pick("use \(command)", "\(command)을(를) 쓰세요") }
    func nothingToRevert(_ document: String) -> String {
        pick("nothing to revert: \(document) is as it was saved", "되돌릴 것이 없습니다: \(document)은(는) 저장한 그대로입니다")
    }
    var revertHint: String { pick("revert takes a document back to its last save", "revert는 문서를 마지막으로 저장한 상태로 되돌립니다") }
    func notAChoice(_ choice: String) -> String {
        pick("alert: \"\(choice)\" is not one of its choices", "alert: \"\(choice)\"은(는) 고를 수 있는 항목이 아닙니다")
    }
    func chooseHint(_ choices: [String]) -> String { pick("choose ", "다음 중에서 고르세요: ") + choices.joined(separator: ", ") }
    func choiceOption(_ number: Int, _ key: Character, _ title: String) -> String {
        pick("\(number) or \(key) (\(title))", "\(number) 또는 \(key) (\(title))")
    }
    var expectMissingCommand: String { pick("expect: missing command", "expect: 명령이 없습니다") }
    func expectSucceeded(_ code: String, _ command: String) -> String {
        pick("expected \(code), but \(command) succeeded", "\(code)을(를) 기대했지만 \(command)이(가) 성공했습니다")
    }
    func expectSucceededHint(_ code: String) -> String {
        pick("its change stays; the command was meant to fail with \(code)", "바뀐 것은 그대로 남습니다. 이 명령은 \(code)로 실패해야 했습니다")
    }
    func expectGot(_ code: String, _ got: String, _ message: String) -> String {
        pick("expected \(code), got \(got): \(message)", "\(code)을(를) 기대했지만 \(got)이(가) 났습니다: \(message)")
    }
    func noSuchPath(_ given: String) -> String { pick("cannot load \(given): no such file or folder", "\(given)을(를) 불러올 수 없습니다: 그런 파일이나 폴더가 없습니다") }
    var pluginPathHint: String { pick("give the path of a plugin .so file, or of a folder of them", "플러그인 .so 파일이나 그런 파일이 든 폴더의 경로를 주세요") }
    func cannotLoad(_ path: String, _ reason: String) -> String { pick("cannot load \(path): \(reason)", "\(path)을(를) 불러올 수 없습니다: \(reason)") }
    var sharedObjectHint: String { pick("a plugin is a shared object (.so) built for this machine", "플러그인은 이 컴퓨터용으로 빌드한 공유 객체(.so)입니다") }
    var entryHint: String { pick("a plugin exports undo_plugin_entry (see Include/undohost/undo_plugin.h)", "플러그인은 undo_plugin_entry를 내보냅니다 (Include/undohost/undo_plugin.h 참고)") }
    var rebuildHint: String { pick("rebuild the plugin against this host's Include/undohost headers", "이 호스트의 Include/undohost 헤더로 플러그인을 다시 빌드하세요") }
    var duplicateHint: String { pick("unload the other one first, or give this one its own id", "다른 쪽을 먼저 내리거나, 이 플러그인에 다른 id를 주세요") }
    var writableHint: String {
        pick("if you trust everyone who can change it, run undo-host with --allow-writable-plugins, or type load --allow-writable-plugins PATH",
             "바꿀 수 있는 모든 사람을 믿는다면 undo-host를 --allow-writable-plugins로 실행하거나 load --allow-writable-plugins PATH를 입력하세요")
    }
    func unexpectedWord(_ command: String, _ word: String) -> String { pick("\(command): unexpected \"\(word)\"", "\(command): 뜻밖의 \"\(word)\"") }
    func missingArgument(_ command: String) -> String { pick("\(command): missing argument", "\(command): 인수가 없습니다") }
    func notAnErrorCode(_ text: String) -> String { pick("expect: \(text) is not an error code", "expect: \(text)은(는) 오류 코드가 아닙니다") }
    func codesHint(_ names: String) -> String { pick("the codes are those of undo_common.h: ", "코드는 undo_common.h에 있는 것입니다: ") + names }
    func notAStepNumber(_ command: String, _ word: String) -> String {
        pick("\(command) to: \"\(word)\" is not a step number", "\(command) to: \"\(word)\"은(는) 단계 번호가 아닙니다")
    }
    var stepNumberHint: String { pick("the numbers are those of the history listing; 0 is the start", "번호는 history 목록의 번호이고, 0은 처음입니다") }
    func notACount(_ command: String, _ word: String) -> String {
        pick("\(command): \"\(word)\" is not a number of steps", "\(command): \"\(word)\"은(는) 단계 수가 아닙니다")
    }
    var unclosedQuote: String { pick("the quoted name has no closing quote", "따옴표로 시작한 이름에 닫는 따옴표가 없습니다") }
    var quoteHint: String { pick("write names with spaces as \"My Letter\"", "빈칸이 있는 이름은 \"My Letter\"처럼 쓰세요") }
    func unknownEscape(_ escape: String) -> String {
        pick("unknown escape \(escape) in a quoted name", "따옴표 안의 이름에 알 수 없는 이스케이프 \(escape)이(가) 있습니다")
    }
    var escapeHint: String {
        pick(#"a quoted name takes \", \\, \n, \t, \r, \0 and \u{HEX}; write a backslash as \\"#,
             #"따옴표 안의 이름에는 \", \\, \n, \t, \r, \0, \u{HEX}를 쓸 수 있습니다. 역슬래시는 \\로 쓰세요"#)
    }
    func neverEnded(_ name: String?) -> String {
        pick("group\(name.map { " \"\($0)\"" } ?? "") was begun here and never ended", "그룹\(name.map { " \"\($0)\"" } ?? "")이 여기서 시작되고 끝나지 않았습니다")
    }
    var endGroupAfterHint: String { pick("add group end after its last action", "마지막 동작 뒤에 group end를 넣으세요") }
    var noJournalOpen: String { pick("checkpoint: no journal is open", "checkpoint: 열린 저널이 없습니다") }
    var journalOptionHint: String {
        pick("start undo-host with --journal FILE to keep the session's changes", "세션의 변경을 남기려면 undo-host를 --journal FILE로 시작하세요")
    }
    func cannotSaveDocuments(_ plugin: String) -> String {
        pick("checkpoint: plugin \(plugin) cannot save its documents as bytes (save_document and load_document, plugin ABI 1.7)",
             "checkpoint: \(plugin) 플러그인은 문서를 바이트로 저장할 수 없습니다 (save_document와 load_document, 플러그인 ABI 1.7)")
    }
    var changesStayHint: String {
        pick("nothing was written: its changes stay in the journal and are replayed from the start",
             "아무것도 쓰지 않았습니다. 그 변경은 저널에 남고 처음부터 다시 실행됩니다")
    }
    var checkpointNotWrittenHint: String {
        pick("nothing was written: the journal keeps every change", "아무것도 쓰지 않았습니다. 저널은 모든 변경을 그대로 남깁니다")
    }
    func automaticCheckpointFailed(_ message: String) -> String {
        pick("automatic checkpoint failed: \(message)", "자동 체크포인트 실패: \(message)")
    }
    var notRepeatedHint: String {
        pick("the session goes on; this warning is not repeated", "세션은 계속됩니다. 이 경고는 다시 나오지 않습니다")
    }

    // MARK: Terminal

    func banner(version: String, plugins: String?) -> String {
        pick("undo-host \(version): one undo history for every plugin. Plugins: \(plugins ?? "none").",
             "undo-host \(version): 모든 플러그인이 함께 쓰는 실행 취소 기록. 플러그인: \(plugins ?? "없음").")
    }
    var bannerHelp: String { pick("Type help for the commands, quit or Ctrl+D to leave.", "명령 목록은 help, 끝내려면 quit 또는 Ctrl+D를 입력하세요.") }
    var kept: String { pick("Kept; nothing was changed", "그대로 둠. 바뀐 것은 없습니다") }
    /// The answer keys stay y and n in every language (what the terminal reads).
    var yesNo: String { pick("[y/N]", "[y/N]") }
    func askUnload(_ id: String, steps count: Int) -> String {
        pick("Unload \(id)? \(steps(count)) of it will leave the history (this cannot be undone).",
             "\(id)을(를) 내릴까요? 이 플러그인의 \(steps(count))가 기록에서 빠집니다 (되돌릴 수 없습니다).")
    }
    func askClose(_ document: String) -> String {
        pick("Close \(document)? It has unsaved changes; its steps leave the history.",
             "\(document)을(를) 닫을까요? 저장하지 않은 변경이 있고, 그 단계는 기록에서 빠집니다.")
    }
    func askQuit(_ unsaved: [String]) -> String {
        pick("Quit? \(unsaved.joined(separator: ", ")) \(unsaved.count == 1 ? "has" : "have") unsaved changes.",
             "끝낼까요? \(unsaved.joined(separator: ", "))에 저장하지 않은 변경이 있습니다.")
    }
    /// The quit question with a journal open: the changes are not lost.
    func askQuit(_ unsaved: [String], journal path: String) -> String {
        pick("Quit? \(unsaved.joined(separator: ", ")) \(unsaved.count == 1 ? "has" : "have") unsaved changes; "
                + "the journal keeps them (undo-host --journal \(path) restores them).",
             "끝낼까요? \(unsaved.joined(separator: ", "))에 저장하지 않은 변경이 있습니다. "
                + "저널에 남아 있습니다 (undo-host --journal \(path)로 되살립니다).")
    }

    // MARK: Program

    var demoEnd: String {
        pick("That was the demo. Try your own session: undo-host (help lists the commands).",
             "데모가 끝났습니다. 직접 해 보세요: undo-host (help로 명령 목록을 봅니다).")
    }
    /// The demo's headings, in the order the demo shows them.
    var demoHeadings: [String] {
        language == .english
            ? ["A letter in the text editor: two bursts of typing make one step",
               "A sketch on the canvas: three moves of one drag make one step",
               "Undo and redo show what changed",
               "Back to the letter: revert to the saved version, itself undoable"]
            : ["텍스트 편집기의 편지: 두 번 몰아서 입력해도 한 단계",
               "캔버스의 스케치: 한 번 끌면서 세 번 움직여도 한 단계",
               "실행 취소와 실행 복귀는 바뀐 곳을 보여 줍니다",
               "다시 편지로: 저장한 판으로 되돌리기, 이것도 실행 취소할 수 있습니다"]
    }
    func cannotRead(_ file: String, _ reason: String) -> String { pick("cannot read \(file): \(reason)", "\(file)을(를) 읽을 수 없습니다: \(reason)") }
    func warningCannotLoad(_ path: String, _ reason: String, hint: String?) -> String {
        pick("warning: cannot load \(path): \(reason)\n  hint: \(hint.map { $0 + "; " } ?? "")the other plugins are loaded",
             "경고: \(path)을(를) 불러올 수 없습니다: \(reason)\n  도움말: \(hint.map { $0 + ". " } ?? "")다른 플러그인은 불러왔습니다")
    }
    func warning(_ message: String, hint: String?) -> String {
        pick("warning: \(message)" + (hint.map { "\n  hint: " + $0 } ?? ""), "경고: \(message)" + (hint.map { "\n  도움말: " + $0 } ?? ""))
    }
    func noSuchPluginsPath(_ given: String) -> String { pick("--plugins \(given): no such file or folder", "--plugins \(given): 그런 파일이나 폴더가 없습니다") }
    // MARK: The journal at startup and at the end

    /// "journal notes.undojournal: 4 changes restored".
    func journalRestored(_ path: String, changes count: Int) -> String {
        pick("journal \(path): \(count) change\(count == 1 ? "" : "s") restored", "저널 \(path): 변경 \(count)개를 되살렸습니다")
    }
    func journalRestored(_ path: String, checkpointAfter sequence: Int64, then count: Int) -> String {
        count == 0
            ? pick("journal \(path): restored from the checkpoint after change \(sequence)",
                   "저널 \(path): 변경 \(sequence) 뒤의 체크포인트에서 되살렸습니다")
            : pick("journal \(path): restored from the checkpoint after change \(sequence), then \(count) change\(count == 1 ? "" : "s")",
                   "저널 \(path): 변경 \(sequence) 뒤의 체크포인트에서 되살리고, 이어서 변경 \(count)개")
    }
    func journalUpgraded(_ path: String, to format: Int64, keptAt kept: String) -> String {
        pick("journal \(path): format 1 (session lines) upgraded to format \(format); the old file is kept as \(kept)",
             "저널 \(path): 형식 1(세션 줄)을 형식 \(format)(으)로 올렸습니다. 옛 파일은 \(kept)에 남겨 두었습니다")
    }
    func journalWarning(_ path: String, _ warning: String) -> String {
        pick("warning: journal \(path): \(warning)", "경고: 저널 \(path): \(warning)")
    }
    /// A group the journal left open (a session that ended inside it).
    func journalGroupOpen(_ path: String, _ name: String?) -> String {
        pick("journal \(path): group\(name.map { " \"\($0)\"" } ?? "") is still open (the session that wrote it never ended it): "
                + "end it with group end, or take it back with group cancel",
             "저널 \(path): 그룹\(name.map { " \"\($0)\"" } ?? "")이 아직 열려 있습니다 (저널을 쓴 세션이 끝내지 않았습니다): "
                + "group end로 끝내거나 group cancel로 되돌리세요")
    }
    /// At the end of a script, a group the journal had left open and the script did not end.
    func neverEndedFromJournal(_ name: String?) -> String {
        pick("group\(name.map { " \"\($0)\"" } ?? ""), open in the journal, was never ended",
             "저널에서 열려 있던 그룹\(name.map { " \"\($0)\"" } ?? "")이 끝나지 않았습니다")
    }
    var endOrCancelGroupHint: String {
        pick("end it with group end, or take it back with group cancel", "group end로 끝내거나 group cancel로 되돌리세요")
    }

    var journalUnchangedHint: String {
        pick("open it with the plugins it was made with; the journal was not changed",
             "저널을 만든 플러그인으로 여세요. 저널은 바뀌지 않았습니다")
    }
    var journalNotChanged: String { pick("the journal was not changed", "저널은 바뀌지 않았습니다") }
    /// A journal names a plugin that the bundled plugins have.
    func bundledPluginHint(id: String, file: String) -> String {
        pick("the bundled plugins have \(id) in \(file): undo-host --plugins \(file) … would load it; the journal was not changed",
             "번들 플러그인 \(file)에 \(id)가 있습니다: undo-host --plugins \(file) …로 불러올 수 있습니다. 저널은 바뀌지 않았습니다")
    }
    /// After a usage error on the command line.
    var helpAdvice: String { pick("Run undo-host --help for the usage.", "사용법은 undo-host --help로 보세요.") }
    /// A `--json` warning's hint after a plugin that did not load.
    var otherPluginsLoaded: String { pick("the other plugins are loaded", "다른 플러그인은 불러왔습니다") }
    func documentNameTooLong(limit: Int, bytes: Int) -> String {
        pick("a document name is at most \(limit) bytes; this one is \(bytes)",
             "문서 이름은 최대 \(limit)바이트입니다. 이 이름은 \(bytes)바이트입니다")
    }

    /// `--plugin-watchdog` of 0 or less.
    func badPluginWatchdog(_ value: Int) -> String {
        pick("--plugin-watchdog \(value): use a number of milliseconds above 0",
             "--plugin-watchdog \(value): 0보다 큰 밀리초 수를 쓰세요")
    }
    /// `--durability` or `--checkpoint-every` given without `--journal`.
    func needsJournal(_ option: String) -> String {
        pick("\(option) applies to a journal: give --journal FILE too, or leave \(option) out",
             "\(option)은 저널에 쓰는 옵션입니다: --journal FILE도 주거나 \(option)을 빼세요")
    }
    func badDurability(_ given: String) -> String {
        pick("--durability \(given): use full or normal", "--durability \(given): full이나 normal을 쓰세요")
    }
    func badCheckpointInterval(_ given: String) -> String {
        pick("--checkpoint-every \(given): use a number of changes (0: never)", "--checkpoint-every \(given): 변경 개수를 쓰세요 (0: 하지 않음)")
    }

    // MARK: Help

    var commandsHeading: String { pick("Commands:", "명령:") }
    var performDescription: String { pick("Perform a plugin action (text.insert 0 \"Hi\").", "플러그인 동작을 수행합니다 (text.insert 0 \"Hi\").") }
    var helpNotes: String {
        pick("# starts a comment anywhere outside a quoted string. At an empty prompt Ctrl+Z undoes, "
                + "Ctrl+Y (and Shift+Ctrl+Z where the terminal tells it apart) redoes.",
             "따옴표 밖의 #부터는 주석입니다. 빈 프롬프트에서 Ctrl+Z는 실행 취소, "
                + "Ctrl+Y(터미널이 구별하면 Shift+Ctrl+Z도)는 실행 복귀입니다.")
    }
    var noActions: String { pick("No plugins are loaded: no actions.", "불러온 플러그인이 없어 동작도 없습니다.") }
    var actionsHeading: String {
        pick("Actions (ACTION ARGUMENTS; strings in \"quotes\", numbers as 12, -3, 0xff, 2.5):",
             "동작 (ACTION ARGUMENTS. 문자열은 \"따옴표\" 안에, 숫자는 12, -3, 0xff, 2.5처럼):")
    }
    func inverseTakes(_ signature: String) -> String { pick("its inverse takes \(signature)", "역동작이 받는 인수: \(signature)") }
    var coalesceNote: String {
        pick("coalesces: consecutive steps with the same coalescing key (the action's, or one a step sets for itself) "
                + "in one document join one step when the plugin merges them (type break to start a new one)",
             "합쳐짐: 한 문서에서 잇따르는 단계가 같은 합침 키(동작의 키, 또는 단계가 스스로 정한 키)를 가지고 "
                + "플러그인이 합치면 한 단계가 됩니다 (새 단계를 시작하려면 break)")
    }

    /// What each session command does, by command word.
    func commandDescription(_ command: String) -> String {
        switch language {
        case .english: Self.englishDescriptions[command] ?? ""
        case .korean: Self.koreanDescriptions[command] ?? ""
        }
    }

    static let englishDescriptions: [String: String] = [
        "undo": "Undo the newest step of this document (N steps; or go back to step N of the history).",
        "redo": "Redo the next step of this document (N steps; or go forward to step N).",
        "group": "Make the actions between begin and end one step, named Name (--description: its longer text in history lists); cancel takes them all back and leaves no step.",
        "break": "End a run of typing or dragging: the next change is a new step.",
        "save": "Mark this document as saved; --forget: no state of it is the saved one any more (it was deleted or saved elsewhere).",
        "revert": "Take this document back to its last save, as one step you can undo.",
        "limit": "Keep at most N steps, in all branches and documents (0: unlimited); the oldest go first. Without N, show the limit.",
        "doc": "Switch to document NAME (its own undo and redo); without NAME, list the documents.",
        "close": "Close a document: its steps leave the history, the others stay.",
        "menu": "Show the Edit menu: Undo and Redo as they are titled now, with their shortcuts.",
        "history": "List every step with its description: > marks where the history is, saved the save points; --values adds each step's action and arguments.",
        "alert": "Show the shake-to-undo alert; with a choice (1-3, u/r/c), pick it.",
        "show": "Show a document; after an undo or redo the changed part is highlighted. It fits the terminal; --all shows all of it; --at N shows it as at state N without moving (nothing changes, nothing is journaled).",
        "plugins": "List the loaded plugins and their actions.",
        "load": "Load a plugin file, or every plugin in a folder (--allow-writable-plugins: even one others may change).",
        "expect": "Run COMMAND, which must fail with the error CODE (UNDO_ERANGE); anything else is an error.",
        "unload": "Unload a plugin: its steps leave the history.",
        "earlier": "Go back N states in the order they were made, across branches (1: the one before), or by a time (10s, 5m, 1h, 2d), or to the previous save (1f).",
        "later": "Go forward N states in the order they were made, by a time, or to the next save (Nf).",
        "goto": "Go to state ID of the tree, on any branch (0: the start).",
        "tree": "Draw every state, branches too: @ is the current one, saved the saved content now, redo where redo goes. --doc only this document's states. --times adds ages, --clock times of day (UTC), --dot gives Graphviz DOT.",
        "diff": "Compare this document at state N with state M (or now), line by line, without moving.",
        "checkpoint": "Write a checkpoint of the journal (--journal): the history and the documents as bytes; the journal then keeps only the changes after it.",
        "help": "Show this help, or the help of one command or action.",
        "quit": "Leave (Ctrl+D too).",
        "exit": "Leave.",
    ]

    static let koreanDescriptions: [String: String] = [
        "undo": "이 문서의 가장 최근 단계를 실행 취소합니다 (N단계, 또는 기록의 N단계까지).",
        "redo": "이 문서의 다음 단계를 실행 복귀합니다 (N단계, 또는 N단계까지).",
        "group": "begin과 end 사이의 동작을 Name이라는 한 단계로 묶습니다(--description: 기록 목록에 보일 긴 설명). cancel은 그 동작을 모두 되돌리고 단계를 남기지 않습니다.",
        "break": "이어지던 입력이나 끌기를 끊습니다. 다음 변경은 새 단계가 됩니다.",
        "save": "이 문서를 저장한 것으로 표시합니다. --forget: 어느 상태도 저장된 상태가 아니게 합니다 (파일을 지웠거나 다른 곳에 저장했을 때).",
        "revert": "이 문서를 마지막으로 저장한 상태로 되돌립니다. 이것도 실행 취소할 수 있는 한 단계입니다.",
        "limit": "모든 가지와 문서를 합쳐 최대 N단계만 남깁니다 (0: 제한 없음). 가장 오래된 것부터 버립니다. N이 없으면 제한을 보여 줍니다.",
        "doc": "NAME 문서로 옮겨 갑니다 (문서마다 실행 취소와 복귀가 따로). NAME이 없으면 문서 목록을 보여 줍니다.",
        "close": "문서를 닫습니다. 그 문서의 단계는 기록에서 빠지고 다른 문서의 단계는 남습니다.",
        "menu": "편집 메뉴를 보여 줍니다. 지금 제목 그대로의 실행 취소와 실행 복귀, 그리고 단축키.",
        "history": "모든 단계를 설명과 함께 보여 줍니다. >는 기록의 현재 위치, 저장됨은 저장 지점입니다. --values는 각 단계의 동작과 인수를 덧붙입니다.",
        "alert": "흔들어서 실행 취소 알림을 보여 줍니다. 고를 항목(1-3, u/r/c)을 주면 그것을 고릅니다.",
        "show": "문서를 보여 줍니다. 실행 취소나 복귀 뒤에는 바뀐 곳이 강조됩니다. 터미널에 맞춰 보여 주고, --all이면 전부 보여 줍니다. --at N은 움직이지 않고 상태 N에서의 모습을 보여 줍니다(아무것도 바뀌지 않고 저널에도 남지 않습니다).",
        "plugins": "불러온 플러그인과 그 동작을 보여 줍니다.",
        "load": "플러그인 파일 하나나 폴더의 모든 플러그인을 불러옵니다 (--allow-writable-plugins: 남이 바꿀 수 있는 것도).",
        "expect": "COMMAND를 실행합니다. 오류 CODE(UNDO_ERANGE 등)로 실패해야 하며, 그렇지 않으면 오류입니다.",
        "unload": "플러그인을 내립니다. 그 단계는 기록에서 빠집니다.",
        "earlier": "만든 순서대로 N개 상태만큼 되돌아갑니다(가지를 넘나듭니다. 1: 바로 앞 상태). 시간(10s, 5m, 1h, 2d)이나 이전 저장(1f)으로도 갑니다.",
        "later": "만든 순서대로 N개 상태만큼 앞으로 갑니다. 시간이나 다음 저장(Nf)으로도 갑니다.",
        "goto": "트리의 상태 ID로 갑니다. 어느 가지에 있어도 됩니다(0: 처음).",
        "tree": "가지를 포함한 모든 상태를 그립니다. @가 지금 상태, saved는 지금 저장된 내용, redo는 실행 복귀가 갈 곳입니다. --doc은 이 문서의 상태만 그립니다. --times는 경과 시간을, --clock은 시각(UTC)을, --dot은 Graphviz DOT을 보여 줍니다.",
        "diff": "움직이지 않고 이 문서의 상태 N과 상태 M(또는 지금)을 줄 단위로 비교합니다.",
        "checkpoint": "저널(--journal)의 체크포인트를 씁니다. 기록과 문서를 바이트로 남기고, 저널에는 그 뒤의 변경만 남깁니다.",
        "help": "이 도움말이나 명령 또는 동작 하나의 도움말을 보여 줍니다.",
        "quit": "끝냅니다 (Ctrl+D도).",
        "exit": "끝냅니다.",
    ]
}
