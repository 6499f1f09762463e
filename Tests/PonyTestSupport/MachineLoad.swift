#if canImport(Glibc)
    import Glibc
#endif

/// Keeps the tests that load both cores apart from the tests whose figures a loaded machine would falsify.
///
/// Swift Testing runs suites side by side. A stress that keeps six threads busy for seconds starves the queues of a
/// real-time scenario running beside it: CI's `swift test` once saw the healthy `app` scenario's worker queue wait
/// 98 ms and report a rising wait, a false finding the stress alone caused. Each side runs its body inside
/// ``alone(_:)``, one at a time; tests that do neither run as before. Waiting suspends, so a test waiting its turn does
/// not hold a thread of the cooperative pool.
public enum MachineLoad {
    private actor Gate {
        private var busy = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func enter() async {
            guard busy else {
                busy = true
                return
            }
            await withCheckedContinuation { waiters.append($0) }
        }

        func leave() {
            if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
        }
    }

    private static let gate = Gate()

    /// Runs `body` while no other test inside `alone` runs.
    ///
    /// - Parameter body: The test's work: a stress that loads the cores, or a real-time run that load would falsify.
    /// - Returns: What `body` returns.
    public static func alone<T>(_ body: () throws -> T) async rethrows -> T {
        await gate.enter()
        do {
            let result = try body()
            await gate.leave()
            return result
        } catch {
            await gate.leave()
            throw error
        }
    }

    /// Runs `body` beside `count` busy loops, separate processes at the test's own priority: issue 39's busy machine
    /// (two loops on a 2-core machine). Call inside ``alone(_:)``; the loops are killed when `body` returns or throws.
    ///
    /// - Parameters:
    ///   - count: How many loops.
    ///   - body: The work to load.
    /// - Returns: What `body` returns.
    public static func besideBusyLoops<T>(_ count: Int = 2, _ body: () throws -> T) throws -> T {
        let hogs = try (0..<count).map { _ in try ChildProcess.spawn(["/bin/sh", "-c", "while :; do :; done"]) }
        defer {
            for hog in hogs {
                kill(hog, SIGKILL)
                _ = ChildProcess.wait(for: hog, timeout: 10)
            }
        }
        return try body()
    }
}
