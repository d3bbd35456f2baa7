import Cellar
import Foundation
import HTTPTestSupport
import MicroHTTP
import Testing

@testable import CellarDatabase

/// Write bodies made at random from a fixed seed, and mutated: read by the decoder many times
/// over, and sent to a server a few hundred times. Never a crash; always a 400 with a message, or
/// a body that reads; over sockets, always a 2xx or a 4xx in the API's error shape.
@Suite struct DatabaseWriteBodyFuzzTests {
    /// Random write bodies, the same for the same seed (SplitMix64).
    struct Bodies {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

        /// A column's value: mostly what a row holds, sometimes what it cannot.
        mutating func value() -> String {
            pick([
                #""Dune""#, #""<b>&amp;</b>""#, #""'; DROP TABLE books; --""#, #""a\u0000b""#, #""\ud83c\udf77""#, #""é""#, "\"\(below(99_999))\"",
                String(below(3000)), "-\(below(10))", "1.5", "1e3", "9223372036854775808", "true", "false", "null",
                #"{"$base64": "AAE="}"#, "[1]", "{}", #"{"$base64": 1}"#, #""nineteen""#,
            ])
        }

        mutating func row() -> String {
            let columns = ["id", "title", "year", "author_id", "isbn", "notes", "shout", "nope", "v"]
            var names = Set<String>()
            let members = (0..<below(5)).compactMap { _ -> String? in
                let name = pick(columns)
                guard names.insert(name).inserted else { return nil }
                return "\"\(name)\": \(value())"
            }
            return "{" + members.joined(separator: ", ") + "}"
        }

        mutating func body() -> String {
            var members: [String] = []
            switch below(4) {
            case 0: members.append("\"row\": \(row())")
            case 1: members.append("\"rows\": [" + (0..<below(4)).map { _ in row() }.joined(separator: ", ") + "]")
            case 2: members.append("\"update\": \(row())")
            default: members.append("\"\(pick(["row", "rows", "update", "alter"]))\": \(value())")
            }
            for option in ["return", "ignore", "replace"] where below(4) == 0 {
                members.append("\"\(option)\": \(pick(["true", "false", "null", "1", "\"yes\""]))")
            }
            return "{" + members.shuffled(using: &self).joined(separator: ", ") + "}"
        }

        /// `body`'s bytes, changed in a few places at random: a byte replaced, dropped, inserted,
        /// the rest cut off, a stretch repeated.
        mutating func mutated(_ body: String) -> [UInt8] {
            var bytes = Array(body.utf8)
            let structural = Array("{}[]\":,\\0-e.ntfu \u{0}".utf8) + [0xFF, 0xC3, 0xED]
            for _ in 0..<below(4) where !bytes.isEmpty {
                let at = below(bytes.count)
                switch below(5) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: next())
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(pick(structural), at: at)
                case 3: bytes.removeSubrange(at...)
                default: bytes.insert(contentsOf: bytes[at...].prefix(below(12)), at: at)
                }
            }
            return bytes
        }
    }

    static func read(_ bytes: [UInt8], as body: (some WriteBody).Type) throws {
        let request = Request(method: .post, path: "/books/-/insert", body: bytes)
        _ = try WriteRequest(request: request, options: DatabaseOptions()).decode(body)
    }

    @Test func theDecoderReadsOrRefusesWithA400() {
        var bodies = Bodies(state: 38)
        var (read, refused) = (0, 0)
        for round in 0..<20_000 {
            let body = bodies.body()
            let bytes = round.isMultiple(of: 4) ? Array(body.utf8) : bodies.mutated(body)
            for kind in [InsertBody.self, UpdateBody.self] as [any WriteBody.Type] {
                do {
                    try Self.read(bytes, as: kind)
                    read += 1
                } catch let error as RowWriteError {
                    refused += 1
                    #expect(error.status == .badRequest && !error.message.isEmpty, "\(String(decoding: bytes, as: UTF8.self)): \(error)")
                } catch {
                    Issue.record("\(String(decoding: bytes, as: UTF8.self)): not a RowWriteError: \(error)")
                }
            }
        }
        // Both outcomes were reached often: the bodies were neither all broken nor all fine.
        #expect(read > 2000 && refused > 2000, "read \(read), refused \(refused)")
    }

    @Test func theServerAnswersEveryBodyInTheAPIsShape() throws {
        let served = try DatabaseWriteTestServer(sql: DatabaseWriteBodyTests.sql)
        var bodies = Bodies(state: 8259)
        var statuses: [Int: Int] = [:]
        for round in 0..<400 {
            let body = bodies.body()
            let bytes = round.isMultiple(of: 3) ? Array(body.utf8) : bodies.mutated(body)
            let target = bodies.pick(["/books/-/insert", "/kinds/-/insert", "/kinds/-/upsert", "/books/1/-/update", "/kinds/1/-/update"])
            let response = try TestHTTPClient.send(
                "POST", target, port: served.server.port,
                headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(served.token)")], body: bytes, timeout: .seconds(60))
            statuses[response.status, default: 0] += 1
            let text = "\(target) \(String(decoding: bytes, as: UTF8.self)): \(response.status) \(response.text.prefix(300))"
            #expect((200..<300).contains(response.status) || (400..<500).contains(response.status), "\(text)")
            guard let json = try? response.json, case .bool(let ok)? = json["ok"] else {
                Issue.record("not the API's shape: \(text)")
                continue
            }
            #expect(ok == (200..<300).contains(response.status), "\(text)")
            if !ok {
                guard case .array(let errors)? = json["errors"], !errors.isEmpty, errors.allSatisfy({ $0.string?.isEmpty == false }) else {
                    Issue.record("no errors listed: \(text)")
                    continue
                }
            }
        }
        #expect(statuses[400, default: 0] > 50 && statuses.keys.contains { (200..<300).contains($0) }, "\(statuses)")
        #expect(try served.integrityCheck() == [[.text("ok")]])
        #expect(try served.get("/books/1.json").status == 200)
    }
}

extension DatabaseWriteBodyFuzzTests.Bodies: RandomNumberGenerator {}
