import Foundation

/// Checks every fenced code block of one Markdown document, in order, in one workspace; see
/// docs/checked-examples.md for the marks. Collects problems instead of stopping at the first,
/// and in update mode (UNDOHOST_UPDATE_DOC_SAMPLES=1) rewrites the sample outputs it finds
/// stale with what the programs print, and copies of source files with the sources.
final class DocumentChecker {
    let name: String
    let text: String
    let update: Bool
    private(set) var problems: [String] = []
    private(set) var replacements: [(block: MarkdownBlock, lines: [String])] = []
    private(set) var checkedBlocks = 0
    private var workspace: DocumentWorkspace?
    private var printed: [String: String] = [:]

    init(name: String, text: String, update: Bool = false) {
        self.name = name
        self.text = text
        self.update = update
    }

    func checkAll() {
        for block in MarkdownBlocks.parse(text) {
            do {
                try check(block)
                checkedBlocks += 1
            } catch {
                problem(block, "\(error)")
            }
        }
    }

    /// The document with the stale sample outputs replaced.
    func updatedText() -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (block, body) in replacements.sorted(by: { $0.block.openingLine > $1.block.openingLine }) {
            lines.replaceSubrange(block.openingLine..<(block.closingLine - 1), with: body)
        }
        return lines.joined(separator: "\n")
    }

    private func problem(_ block: MarkdownBlock, _ message: String) {
        problems.append("\(name):\(block.openingLine): \(message)")
    }

    private func space() throws -> DocumentWorkspace {
        if let workspace { return workspace }
        let made = try DocumentWorkspace()
        workspace = made
        return made
    }

    private func check(_ block: MarkdownBlock) throws {
        guard let words = block.check, let kind = words.first else {
            switch block.language {
            case "console": return try checkConsole(block)
            case "sh", "bash": return try CommandReferences.check(block.text).forEach { problem(block, $0) }
            default:
                throw DocsCheckError("a ```\(block.info) block needs a check: <!-- check: … --> on the line before "
                                     + "(see docs/checked-examples.md)")
            }
        }
        let argument = words.count > 1 ? words[1] : ""
        switch kind {
        case "file":
            try space().write(try plainName(argument), block.text)
        case "c-plugin":
            try space().write(try plainName(argument), block.text)
            let library = "lib" + (argument as NSString).deletingPathExtension + ".so"
            try compile(block, ["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-shared", "-fPIC",
                                "-fvisibility=hidden", "-I", "Include", "-o", library, argument])
        case "c-program":
            try space().write(try plainName(argument), block.text)
            let program = (argument as NSString).deletingPathExtension
            try compile(block, ["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", "Include",
                                "-o", program, argument, "-L", ".build/debug", "-lundohost",
                                "-Wl,-rpath," + Repository.products])
        case "same-as":
            let expected = try SourceRegion.text(argument)
            if block.text != expected {
                replacements.append((block, lines(of: expected)))
                if !update {
                    throw DocsCheckError("differs from \(argument):\n" + Difference.describe(expected: block.text, actual: expected))
                }
            }
        case "swift-example":
            let expected = try SourceRegion.text("Tests/DocsTests/Examples#" + argument)
            if block.text != expected {
                replacements.append((block, lines(of: expected)))
            }
            if block.text != expected && !update {
                throw DocsCheckError("differs from the example \(argument) in Tests/DocsTests/Examples:\n"
                                     + Difference.describe(expected: block.text, actual: expected))
            }
            printed[argument] = try DocExamples.printedOutput(of: argument)
        case "output":
            let actual: String
            if let known = printed[argument] { actual = known } else { actual = try DocExamples.printedOutput(of: argument) }
            if block.text != actual {
                replacements.append((block, lines(of: actual)))
                if !update {
                    throw DocsCheckError("the example \(argument) prints something else:\n"
                                         + Difference.describe(expected: block.text, actual: actual))
                }
            }
        case "swift-manifest":
            try checkManifest(block)
        case "skip":
            if words.count < 4 { throw DocsCheckError("`skip` needs a reason of a few words") }
        default:
            throw DocsCheckError("unknown check \(kind)")
        }
    }

    private func plainName(_ name: String) throws -> String {
        guard !name.isEmpty, !name.contains("/") else { throw DocsCheckError("expected a plain file name, got \"\(name)\"") }
        return name
    }

    private func compile(_ block: MarkdownBlock, _ command: [String]) throws {
        let result = try space().run(command[0], Array(command.dropFirst()))
        if result.status != 0 {
            throw DocsCheckError("does not compile (\(command.joined(separator: " "))):\n\(result.errors)\(result.output)")
        }
    }

    private func lines(of text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A console block: `$ command` lines (a line ending in `\` continues), each followed by
    /// what the command prints. Every command runs, in order, in the document's workspace.
    private func checkConsole(_ block: MarkdownBlock) throws {
        var commands: [(lines: [String], output: [String])] = []
        var continuing = false
        for line in block.lines {
            if continuing {
                commands[commands.count - 1].lines.append(line)
            } else if line.hasPrefix("$ ") {
                commands.append(([line], []))
            } else if commands.isEmpty {
                throw DocsCheckError("a console block starts with a `$ command` line")
            } else {
                commands[commands.count - 1].output.append(line)
            }
            continuing = line.hasSuffix("\\") && commands.last?.output.isEmpty == true
        }
        let scripts = commands.map { command in
            command.lines.enumerated().map { $0.offset == 0 ? String($0.element.dropFirst(2)) : $0.element }
                .joined(separator: "\n")
        }
        let outputs = try space().runSession(scripts)
        var rewritten: [String] = []
        var stale: [String] = []
        for (command, output) in zip(commands, outputs) {
            // The separator starts on a line of its own: the newline before it is not output.
            let printed = output.hasSuffix("\n") ? String(output.dropLast()) : output
            let shown = printed.isEmpty ? [] : printed.split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            rewritten += command.lines + shown
            if shown != command.output {
                stale.append("`\(command.lines.joined(separator: " "))` printed:\n"
                              + Difference.describe(expected: command.output.map { $0 + "\n" }.joined(),
                                                    actual: shown.map { $0 + "\n" }.joined()))
            }
        }
        if !stale.isEmpty {
            replacements.append((block, rewritten))
            if !update { throw DocsCheckError(stale.joined(separator: "\n")) }
        }
    }

    /// A package manifest: evaluated by `swift package dump-package`, and every product it takes
    /// from UndoHost is one this package declares.
    private func checkManifest(_ block: MarkdownBlock) throws {
        let workspace = try space()
        let folder = "manifest-\(block.openingLine)"
        try workspace.write(folder + "/Package.swift", block.text)
        let result = try workspace.run("swift", ["package", "--package-path", folder, "dump-package"])
        if result.status != 0 { throw DocsCheckError("swift package dump-package fails:\n\(result.errors)") }
        let ours = try Repository.read("Package.swift")
        let used = try Regex(#"\.product\(name: "([^"]+)", package: "UndoHost"\)"#)
        for match in block.text.matches(of: used) {
            let product = String(match.output[1].substring ?? "")
            if !ours.contains(".library(name: \"\(product)\"") {
                throw DocsCheckError("UndoHost has no library product \(product)")
            }
        }
    }
}

struct DocsCheckError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// What differs between the text a document shows and the real one, for a failure message.
enum Difference {
    static func describe(expected: String, actual: String) -> String {
        let shown = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let real = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let first = (0..<min(shown.count, real.count)).first { shown[$0] != real[$0] } ?? min(shown.count, real.count)
        return "  first difference at line \(first + 1) of the block\n  the document shows:\n"
            + shown.map { "    | " + $0 }.joined(separator: "\n")
            + "\n  the real text is:\n" + real.map { "    | " + $0 }.joined(separator: "\n")
    }
}
