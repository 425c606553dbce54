/// The words of time travel and reverts that say why nothing moved.
extension SessionText {
    /// `earlier 0`, `later 0s`, `earlier 0f`: a distance of nothing stays where it is.
    func zeroDistance(_ command: String, state: UInt32) -> String {
        pick("\(command): a distance of 0 moves nowhere; still at state \(state)",
             "\(command): 거리가 0이면 움직이지 않습니다. 그대로 상태 \(state)에 있습니다")
    }

    /// `revert` after `save --forget`.
    func noSavePoint(_ document: String) -> String {
        pick("\(document) has no saved state to go back to: its save point was forgotten (save --forget)",
             "\(document)에는 되돌아갈 저장된 상태가 없습니다. 저장 지점을 잊었습니다(save --forget)")
    }

    /// `revert` when a limit dropped the saved state's steps.
    func savePointDropped(_ document: String) -> String {
        pick("the saved state of \(document) can no longer be reached: a limit dropped its steps",
             "\(document)의 저장된 상태에 더 이상 갈 수 없습니다. 한도 때문에 그 단계가 삭제되었습니다")
    }

    /// `revert` when the way to the saved state runs a group that changed other documents too.
    func revertCrossesOtherDocuments(_ document: String, step: String) -> String {
        pick("the way to the saved state of \(document) passes \"\(step)\", a step that also changed other documents",
             "\(document)의 저장된 상태로 가는 길에 다른 문서도 바꾼 단계 \"\(step)\"이(가) 있습니다")
    }

    /// The hint after a refused revert that a move across the tree can still do.
    var gotoSavedHint: String {
        pick("goto N moves every document to state N (type tree: * marks the state saved now)",
             "goto N은 모든 문서를 상태 N으로 옮깁니다(tree를 입력하세요. *는 지금 저장된 상태입니다)")
    }

    /// The source label of a document shown as at another state: "Text Editor, state 3".
    func atState(_ source: String, _ state: UInt32) -> String {
        pick("\(source), state \(state)", "\(source), 상태 \(state)")
    }

    /// The heading of `diff`: "untitled (Text Editor): state 1 -> state 3".
    func diffHeading(_ document: String, _ source: String, from: UInt32, to: UInt32?) -> String {
        let end = to.map { pick("state \($0)", "상태 \($0)") } ?? pick("now", "지금")
        return pick("\(document) (\(source)): state \(from) -> ", "\(document) (\(source)): 상태 \(from) -> ") + end
    }

    /// `diff` when the two states show the same.
    var noDifference: String { pick("  no difference", "  차이 없음") }

    /// A command other than `goto` given a word that is not a state number: "diff: "x" is not a state number".
    func notAStateNumber(in command: String, _ given: String) -> String {
        pick("\(command): \"\(given)\" is not a state number", "\(command): \"\(given)\"은(는) 상태 번호가 아닙니다")
    }

    /// `earlier --doc 10s`: a document moves by counts of its states only.
    func documentCountOnly(_ command: String, _ given: String) -> String {
        pick("\(command) --doc: \"\(given)\" is not a count of states (a document moves by its own states only)",
             "\(command) --doc: \"\(given)\"은(는) 상태 수가 아닙니다 (문서는 자기 상태로만 움직입니다)")
    }

    /// The title of a move of one document: "Go to state 3 of letter.txt".
    func goToDocumentState(_ id: UInt32, _ document: String) -> String {
        pick("Go to state \(id) of \(document)", "\(document)의 상태 \(id)(으)로 이동")
    }

    /// A document move that found the document already so.
    func documentAlreadyAt(_ id: UInt32, _ document: String) -> String {
        pick("\(document) is already as at state \(id)", "\(document)은(는) 이미 상태 \(id)과(와) 같습니다")
    }

    /// `earlier --doc` or `later --doc` with no state of the document that way.
    func nothingFurther(in document: String, earlier: Bool) -> String {
        earlier ? pick("\(document) is at its first state", "\(document)은(는) 첫 상태에 있습니다")
            : pick("\(document) is at its newest state", "\(document)은(는) 가장 새로운 상태에 있습니다")
    }

    /// A document move refused: its way runs a group that changed other documents too.
    func moveCrossesOtherDocuments(_ document: String, step: String) -> String {
        pick("the way of \(document) to that state passes \"\(step)\", a step that also changed other documents",
             "\(document)이(가) 그 상태로 가는 길에 다른 문서도 바꾼 단계 \"\(step)\"이(가) 있습니다")
    }

    /// The hint after a refused document move.
    var gotoEveryDocumentHint: String {
        pick("goto N (without --doc) moves every document to state N",
             "goto N(--doc 없이)은 모든 문서를 상태 N으로 옮깁니다")
    }

    /// Every string of this file, for ``catalog``.
    var timeTravelCatalog: [String] {
        let x = Self.catalogArgument
        return [zeroDistance(x, state: 1), noSavePoint(x), savePointDropped(x), revertCrossesOtherDocuments(x, step: x),
                gotoSavedHint, atState(x, 1), diffHeading(x, x, from: 1, to: 2), diffHeading(x, x, from: 1, to: nil),
                noDifference, notAStateNumber(in: x, x), documentCountOnly(x, x), goToDocumentState(1, x),
                documentAlreadyAt(1, x), nothingFurther(in: x, earlier: true), nothingFurther(in: x, earlier: false),
                moveCrossesOtherDocuments(x, step: x), gotoEveryDocumentHint]
    }
}
