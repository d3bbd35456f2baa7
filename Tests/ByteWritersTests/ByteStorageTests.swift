import ByteWriters
import Testing

/// A buffer's memory handed to a storage without a copy, and kept by it.
@Suite struct ByteStorageTests {
    @Test func aStorageTakesTheBufferMemoryAndBytes() {
        var html = HTMLWriter(buffer: ByteBuffer(capacity: 64))
        html.text("<world>")
        let written = html.bytes
        var taken = html.takeBuffer()
        let address = taken.withUnsafeBytes { $0.baseAddress }
        let storage = taken.takeStorage()
        // The same memory, not a copy; the buffer is left empty and without it.
        #expect(storage.baseAddress == UnsafeRawPointer(address))
        #expect(storage.bytes == written)
        #expect(storage.count == written.count)
        #expect(taken.count == 0)
        taken.withUnsafeBytes { #expect($0.baseAddress == nil) }
        // The buffer goes on with memory of its own.
        taken.append(42)
        #expect(taken.bytes == [42])
        #expect(storage.bytes == written)
    }

    @Test func copiesAndEmptyStorages() {
        let copied = ByteStorage(copying: [1, 2, 3])
        #expect(copied.bytes == [1, 2, 3])
        let empty = ByteStorage(copying: [])
        #expect(empty.count == 0 && empty.baseAddress == nil && empty.bytes.isEmpty)
        var buffer = ByteBuffer()
        #expect(buffer.takeStorage().count == 0)
    }

    @Test func growingKeepsTheBytesWritten() {
        var buffer = ByteBuffer()
        var expected: [UInt8] = []
        for round in 0..<5_000 {
            let byte = UInt8(truncatingIfNeeded: round &* 31)
            buffer.append(byte)
            expected.append(byte)
        }
        #expect(buffer.bytes == expected)
        buffer.removeFirst(1_000)
        #expect(buffer.bytes == Array(expected.dropFirst(1_000)))
        #expect(buffer.takeStorage().bytes == Array(expected.dropFirst(1_000)))
    }

    @Test func removingMoreThanWasWrittenEmptiesTheBufferAndANegativeCountNothing() {
        var buffer = ByteBuffer()
        buffer.append(UInt8(ascii: "a"))
        buffer.append(UInt8(ascii: "b"))
        buffer.removeFirst(-1)
        #expect(buffer.bytes == Array("ab".utf8))
        buffer.removeFirst(3)
        #expect(buffer.count == 0)
    }
}
