import ByteWriters
import Testing

/// What the three writers share through ``ByteBufferWriter``: each takes a buffer over, hands it
/// on and lets its bytes out the same way, whatever its format.
@Suite struct ByteBufferWriterTests {
    @Test func everyWriterHandsItsBufferOnAndTakesItOver() {
        checkHandOver(HTMLWriter.self)
        checkHandOver(JSONWriter.self)
        checkHandOver(LogfmtWriter.self)
    }

    private func checkHandOver<Writer: ByteBufferWriter & ~Copyable>(_: Writer.Type) {
        var writer = Writer(buffer: ByteBuffer(copying: Array("<p>".utf8)))
        #expect(writer.string == "<p>")
        "abc</p>!".utf8.withContiguousStorageIfAvailable { writer.append(UnsafeRawBufferPointer($0)) }
        writer.truncate(to: writer.count - 1)
        #expect(writer.bytes == Array("<p>abc</p>".utf8))

        // Out to another writer (of another format) and back: the bytes travel, the giver is left empty.
        var html = HTMLWriter(buffer: writer.takeBuffer())
        #expect(writer.count == 0)
        var buffer = html.takeBuffer()
        writer.adopt(&buffer)
        #expect(buffer.count == 0)
        #expect(writer.count == 10)

        writer.removeFirst(3)
        #expect(writer.withUnsafeBytes { Array($0) } == Array("abc</p>".utf8))
        let storage = writer.takeStorage()
        #expect(storage.count == 7)
        #expect(writer.count == 0)

        var empty = Writer(capacity: 64)
        #expect(empty.takeBytes().isEmpty)
        empty.removeAll(keepingCapacity: false)
        #expect(empty.count == 0)
    }
}
