import Testing
import UndoJournal

/// The row checksum is FNV-1a 64 as the journals' files have it (the committed fixtures check
/// each journal's rows; these check the function itself).
@Suite struct RowChecksumTests {
    @Test func itIsFNV1a() {
        #expect(UInt64(bitPattern: RowChecksum().value) == 0xcbf2_9ce4_8422_2325)
        var letter = RowChecksum()
        letter.mix(Array("a".utf8))
        #expect(UInt64(bitPattern: letter.value) == 0xaf63_dc4c_8601_ec8c)
    }

    @Test func integersAreTheirLittleEndianBytesAndTextsEndWithZero() {
        var integer = RowChecksum()
        integer.mix(integer: 0x0102_0304_0506_0708)
        var bytes = RowChecksum()
        bytes.mix([8, 7, 6, 5, 4, 3, 2, 1])
        #expect(integer.value == bytes.value)

        var text = RowChecksum()
        text.mix(text: "ab")
        var textBytes = RowChecksum()
        textBytes.mix([0x61, 0x62, 0])
        #expect(text.value == textBytes.value)
    }
}
