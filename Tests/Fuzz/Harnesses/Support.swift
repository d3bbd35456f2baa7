// Shared by every fuzz target (compiled into each one).

/// Stops the run with a message; libFuzzer then saves the input that caused it.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("property violated: \(message())") }
}

/// The input as a printable Swift string literal, for failure messages.
func show(_ string: String) -> String {
    string.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? String($0) : "\\u{\(String($0.value, radix: 16))}" }
        .joined()
}

func show(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C ? String(UnicodeScalar($0)) : "\\x" + (($0 < 16 ? "0" : "") + String($0, radix: 16)) }
        .joined()
}

func isHexDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
}

func hexValue(_ byte: UInt8) -> UInt8 {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    default: byte - 0x61 + 10
    }
}
