import PonyTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal tests' harness: a program never outlives the test that started it.
@Suite("TmuxSession", .blocksItsThread, .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct TmuxSessionTests {
    @Test("close() ends a program that ignores the hang-up, so that no test leaves one spinning behind it")
    func closeEndsAProgramThatIgnoresTheHangUp() throws {
        let tmux = try TmuxSession(["/bin/sh", "-c", "trap '' HUP; echo READY; while :; do sleep 1; done"])
        #expect(tmux.waitFor("READY"))
        let pid = try #require(tmux.programPID)
        #expect(TmuxSession.isRunning(pid))
        tmux.close()
        #expect(!TmuxSession.isRunning(pid), "the program outlived its session")
    }
}
