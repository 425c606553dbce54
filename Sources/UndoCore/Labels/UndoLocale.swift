// `load(contentsOfFile:)` reads its file with system calls: UndoCore stays free of Foundation.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The words of the Undo and Redo titles and of the shake-to-undo alert in one language.
///
/// Titles with a name come from templates in which `%@` stands for the name, so each language
/// puts the name where its grammar wants it ("Undo %@", "%@ 실행 취소", "%@を取り消す"); titles
/// are never assembled from separately translated words.
///
/// English and Korean are built in. Other languages are added without code changes, from text
/// in the format described at ``init(parsing:)``.
public struct UndoLocale: Sendable, Hashable {
    /// The language's identifier, such as "en" or "ko".
    public let identifier: String
    /// The Undo title for an unnamed step: "Undo".
    public let undoTitle: String
    /// The Redo title for an unnamed step: "Redo".
    public let redoTitle: String
    /// The Undo title for a named step, with ``placeholder`` where the name goes: "Undo %@".
    public let undoNamedTemplate: String
    /// The Redo title for a named step, with ``placeholder`` where the name goes: "Redo %@".
    public let redoNamedTemplate: String
    /// The title of the button that dismisses the alert: "Cancel".
    public let cancelTitle: String
    /// The alert's title when there is nothing to undo or redo: "Nothing to Undo".
    public let nothingToUndoTitle: String
    /// Whether names get English title-style capitalization ("Change of Address"). True for
    /// English; false for languages whose capitalization rules differ or that have no case.
    public let capitalizesNames: Bool

    /// The mark in a named template that the step's name replaces.
    public static let placeholder = "%@"

    // Not public: values from outside go through `init(parsing:)`, which validates them.
    init(
        identifier: String, undoTitle: String, redoTitle: String, undoNamedTemplate: String,
        redoNamedTemplate: String, cancelTitle: String, nothingToUndoTitle: String,
        capitalizesNames: Bool
    ) {
        self.identifier = identifier
        self.undoTitle = undoTitle
        self.redoTitle = redoTitle
        self.undoNamedTemplate = undoNamedTemplate
        self.redoNamedTemplate = redoNamedTemplate
        self.cancelTitle = cancelTitle
        self.nothingToUndoTitle = nothingToUndoTitle
        self.capitalizesNames = capitalizesNames
    }

    /// English: "Undo Typing", "Redo", "Nothing to Undo"; names are title-cased.
    public static let english = UndoLocale(
        identifier: "en", undoTitle: "Undo", redoTitle: "Redo",
        undoNamedTemplate: "Undo %@", redoNamedTemplate: "Redo %@",
        cancelTitle: "Cancel", nothingToUndoTitle: "Nothing to Undo", capitalizesNames: true)

    /// Korean: "입력 실행 취소", "실행 복귀", "실행 취소할 항목 없음"; Hangul has no case.
    public static let korean = UndoLocale(
        identifier: "ko", undoTitle: "실행 취소", redoTitle: "실행 복귀",
        undoNamedTemplate: "%@ 실행 취소", redoNamedTemplate: "%@ 실행 복귀",
        cancelTitle: "취소", nothingToUndoTitle: "실행 취소할 항목 없음", capitalizesNames: false)

    /// The built-in locale for a language identifier, or `nil` if there is none.
    ///
    /// Matching ignores case and any region or script after "-" or "_", so "en-US", "EN" and
    /// "ko_KR" all find a locale.
    public static func builtIn(_ identifier: String) -> UndoLocale? {
        let language = identifier.prefix { $0 != "-" && $0 != "_" }.lowercased()
        switch language {
        case "en": return .english
        case "ko": return .korean
        default: return nil
        }
    }

    /// Reads a locale from a UTF-8 text file in the format described at ``init(parsing:)``.
    ///
    /// - Throws: ``FileError`` when the file cannot be read or is not UTF-8, or a
    ///   ``ParseError`` when its contents are not a valid locale.
    public static func load(contentsOfFile path: String) throws -> UndoLocale {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FileError(path: path, reason: "the file is not valid UTF-8")
        }
        return try UndoLocale(parsing: text)
    }

    /// A locale file that could not be read.
    public struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        /// The system's message ("No such file or directory"), or why the content is unusable.
        public var reason: String
        public var description: String { "cannot read \(path): \(reason)" }
    }

    /// Reads a locale from text, so a language can be added without changing code.
    ///
    /// The format has one `key = value` setting per line. Blank lines are ignored, and so are
    /// lines whose first non-blank character is `#` (a `#` later in a line is part of the value).
    /// Spaces around keys and values are trimmed; a value runs to the end of its line and may
    /// contain `=`. Each key may appear once:
    ///
    /// | key             | meaning                                            | English             |
    /// |-----------------|----------------------------------------------------|---------------------|
    /// | `identifier`    | language identifier                                | `en`                |
    /// | `undo`          | Undo title of an unnamed step                      | `Undo`              |
    /// | `redo`          | Redo title of an unnamed step                      | `Redo`              |
    /// | `undo.named`    | Undo title of a named step; exactly one `%@`       | `Undo %@`           |
    /// | `redo.named`    | Redo title of a named step; exactly one `%@`       | `Redo %@`           |
    /// | `cancel`        | the alert's Cancel button                          | `Cancel`            |
    /// | `alert.nothing` | the alert's title when nothing can be undone       | `Nothing to Undo`   |
    /// | `capitalize`    | optional, `true` or `false` (default): title-case names | `true`         |
    ///
    /// All keys except `capitalize` are required and must have a value. `%@` has no escape and
    /// must not appear in the titles without a name. For example:
    ///
    /// ```
    /// # Japanese: the name comes first.
    /// identifier = ja
    /// undo = 取り消す
    /// redo = やり直す
    /// undo.named = %@を取り消す
    /// redo.named = %@をやり直す
    /// cancel = キャンセル
    /// alert.nothing = 取り消せる操作はありません
    /// ```
    ///
    /// - Throws: ``ParseError``, naming the line and key at fault, or the missing keys.
    /// - Complexity: O(*n*) in the length of `text`.
    public init(parsing text: String) throws(ParseError) {
        var values: [Key: (line: Int, value: String)] = [:]
        // Split on every kind of line break; "\r\n" is a single Character, so it counts once.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (offset, rawLine) in lines.enumerated() {
            let lineNumber = offset + 1
            var line = Self.trimmed(rawLine)
            if offset == 0, line.first == "\u{FEFF}" {
                line = Self.trimmed(line.dropFirst())  // byte order mark left by some editors
            }
            if line.isEmpty || line.first == "#" { continue }

            guard let equals = line.firstIndex(of: "=") else {
                throw .malformedLine(line: lineNumber, text: String(line))
            }
            let keyText = String(Self.trimmed(line[..<equals]))
            let value = String(Self.trimmed(line[line.index(after: equals)...]))
            guard !keyText.isEmpty else {
                throw .malformedLine(line: lineNumber, text: String(line))
            }
            guard let key = Key(rawValue: keyText) else {
                throw .unknownKey(line: lineNumber, key: keyText)
            }
            if let earlier = values[key] {
                throw .duplicateKey(line: lineNumber, key: keyText, firstLine: earlier.line)
            }
            guard !value.isEmpty else {
                throw .emptyValue(line: lineNumber, key: keyText)
            }
            if let expected = key.placeholderCount {
                let found = Self.placeholderCount(in: value)
                if found != expected {
                    throw .placeholderCount(line: lineNumber, key: keyText, found: found, expected: expected)
                }
            }
            values[key] = (lineNumber, value)
        }

        let missing = Key.allCases.filter { $0.isRequired && values[$0] == nil }
        guard missing.isEmpty else {
            throw .missingKeys(missing.map(\.rawValue))
        }

        var capitalizes = false
        if let setting = values[.capitalize] {
            switch setting.value.lowercased() {
            case "true", "yes": capitalizes = true
            case "false", "no": capitalizes = false
            default:
                throw .invalidBoolean(line: setting.line, key: Key.capitalize.rawValue, value: setting.value)
            }
        }
        // Every required key was checked above; the force-unwraps cannot fail.
        self.init(
            identifier: values[.identifier]!.value,
            undoTitle: values[.undo]!.value,
            redoTitle: values[.redo]!.value,
            undoNamedTemplate: values[.undoNamed]!.value,
            redoNamedTemplate: values[.redoNamed]!.value,
            cancelTitle: values[.cancel]!.value,
            nothingToUndoTitle: values[.alertNothing]!.value,
            capitalizesNames: capitalizes)
    }

    /// Why a locale's text was rejected by ``UndoLocale/init(parsing:)``. Line numbers count
    /// from 1.
    public enum ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A line that is neither blank, a comment, nor `key = value`.
        case malformedLine(line: Int, text: String)
        /// A key the format does not define (often a misspelling).
        case unknownKey(line: Int, key: String)
        /// A key given a second time.
        case duplicateKey(line: Int, key: String, firstLine: Int)
        /// A key with nothing after its `=`.
        case emptyValue(line: Int, key: String)
        /// A value with the wrong number of `%@`: one for named templates, none elsewhere.
        case placeholderCount(line: Int, key: String, found: Int, expected: Int)
        /// A `capitalize` value that is not `true`, `false`, `yes` or `no`.
        case invalidBoolean(line: Int, key: String, value: String)
        /// Required keys that the text never set, in the order of the format's table.
        case missingKeys([String])

        /// A message for the person who wrote the locale file.
        public var description: String {
            switch self {
            case .malformedLine(let line, let text):
                "line \(line): expected 'key = value', found '\(text)'"
            case .unknownKey(let line, let key):
                "line \(line): unknown key '\(key)'; known keys are "
                    + Key.allCases.map(\.rawValue).joined(separator: ", ")
            case .duplicateKey(let line, let key, let firstLine):
                "line \(line): key '\(key)' was already set on line \(firstLine)"
            case .emptyValue(let line, let key):
                "line \(line): key '\(key)' has no value"
            case .placeholderCount(let line, let key, let found, let expected):
                expected == 0
                    ? "line \(line): key '\(key)' must not contain %@ (found \(found))"
                    : "line \(line): key '\(key)' must contain %@ exactly once (found \(found))"
            case .invalidBoolean(let line, let key, let value):
                "line \(line): key '\(key)' must be true or false, not '\(value)'"
            case .missingKeys(let keys):
                "missing required keys: " + keys.joined(separator: ", ")
            }
        }
    }

    // MARK: - Internal

    /// Puts `name` in place of the template's placeholder. The name is inserted once and not
    /// scanned, so a name that itself contains "%@" stays as it is.
    static func fill(_ template: String, with name: String) -> String {
        let utf8 = template.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let next = utf8.index(after: index)
            if utf8[index] == UInt8(ascii: "%"), next < utf8.endIndex, utf8[next] == UInt8(ascii: "@") {
                return String(template[..<index]) + name + String(template[utf8.index(after: next)...])
            }
            index = next
        }
        // Templates are validated to hold a placeholder; this only guards against misuse.
        return template
    }

    /// Counts non-overlapping "%@" in `text`.
    static func placeholderCount(in text: String) -> Int {
        var count = 0
        var afterPercent = false
        for byte in text.utf8 {
            if afterPercent, byte == UInt8(ascii: "@") {
                count += 1
                afterPercent = false
            } else {
                afterPercent = byte == UInt8(ascii: "%")
            }
        }
        return count
    }

    /// The keys of the text format, in the order its documentation lists them.
    enum Key: String, CaseIterable {
        case identifier
        case undo
        case redo
        case undoNamed = "undo.named"
        case redoNamed = "redo.named"
        case cancel
        case alertNothing = "alert.nothing"
        case capitalize

        var isRequired: Bool { self != .capitalize }

        /// How many placeholders the value must hold; `nil` when it is not a title.
        var placeholderCount: Int? {
            switch self {
            case .undoNamed, .redoNamed: 1
            case .undo, .redo, .cancel, .alertNothing: 0
            case .identifier, .capitalize: nil
            }
        }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return text[text.endIndex...] }
        return text[first...last]
    }
}
