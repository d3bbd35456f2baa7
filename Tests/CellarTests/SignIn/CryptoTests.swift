import Foundation
import Synchronization
import Testing

@testable import Cellar

/// The OpenSSL calls against their standards' own test vectors, and the password hash's format.
@Suite struct CryptoTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func hmacSHA256MatchesRFC4231() {
        let mac = Crypto.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Self.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// Two threads' first MACs with one key at once (the server's workers checking the first bearer
    /// token of a run): the same right answer for both, and nothing ThreadSanitizer reports —
    /// `make test-sanitizers` fails on a report. Its `lock.withLock { _ in … }` did: the inout access
    /// to a `Lock`'s empty value is seen at the lock object's first bytes, which the other thread
    /// reads (unlocked, and rightly so) on its way into `withLock`.
    @Test func twoThreadsFirstUseOfAKeyAtOnce() {
        let message = Array("what do ya want for nothing?".utf8)
        for _ in 0..<50 {
            guard let key = HMACKey(Array("Jefe".utf8)) else {
                Issue.record("no key")
                return
            }
            let arrived = Atomic<Int>(0)
            let macs = Locked<[String]>([])
            let done = DispatchGroup()
            for _ in 0..<2 {
                done.enter()
                Thread {
                    arrived.add(1, ordering: .acquiringAndReleasing)
                    while arrived.load(ordering: .acquiring) < 2 { sched_yield() }
                    let mac = Self.hex(key.authenticationCode(for: message))
                    macs.withLock { $0.append(mac) }
                    done.leave()
                }.start()
            }
            done.wait()
            #expect(macs.withLock { $0 } == Array(repeating: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", count: 2))
        }
    }

    @Test func scryptMatchesRFC7914() throws {
        let key = try Crypto.scrypt(password: Array("password".utf8), salt: Array("NaCl".utf8), cost: 1024, blockSize: 8, parallelism: 16, length: 64)
        #expect(
            Self.hex(key)
                == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
    }

    @Test func constantTimeCompare() {
        #expect(Crypto.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!Crypto.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!Crypto.constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(Crypto.constantTimeEquals([], []))
    }

    @Test func randomBytesDiffer() throws {
        #expect(try Crypto.randomBytes(32) != Crypto.randomBytes(32))
    }

    @Test func aPasswordHashRoundTripsAndVerifiesOnlyItsPassword() throws {
        let hash = try PasswordHash.make(password: "correct horse", logCost: 10)
        let text = hash.description
        #expect(text.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        let read = try PasswordHash(text)
        #expect(read == hash)
        #expect(read.verifies("correct horse"))
        #expect(!read.verifies("correct horse "))
        #expect(!read.verifies(""))
        // Two hashes of one password differ (a random salt each).
        #expect(try PasswordHash.make(password: "correct horse", logCost: 10) != hash)
        // The dummy has the cost of the hash it stands in for, and nothing matches it.
        #expect(hash.dummy().logCost == 10)
        #expect(!hash.dummy().verifies("correct horse"))
    }

    @Test(arguments: [
        "", "scrypt", "$scrypt$ln=15,r=8$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "$bcrypt$ln=15,r=8,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
        "$scrypt$ln=40,r=8,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", "$scrypt$ln=15,r=8,p=1$!!$aGFzaGhhc2hoYXNoaGFzaA",
    ])
    func whatIsNotAHashIsRefused(_ text: String) {
        #expect(throws: PasswordHashError.self) { try PasswordHash(text) }
    }

    @Test func base64MatchesFoundationsWithoutPadding() throws {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 250) }
            let foundation = Data(bytes).base64EncodedString().filter { $0 != "=" }
            #expect(Base64URL.standardEncoded(bytes) == foundation)
            #expect(Base64URL.encoded(bytes) == foundation.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
            #expect(Base64URL.decoded(Base64URL.encoded(bytes)) == bytes)
            #expect(Base64URL.standardDecoded(foundation) == bytes)
        }
        for bad in ["A", "AB=C", "ab+c", "ab/c", "a b", "é"] { #expect(Base64URL.decoded(bad) == nil, "\(bad)") }
        #expect(Base64URL.standardDecoded("ab-c") == nil)
    }
}
