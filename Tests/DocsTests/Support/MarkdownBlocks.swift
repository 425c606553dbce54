import Foundation

/// A fenced code block of a Markdown file, with the check its author asked for.
struct MarkdownBlock: Sendable {
    /// The fence's info string: its first word is the language (`c`, `swift`, `console`, `sh`, `text`).
    var info: String
    var language: String { String(info.split(separator: " ").first ?? "") }
    /// The block's lines, without the fences.
    var lines: [String]
    var text: String { lines.map { $0 + "\n" }.joined() }
    /// The 1-based line numbers of the opening and closing fences.
    var openingLine: Int
    var closingLine: Int
    /// The words of the `<!-- check: … -->` comment on the line before the fence (blank lines
    /// between are allowed), or nil.
    var check: [String]?
}

/// Finds fenced code blocks (``` or ~~~, at any indentation up to three spaces) and their checks.
enum MarkdownBlocks {
    static func parse(_ text: String) -> [MarkdownBlock] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [MarkdownBlock] = []
        var pendingCheck: [String]?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.drop { $0 == " " }
            if let words = checkWords(trimmed) {
                pendingCheck = words
            } else if let fence = fence(of: trimmed), line.count - trimmed.count <= 3 {
                let info = trimmed.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
                var body: [String] = []
                var closing = index + 1
                while closing < lines.count, !isClosing(lines[closing], fence: fence) {
                    body.append(lines[closing])
                    closing += 1
                }
                blocks.append(MarkdownBlock(info: info, lines: body, openingLine: index + 1,
                                            closingLine: closing + 1, check: pendingCheck))
                pendingCheck = nil
                index = closing
            } else if !trimmed.isEmpty {
                pendingCheck = nil
            }
            index += 1
        }
        return blocks
    }

    /// `<!-- check: same-as X -->` gives ["same-as", "X"].
    static func checkWords(_ line: Substring) -> [String]? {
        guard line.hasPrefix("<!-- check:"), line.hasSuffix("-->") else { return nil }
        let inner = line.dropFirst("<!-- check:".count).dropLast("-->".count)
        return inner.split(separator: " ").map(String.init)
    }

    private static func fence(of line: Substring) -> String? {
        for mark in ["`", "~"] {
            let run = line.prefix { String($0) == mark }
            if run.count >= 3 { return String(run) }
        }
        return nil
    }

    private static func isClosing(_ line: String, fence: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix(fence) && trimmed.allSatisfy { String($0) == String(fence.first!) }
    }
}
