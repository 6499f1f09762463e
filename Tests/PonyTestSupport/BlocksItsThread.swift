import Foundation
import Testing

/// A trait for tests that block their thread for a long time: they run on threads of their own, three such tests at
/// a time, instead of on the cooperative pool that every other test shares.
///
/// Swift Testing calls a synchronous test function on a thread of the cooperative pool, which has one thread per
/// core: two cores, two threads. A test that waits seconds for a child process, a terminal, a database or a
/// deadline holds one of them all that time, and two such tests hold every one: no other test starts or ends until
/// one of them returns, and async tests' deadlines run out while they cannot run at all. A `swift test` at
/// `c5362fb` ended no test for its first 91 s, and CI's AddressSanitizer pass failed an async test after 120 s
/// behind such a wait.
///
/// With this trait, the test's nonisolated code runs on ``BlockingExecutor``'s threads (a task executor
/// preference), so waiting there leaves the pool to the rest. At most three such tests run at once, so that putting
/// a suite of child processes here does not start all of them together.
///
/// On a suite, the trait applies to each of its tests.
public struct BlocksItsThread: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        // Once for each test case: neither around a suite nor around a whole parameterized test.
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await BlockingExecutor.turns.take()
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            // PONY_TEST_TIMES=1 lists how long each such test held its turn, to choose which tests need the trait.
            if ProcessInfo.processInfo.environment["PONY_TEST_TIMES"] != nil {
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                print("blocking test \(test.id): \(seconds) s")
            }
        }
        do {
            try await withTaskExecutorPreference(BlockingExecutor.shared) { try await function() }
            await BlockingExecutor.turns.give()
        } catch {
            await BlockingExecutor.turns.give()
            throw error
        }
    }
}

extension Trait where Self == BlocksItsThread {
    /// The test blocks its thread for a long time: it runs on threads of its own (see ``BlocksItsThread``).
    public static var blocksItsThread: Self { Self() }
}

/// Runs jobs on threads of its own, starting a thread whenever a job finds none idle: a job that blocks never
/// keeps another from running. Threads that finish wait for the next job; they are never many, because
/// ``BlocksItsThread`` lets three tests in at a time.
public final class BlockingExecutor: TaskExecutor, @unchecked Sendable {
    public static let shared = BlockingExecutor()

    /// How many tests may be inside ``BlocksItsThread`` at once.
    static let turns = Turns(count)
    private static let count = 3

    /// Runs `body` while no other test of ``BlocksItsThread`` runs: for a test that loads the machine on purpose,
    /// whose load would starve the others' deadlines (a tmux server that did not start within 10 s beside the busy
    /// loops of `ReportTests.healthyUnderLoad`, CI at `a0391b9`). Call it from a test with the trait, which holds one
    /// turn already; it takes the others, and gives them back after.
    ///
    /// Two such tests that each held their turn and waited for the rest waited for each other forever (the
    /// busy-loop tests of `ReportTests` and `SlowUnderLoadTests`, a local `swift test` at `c7a6ae3`): a caller gives
    /// its own turn back first, and callers take every turn one at a time, in the order they came.
    public static func withEveryOtherTurn<T>(_ body: () async throws -> T) async rethrows -> T {
        await turns.give()
        await everyTurnTakers.take()
        for _ in 0..<count { await turns.take() }
        func giveBack() async {
            for _ in 1..<count { await turns.give() }
            await everyTurnTakers.give()
        }
        do {
            let result = try await body()
            await giveBack()
            return result
        } catch {
            await giveBack()
            throw error
        }
    }

    /// Lets one caller of ``withEveryOtherTurn(_:)`` at a time take the turns.
    private static let everyTurnTakers = Turns(1)

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var next = 0
    private var idle = 0

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        // A woken thread stops being idle and takes a job in one step under the lock, so while more jobs wait
        // than threads wait, some job would find no thread.
        let needsThread = jobs.count - next > idle
        if !needsThread { condition.signal() }
        condition.unlock()
        if needsThread {
            let thread = Thread { [unowned self] in work() }
            thread.name = "blocking test"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    private func work() {
        condition.lock()
        while true {
            if next < jobs.count {
                let job = jobs[next]
                next += 1
                if next == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    next = 0
                }
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
                condition.lock()
            } else {
                idle += 1
                condition.wait()
                idle -= 1
            }
        }
    }

    /// A counting semaphore for tasks: ``take()`` suspends, rather than blocks, while none is left.
    actor Turns {
        private var left: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(_ count: Int) { left = count }

        func take() async {
            if left > 0 {
                left -= 1
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func give() {
            if waiting.isEmpty { left += 1 } else { waiting.removeFirst().resume() }
        }
    }
}
