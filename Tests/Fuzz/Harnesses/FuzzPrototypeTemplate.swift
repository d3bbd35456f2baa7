// libFuzzer target: PrototypeTemplate(_:) and render(into:data:) (Sources/TableKit/Prototypes/PrototypeTemplate.swift).
//
// Properties, for any template source:
// - compiling never traps (nesting is bounded, so no stack overflow) and a failure is a
//   PrototypeTemplateError whose line and column lie inside the source;
// - it compiles exactly when an independent reference parser of the documented Mustache
//   subset accepts it, with the same `keys` in order of first use;
// - rendering with hostile data (markup, quotes, ampersands, numbers, flags, detail links,
//   missing values) gives byte for byte what the reference renders, every value escaped.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPrototypeTemplate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    checkPrototypeTemplate(String(decoding: bytes, as: UTF8.self))
    return 0
}

struct FuzzRowData: PrototypeData {
    static let hostile = "<script>alert('x\"&amp;')</script> é"
    static let selection = RowSelection(base: "/l<'\"&>", identifier: "a b/<é>?")

    func prototypeValue(forKey key: String) -> PrototypeValue {
        switch key.utf8.reduce(0, { ($0 &* 31) &+ Int($1) }) & 7 {
        case 0: .text(Self.hostile)
        case 1: .text("")
        case 2: .number(0)
        case 3: .number(-42)
        case 4: .flag(true)
        case 5: .flag(false)
        case 6: .missing
        default: .selection(Self.selection)
        }
    }
}

func checkPrototypeTemplate(_ source: String) {
    let bytes = Array(source.utf8)
    let reference = ReferenceTemplate(bytes)
    do {
        let template = try PrototypeTemplate(source)
        guard let tree = reference.tree else {
            require(false, "compiled \(show(source)), which the reference refuses")
            return
        }
        require(template.keys == reference.keys, "keys \(template.keys) vs reference \(reference.keys) for \(show(source))")
        var html = HTMLWriter()
        template.render(into: &html, data: FuzzRowData())
        var expected: [UInt8] = []
        ReferenceTemplate.render(tree, into: &expected)
        require(html.bytes == expected, "rendering \(show(source)): \(show(html.bytes)) vs reference \(show(expected))")
    } catch let error as PrototypeTemplateError {
        require(reference.tree == nil, "refused \(show(source)) (\(error)), which the reference accepts")
        let lines = bytes.filter { $0 == UInt8(ascii: "\n") }.count + 1
        require(
            error.line >= 1 && error.line <= lines && error.column >= 1 && error.column <= bytes.count + 1, "position \(error) in \(show(source))")
        require(!error.message.isEmpty, "empty message")
    } catch {
        require(false, "unexpected error type \(error)")
    }
}

/// The documented subset, written independently: tokens first, then a stack of open sections.
struct ReferenceTemplate {
    indirect enum Node {
        case literal([UInt8])
        case value(String)
        case section(String, inverted: Bool, [Node])
    }

    var tree: [Node]?
    var keys: [String] = []

    init(_ s: [UInt8]) {
        tree = parse(s)
    }

    private mutating func parse(_ s: [UInt8]) -> [Node]? {
        var stack: [(name: String, inverted: Bool, nodes: [Node])] = [("", false, [])]
        var literal: [UInt8] = []
        func flush(_ stack: inout [(name: String, inverted: Bool, nodes: [Node])]) {
            if !literal.isEmpty { stack[stack.count - 1].nodes.append(.literal(literal)) }
            literal = []
        }
        var i = 0
        let n = s.count
        while i < n {
            guard i + 1 < n, s[i] == UInt8(ascii: "{"), s[i + 1] == UInt8(ascii: "{") else {
                literal.append(s[i])
                i += 1
                continue
            }
            var j = i + 2
            while j + 1 < n && !(s[j] == UInt8(ascii: "}") && s[j + 1] == UInt8(ascii: "}")) { j += 1 }
            guard j + 1 < n else { return nil }
            let inner = Array(s[(i + 2)..<j])
            i = j + 2
            guard let sigil = inner.first else { return nil }
            switch sigil {
            case UInt8(ascii: "!"):
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "&"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: "$"):
                return nil
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                guard let name = name(inner.dropFirst()), stack.count - 1 < 32 else { return nil }
                flush(&stack)
                stack.append((name, sigil == UInt8(ascii: "^"), []))
            case UInt8(ascii: "/"):
                guard let name = name(inner.dropFirst()), stack.count > 1, stack[stack.count - 1].name == name else { return nil }
                flush(&stack)
                let closed = stack.removeLast()
                stack[stack.count - 1].nodes.append(.section(closed.name, inverted: closed.inverted, closed.nodes))
            default:
                guard let name = name(inner[...]) else { return nil }
                flush(&stack)
                stack[stack.count - 1].nodes.append(.value(name))
            }
        }
        guard stack.count == 1 else { return nil }
        flush(&stack)
        return stack[0].nodes
    }

    private mutating func name(_ bytes: ArraySlice<UInt8>) -> String? {
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else { return nil }
        let trimmed = bytes[first...last]
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.".utf8)
        guard trimmed.allSatisfy(allowed.contains) else { return nil }
        let name = String(decoding: trimmed, as: UTF8.self)
        if !keys.contains(name) { keys.append(name) }
        return name
    }

    static func render(_ nodes: [Node], into out: inout [UInt8]) {
        let data = FuzzRowData()
        for node in nodes {
            switch node {
            case .literal(let bytes):
                out += bytes
            case .value(let key):
                switch data.prototypeValue(forKey: key) {
                case .text(let text): out += escape(text)
                case .number(let number): out += Array(String(number).utf8)
                case .flag(let flag): out += Array((flag ? "true" : "false").utf8)
                case .selection(let selection): out += escape(selection.base) + Array("/".utf8) + percentEncode(selection.identifier)
                case .missing: break
                }
            case .section(let key, let inverted, let body):
                let truthy: Bool
                switch data.prototypeValue(forKey: key) {
                case .text(let text): truthy = !text.isEmpty
                case .number(let number): truthy = number != 0
                case .flag(let flag): truthy = flag
                case .selection: truthy = true
                case .missing: truthy = false
                }
                if truthy != inverted { render(body, into: &out) }
            }
        }
    }

    static func escape(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case UInt8(ascii: "'"): out += Array("&#39;".utf8)
            default: out.append(byte)
            }
        }
        return out
    }

    static func percentEncode(_ text: String) -> [UInt8] {
        let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                out.append(byte)
            } else {
                out += Array(("%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)).utf8)
            }
        }
        return out
    }
}
