import PonyTestSupport
import Testing

@testable import PonyExpressRelay

/// How a connection's work ends: the first end gives the reason, and a part that never ends is left behind after a
/// bounded wait instead of keeping the relay from connecting again.
@Suite(.tags(.concurrency), .timeLimit(.minutes(3))) struct ConnectionWorkTests {
    @Test func theFirstEndGivesTheReasonAndAPartThatNeverEndsIsLeftBehind() async {
        let executor = RelayExecutor()
        defer { executor.shutdown() }
        let work = ConnectionWork(parts: ["listener", "sender"])
        work.end(PostgresRelay.ConnectionEnded())
        work.end(PostgresRelay.SendTimedOut())
        #expect(await work.firstEnd() is PostgresRelay.ConnectionEnded)

        work.finished("sender")
        // Returns although the listener never finished: the wait is bounded (a hang would meet the time limit). How
        // soon it returns is not checked: in a whole `swift test` this task waited 60 s for a thread to resume on.
        #expect(!(await work.partsFinished(within: .milliseconds(100), on: executor.eventLoop)))
        #expect(work.running == ["listener"])

        work.finished("listener")
        work.finished("listener")
        #expect(work.running.isEmpty)
        #expect(await work.partsFinished(within: .seconds(30), on: executor.eventLoop))
    }

    @Test func aWaitBeforeTheEndResumesAtTheEnd() async {
        let work = ConnectionWork(parts: [])
        async let reason = work.firstEnd()
        work.end(nil)
        #expect(await reason == nil)
    }
}
