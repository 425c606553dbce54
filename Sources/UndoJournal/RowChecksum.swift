/// The checksum every journal keeps beside each row: FNV-1a (64 bits) over the row's fields, so
/// a byte changed inside a value, which SQLite's own checks do not see, is caught.
///
/// The bytes each kind of field adds are part of the journals' file formats: changing them
/// would make every stored row fail its checksum (the committed fixtures check they do not).
/// Inlinable: it runs over every row written and read.
package struct RowChecksum {
    @usableFromInline var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    @inlinable package init() {}

    /// Adds bytes as they are.
    @inlinable package mutating func mix(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
    }

    /// Adds an array of bytes as they are: the same checksum as the generic `mix`, in a loop
    /// over a concrete array with the hash kept local (the generic one was left unspecialized
    /// in a release build and took about 60% of reopening a checkpoint of 250 MB).
    /// - Complexity: O(bytes).
    @inlinable package mutating func mix(_ bytes: [UInt8]) {
        var hash = self.hash
        for index in bytes.indices {
            hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01b3
        }
        self.hash = hash
    }

    /// Adds an integer as its 8 bytes, least significant first.
    @inlinable package mutating func mix(integer: Int64) {
        let bits = UInt64(bitPattern: integer)
        for shift in stride(from: 0 as UInt64, to: 64, by: 8) {
            hash = (hash ^ (bits >> shift & 0xff)) &* 0x0000_0100_0000_01b3
        }
    }

    /// Adds a text as its UTF-8 bytes ended by a 0 byte (so "ab", "c" differs from "a", "bc").
    @inlinable package mutating func mix(text: String) {
        // A concrete loop with the hash kept local, as for an array (see `mix(_: [UInt8])`),
        // over the text's UTF-8 in place where it is contiguous (a native string always is):
        // the view's iterator decodes its storage at every byte.
        var hash = self.hash
        let mixed: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        if mixed == nil {
            for byte in text.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        self.hash = (hash ^ 0) &* 0x0000_0100_0000_01b3
    }

    /// The checksum as a row stores it (its bits as SQLite's signed integer).
    @inlinable package var value: Int64 { Int64(bitPattern: hash) }
}
