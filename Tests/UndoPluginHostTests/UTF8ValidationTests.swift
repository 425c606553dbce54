import Testing
import UndoPluginABI
@testable import UndoPluginHost

/// Strings plugins hand to the host (set_inverse_arg, set_description, record, the names they
/// register) are accepted only as valid UTF-8 (``CStrings/validated(_:)``): the same answer as
/// the standard library's `String(validating:as:)`, whose generic path cost about 1,000
/// instructions a call.
@Suite struct UTF8ValidationTests {
    private func validated(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { CStrings.validated($0) }
    }

    @Test func validTextIsReadAsItIs() {
        for text in ["", "a", "héllo wörld", "日本語", "🙂 emoji", "a\u{0}b", String(repeating: "long text ", count: 40)] {
            #expect(validated(Array(text.utf8)) == text)
        }
    }

    /// Including a sequence cut short at the end, which the repairing decoder replaces by one
    /// U+FFFD of as many bytes (F0 9F 98: three bytes either way).
    @Test func invalidSequencesAreRefused() {
        let invalid: [[UInt8]] = [
            [0xFF], [0x80], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98], [0xE2, 0x82],
            [0x61, 0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80], [0x61, 0xC3], [0xEF, 0xBF, 0xBD, 0xFF],
        ]
        for bytes in invalid { #expect(validated(bytes) == nil, "\(bytes)") }
    }

    @Test func randomBytesGetTheStandardLibrarysAnswer() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [[0x61], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x99, 0x82], [0xEF, 0xBF, 0xBD],
                                 [0x80], [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F], [0xED, 0xA0, 0x80], [0x00]]
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                bytes += pieces.randomElement(using: &generator)!
            }
            #expect(validated(bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
        }
    }

    /// A string value is read from the caller's memory once its pointer and size are checked:
    /// empty with NULL data is the empty string, NULL with a size is refused, and so is a size
    /// over the limit (nothing read).
    @Test func aPluginsStringValueIsCheckedBeforeItIsRead() throws {
        func read(_ data: UnsafePointer<CChar>?, _ size: UInt64) -> Result<ActionValue, ActionArgumentError.Kind> {
            var value = undo_value()
            value.type = ActionValueType.string.rawValue
            value.as.string.data = data
            value.as.string.size = size
            do throws(ActionArgumentError.Kind) {
                return .success(try ActionValue(reading: value))
            } catch {
                return .failure(error)
            }
        }
        #expect(try read(nil, 0).get() == .string(""))
        guard case .failure(.invalidValue) = read(nil, 3) else {
            Issue.record("NULL data with a size was read")
            return
        }
        let tooLarge = UInt64(ActionArguments.maximumValueSize) + 1
        "x".withCString { pointer in
            guard case .failure(.tooLarge) = read(pointer, tooLarge) else {
                Issue.record("a size over the limit was read")
                return
            }
        }
        "héllo".withCString { pointer in
            #expect((try? read(pointer, 6).get()) == .string("héllo"))
            #expect((try? read(pointer, 2).get()) == nil)  // cut inside "é": not UTF-8
        }
    }

    @Test func aPluginsValueOfInvalidUTF8IsRefused() throws {
        var bytes: [UInt8] = [0xF0, 0x9F, 0x98]
        let error = bytes.withUnsafeMutableBytes { buffer -> ActionArgumentError.Kind? in
            var value = undo_value()
            value.type = ActionValueType.string.rawValue
            value.as.string.data = UnsafePointer(buffer.baseAddress!.assumingMemoryBound(to: CChar.self))
            value.as.string.size = UInt64(buffer.count)
            do throws(ActionArgumentError.Kind) {
                _ = try ActionValue(reading: value)
                return nil
            } catch {
                return error
            }
        }
        #expect(error == .invalidUTF8)
    }
}
