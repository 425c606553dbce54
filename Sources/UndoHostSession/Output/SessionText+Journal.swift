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

// MARK: undo-host journal FILE

extension SessionText {
    private func say(_ english: String, _ korean: String) -> String {
        language == .english ? english : korean
    }

    func journalHeading(_ path: String) -> String { say("journal \(path)", "저널 \(path)") }
    var journalFormat: String { say("format", "형식") }
    var journalIdentity: String { say("identity", "식별자") }
    var journalSize: String { say("size", "크기") }
    func journalBytes(_ bytes: Int64, wal: Int64) -> String {
        say("\(bytes) bytes" + (wal > 0 ? ", and \(wal) bytes of -wal" : ", no -wal"),
            "\(bytes)바이트" + (wal > 0 ? ", -wal \(wal)바이트" : ", -wal 없음"))
    }
    var journalOpen: String { say("open", "열림") }
    func journalOpenBy(_ pid: Int32) -> String {
        say("in process \(pid) (its writer; this is a copy read now)", "프로세스 \(pid)에서 (쓰는 쪽; 지금 읽은 사본입니다)")
    }
    var journalPlugins: String { say("plugins", "플러그인") }
    var journalDocuments: String { say("documents", "문서") }
    var journalChanges: String { say("changes", "변경") }
    var journalCheckpoint: String { say("checkpoint", "체크포인트") }
    var journalVerified: String { say("verified", "검증") }
    var journalNone: String { say("none", "없음") }
    func journalPerforms(_ count: Int) -> String {
        say("\(count) perform\(count == 1 ? "" : "s")", "실행 \(count)개")
    }
    func journalLoadedFrom(_ path: String) -> String { say("loaded from \(path)", "\(path)에서 불러옴") }
    var journalInCheckpoint: String { say("its state in the checkpoint", "상태가 체크포인트에 있음") }
    func journalChangeRange(count: Int, first: Int64, last: Int64, from: String, to: String) -> String {
        say("\(count) (\(first) to \(last)), \(from) to \(to) UTC", "\(count)개 (\(first)~\(last)), \(from)~\(to) UTC")
    }
    func journalCheckpointSummary(after sequence: Int64, at time: String, steps: Int, documents: Int, bytes: Int) -> String {
        say("after change \(sequence), \(time) UTC: \(steps) step\(steps == 1 ? "" : "s"), \(documents) document\(documents == 1 ? "" : "s") (\(bytes) bytes)",
            "변경 \(sequence) 다음, \(time) UTC: 단계 \(steps)개, 문서 \(documents)개 (\(bytes)바이트)")
    }
    /// After the checkpoint summary, for a format-5 checkpoint with states over 4 MiB.
    func journalPieces(_ count: Int) -> String {
        say(", \(count) further piece\(count == 1 ? "" : "s") of 4 MiB", ", 4 MiB 추가 조각 \(count)개")
    }
    func journalVerifiedSummary(changes: Int, checkpointRows: Int) -> String {
        say("every row checked: \(changes) change\(changes == 1 ? "" : "s") and \(checkpointRows) checkpoint row\(checkpointRows == 1 ? "" : "s") "
            + "(checksums, values, order); SQLite's integrity check: ok",
            "모든 행 확인: 변경 \(changes)개, 체크포인트 행 \(checkpointRows)개 (체크섬, 값, 순서); SQLite 무결성 검사: 정상")
    }

    var journalReportCatalog: [String] {
        let x = Self.catalogArgument
        return [journalHeading(x), journalFormat, journalIdentity, journalSize, journalBytes(1, wal: 0), journalBytes(1, wal: 2),
                journalOpen, journalOpenBy(1), journalPlugins, journalDocuments, journalChanges, journalCheckpoint, journalVerified,
                journalNone, journalPerforms(1), journalPerforms(2), journalLoadedFrom(x), journalInCheckpoint,
                journalChangeRange(count: 2, first: 1, last: 2, from: x, to: x),
                journalCheckpointSummary(after: 1, at: x, steps: 2, documents: 2, bytes: 3),
                journalCheckpointSummary(after: 1, at: x, steps: 1, documents: 1, bytes: 3),
                journalVerifiedSummary(changes: 2, checkpointRows: 3), journalVerifiedSummary(changes: 1, checkpointRows: 1),
                journalPieces(1), journalPieces(2)]
    }
}
