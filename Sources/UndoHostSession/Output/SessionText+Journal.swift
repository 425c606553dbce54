// The words of `undo-host journal FILE` and of a perform that failed after changing its
// document, in the session's language (English, Korean).

extension SessionText {
    private func choose(_ english: String, _ korean: String) -> String {
        language == .english ? english : korean
    }

    /// The hint of a perform that failed after it had changed the document.
    func changedDespiteFailure(_ document: String) -> String {
        choose("the plugin changed document \(document) before it failed, and the history is unchanged: the document no longer matches its history "
               + "(undo will not restore it); report this to the plugin's author",
               "플러그인이 실패하기 전에 \(document) 문서를 바꿨고 기록은 그대로입니다. 문서가 기록과 맞지 않습니다(실행 취소로 되돌릴 수 없습니다). "
               + "플러그인 작성자에게 알리세요")
    }

    /// The strings above and those of the journal report, for the catalog test.
    var journalCatalog: [String] {
        let x = Self.catalogArgument
        return [changedDespiteFailure(x)] + journalReportCatalog
    }
}

extension SessionText {
    var journalReportCatalog: [String] { [] }
}
