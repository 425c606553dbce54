import UndoPluginABI
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lines of a script, read in bounded pieces from a file descriptor (a file, a pipe,
/// standard input) or taken from a text. A line ends at LF, CRLF or CR, so a script saved with
/// Windows or old Mac line endings runs line by line. A line longer than
/// ``maximumLineBytes``, or one that is not UTF-8, is an error naming its line number, and
/// nothing after it is read: the reader never holds more than one line and one 64 KiB piece,
/// whatever the input (`run /dev/zero` ends with an error, not with the memory of the machine).
public final class ScriptLineReader {
    /// The longest line: room for the largest value (16 MiB, `UNDO_MAX_VALUE_SIZE`) with the
    /// command around it.
    public static let maximumLineBytes = 17 << 20

    public enum Failure: Error, Equatable {
        case tooLong(line: Int)
        case notText(line: Int)
        case readFailed(line: Int, reason: String)

        var sessionError: SessionError {
            switch self {
            case .tooLong(let line):
                SessionError(.input, "line \(line) is longer than \(ScriptLineReader.maximumLineBytes) bytes; nothing after it was read",
                             code: UNDO_ELIMIT)
            case .notText(let line): SessionError(.input, "line \(line) is not UTF-8 text; nothing after it was read", code: UNDO_EUTF8)
            case .readFailed(let line, let reason): SessionError(.input, "cannot read line \(line): \(reason)", code: UNDO_EINVAL)
            }
        }

        var line: Int {
            switch self {
            case .tooLong(let line), .notText(let line), .readFailed(let line, _): line
            }
        }
    }

    private let descriptor: Int32
    private let closesDescriptor: Bool
    private var piece: [UInt8]
    private var position = 0
    private var end = 0
    private var finished = false
    /// The last line ended with CR: an LF right after it belongs to that ending.
    private var afterCarriageReturn = false
    /// Lines given so far.
    public private(set) var lineNumber = 0
    private let limit: Int

    /// Reads `descriptor` (closed at the end when `closing`).
    public init(descriptor: Int32, closing: Bool, limit: Int = ScriptLineReader.maximumLineBytes) {
        self.descriptor = descriptor
        closesDescriptor = closing
        piece = [UInt8](repeating: 0, count: 65536)
        self.limit = limit
    }

    /// The lines of `text`.
    public init(text: String, limit: Int = ScriptLineReader.maximumLineBytes) {
        descriptor = -1
        closesDescriptor = false
        piece = Array(text.utf8)
        end = piece.count
        self.limit = limit
    }

    /// Opens a file for reading. - Returns: the reader, or the system's reason.
    static func opening(_ path: String) -> Result<ScriptLineReader, FileSystem.FileError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(FileSystem.FileError(reason: String(cString: strerror(errno)))) }
        var info = stat()
        if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            return .failure(FileSystem.FileError(reason: String(cString: strerror(EISDIR))))
        }
        return .success(ScriptLineReader(descriptor: descriptor, closing: true))
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// The next line without its ending, a failure (after which there are no more lines), or
    /// `nil` at the end of the input.
    public func next() -> Result<String, Failure>? {
        guard !finished else { return nil }
        var line: [UInt8] = []
        let number = lineNumber + 1
        while true {
            if position == end {
                switch refill() {
                case .failure(let error):
                    finished = true
                    return .failure(.readFailed(line: number, reason: error.reason))
                case .success(false):
                    finished = true
                    if line.isEmpty { return nil }
                    return finish(line, number)
                case .success(true): break
                }
            }
            if afterCarriageReturn {
                afterCarriageReturn = false
                if piece[position] == UInt8(ascii: "\n") {
                    position += 1
                    continue
                }
            }
            let stop = piece[position..<end].firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } ?? end
            guard line.count + (stop - position) <= limit else {
                finished = true
                return .failure(.tooLong(line: number))
            }
            line += piece[position..<stop]
            position = stop
            if stop < end {
                afterCarriageReturn = piece[stop] == UInt8(ascii: "\r")
                position += 1
                return finish(line, number)
            }
        }
    }

    private func finish(_ bytes: [UInt8], _ number: Int) -> Result<String, Failure> {
        lineNumber = number
        guard let text = String(validating: bytes, as: UTF8.self) else {
            finished = true
            return .failure(.notText(line: number))
        }
        return .success(text)
    }

    struct ReadError: Error { var reason: String }

    /// Reads the next piece. - Returns: false at the end of the input.
    private func refill() -> Result<Bool, ReadError> {
        guard descriptor >= 0 else { return .success(false) }
        while true {
            let count = piece.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ReadError(reason: String(cString: strerror(errno))))
            }
            position = 0
            end = count
            return .success(count > 0)
        }
    }
}
