import Testing

@testable import MicroHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The default number of worker threads: the processors the process may use, not the host's.
@Suite struct ProcessorCountTests {
    @Test(arguments: [
        ("3", 2), ("1", 1), ("2", 1), ("ff", 8), ("ffffffff,ffffffff", 64), ("00000000,00000001", 1),
        ("  f0\n", 4), ("8000000000000000000000000000000000000000", 1),
    ])
    func affinityMasksCountTheirProcessors(mask: String, expected: Int) {
        #expect(ServerConfiguration.allowedCount(mask: mask) == expected)
    }

    @Test(arguments: ["", "0", "00000000,00000000", "xyz", "1-3", "f g"])
    func emptyOrMalformedMasksCountNothing(mask: String) {
        #expect(ServerConfiguration.allowedCount(mask: mask) == nil)
    }

    @Test func cgroupQuotasRoundUpToWholeProcessors() {
        #expect(ServerConfiguration.quotaCount(cpuMax: "200000 100000\n") == 2)
        #expect(ServerConfiguration.quotaCount(cpuMax: "150000 100000") == 2)
        #expect(ServerConfiguration.quotaCount(cpuMax: "50000 100000") == 1)
        #expect(ServerConfiguration.quotaCount(cpuMax: "100000 100000") == 1)
        #expect(ServerConfiguration.quotaCount(cpuMax: "max 100000") == nil)
        #expect(ServerConfiguration.quotaCount(cpuMax: "") == nil)
        #expect(ServerConfiguration.quotaCount(cpuMax: "200000") == nil)
        // cgroup v1: -1 is no limit.
        #expect(ServerConfiguration.quotaCount(quota: "-1\n", period: "100000\n") == nil)
        #expect(ServerConfiguration.quotaCount(quota: "400000\n", period: "100000\n") == 4)
        #expect(ServerConfiguration.quotaCount(quota: "250000", period: "0") == nil)
    }

    @Test func theDefaultIsWithinWhatTheProcessMayUse() throws {
        let count = ServerConfiguration.activeProcessorCount
        #expect(count >= 1)
        #expect(count <= max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        #if os(Linux)
            // This process's own mask, as the kernel reports it, bounds the default.
            let allowed = try #require(ServerConfiguration.affinityCount())
            #expect(count <= allowed)
        #endif
    }
}
