import Foundation
import Testing

/// Every code block of README.md, the other top-level Markdown files, docs/*.md and the DocC
/// articles is compiled, run or compared (docs/checked-examples.md). Set
/// UNDOHOST_UPDATE_DOC_SAMPLES=1 (scripts/update-doc-samples.sh) to rewrite the sample outputs
/// with what the programs print now instead of failing on them.
@Suite struct DocumentationTests {
    static let updating = ProcessInfo.processInfo.environment["UNDOHOST_UPDATE_DOC_SAMPLES"] == "1"

    @Test(arguments: Repository.documents)
    func everyBlockShowsWhatTheCodeDoes(_ document: String) throws {
        let checker = DocumentChecker(name: document, text: try Repository.read(document), update: Self.updating)
        checker.checkAll()
        if Self.updating && !checker.replacements.isEmpty {
            try checker.updatedText().write(toFile: Repository.root + "/" + document, atomically: true, encoding: .utf8)
        }
        #expect(checker.problems.isEmpty, "\(checker.problems.joined(separator: "\n\n"))")
    }

    @Test func theDocumentsAreFound() {
        #expect(Repository.documents.contains("README.md"))
        #expect(Repository.documents.contains("docs/undo-host.md"))
        #expect(Repository.documents.contains("Sources/UndoCore/UndoCore.docc/UndoCore.md"))
    }

    @Test func theReadmeStaysAFrontPage() throws {
        let lines = try Repository.read("README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 300, "README.md has \(lines) lines; move the detail to docs/")
    }

    /// The checks themselves can fail: a wrong sample output, a stale copy, an unchecked block,
    /// a compile error and a command naming a missing file are each reported with the line.
    @Test func aBlockThatDriftedIsReported() {
        let markdown = """
            # Drift

            ```console
            $ echo hello
            goodbye
            ```

            <!-- check: same-as examples/c-host/main.c -->
            ```c
            int main(void) { return 0; }
            ```

            ```text
            unchecked
            ```

            <!-- check: c-plugin broken.c -->
            ```c
            this is not C
            ```

            ```sh
            bash scripts/no-such-script.sh
            ```
            """
        let checker = DocumentChecker(name: "drift.md", text: markdown)
        checker.checkAll()
        let problems = checker.problems
        #expect(problems.count == 5, "\(problems)")
        #expect(problems.first { $0.hasPrefix("drift.md:3:") }?.contains("| hello") == true)
        #expect(problems.contains { $0.hasPrefix("drift.md:9: differs from examples/c-host/main.c") })
        #expect(problems.contains { $0.hasPrefix("drift.md:13: a ```text block needs a check") })
        #expect(problems.contains { $0.hasPrefix("drift.md:18: does not compile") })
        #expect(problems.contains { $0.contains("scripts/no-such-script.sh") })
        // In update mode the console block is rewritten with what the command printed.
        let updating = DocumentChecker(name: "drift.md", text: markdown, update: true)
        updating.checkAll()
        #expect(updating.updatedText().contains("$ echo hello\nhello\n```"))
    }

    @Test func aRegionMayStopAndStartAgain() throws {
        let text = try SourceRegion.text("Tests/DocsTests/Examples/QuickStartExample.swift#quick-start")
        #expect(text.hasPrefix("import UndoCore\n\nfinal class Document"))
        #expect(!text.contains("static func"))
    }
}
