import Dispatch
import PonyExpress
import PonyTestSupport
import Synchronization
import Testing

private struct MessagePosted: Mail {
    var room: Int
    var text: String
}

private final class Room: Sendable {}

private struct Receipt: VerifiedMail {
    typealias RequiredSender = Room
    var number: Int
}

/// Runs `body` in a task and fails, instead of hanging, if it does not end in time.
private func withinDeadline<T: Sendable>(
    seconds: Double = 30, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let task = Task { try await body() }
    let watchdog = Task {
        try await Task.sleep(for: .seconds(seconds))
        task.cancel()
    }
    defer { watchdog.cancel() }
    return try await task.value
}

@Suite("Waiting for the next mail", .tags(.concurrency))
struct NextMailTests {
    @Test("The next matching mail is returned, and the wait's registration is gone")
    func matching() async throws {
        let office = PostOffice()
        let waiting = Task {
            try await office.next(MessagePosted.self, where: { $0.room == 7 }, timeout: .seconds(30))
        }
        #expect(await eventually { office.recipientCount == 1 })
        office.post(MessagePosted(room: 3, text: "other room"))
        office.post(MessagePosted(room: 7, text: "hello"))
        office.post(MessagePosted(room: 7, text: "too late"))
        let message = try await waiting.value
        #expect(message.text == "hello")
        #expect(office.recipientCount == 0)
    }

    @Test("No matching mail in time: MailTimeout, naming the type, and no registration left")
    func timeout() async throws {
        let office = PostOffice()
        office.post(MessagePosted(room: 7, text: "before the wait: not taken"))
        let error = await #expect(throws: MailTimeout.self) {
            try await office.next(MessagePosted.self, where: { $0.room == 7 }, timeout: .milliseconds(50))
        }
        #expect(error?.description.contains("MessagePosted") == true)
        #expect(office.recipientCount == 0)
    }

    @Test("A cancelled task stops waiting with CancellationError, and no registration is left")
    func cancellation() async throws {
        let office = PostOffice()
        let waiting = Task { try await office.next(MessagePosted.self, timeout: nil) }
        #expect(await eventually { office.recipientCount == 1 })
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(office.recipientCount == 0)
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await office.next(MessagePosted.self, timeout: .seconds(30))
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
        #expect(office.recipientCount == 0)
    }

    @Test("A timeout too long for a deadline (Int64.max seconds) waits without end instead of trapping")
    func timeoutBeyondAnyDeadline() async throws {
        let office = PostOffice()
        let waiting = Task { try await office.next(MessagePosted.self, timeout: .seconds(Int64.max)) }
        #expect(await eventually { office.recipientCount == 1 })
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(office.recipientCount == 0)
    }

    @Test("Verified mail: the exact sender filters; while it waits the wait is a registration at the caller's line")
    func verifiedAndVisible() async throws {
        let office = PostOffice()
        let room = Room()
        let waiting = Task { try await office.next(Receipt.self, sender: room, timeout: .seconds(30)) }
        #expect(await eventually { office.recipientCount == 1 })
        let site = office.recipients(of: Receipt.self).first?.site
        #expect(site?.fileID == "PonyExpressTests/NextMailTests.swift")
        office.post(Receipt(number: 1), sender: Room())
        office.post(Receipt(number: 2), sender: room)
        #expect(try await waiting.value.number == 2)
        #expect(office.recipientCount == 0)
    }

    @Test("Thousands of concurrent waiters: each ends by a match, its timeout or cancellation, and none stays")
    func thousandsOfWaiters() async throws {
        let office = PostOffice()
        let waiters = Sanitizer.active == nil ? 4_000 : 2_000
        let outcomes = try await withinDeadline {
            try await withThrowingTaskGroup(of: Int.self) { group in
                let posting = Task.detached {
                    var room = 0
                    while !Task.isCancelled {
                        office.post(MessagePosted(room: room % 50, text: ""))
                        room &+= 1
                        if room % 64 == 0 { await Task.yield() }
                    }
                }
                for index in 0..<waiters {
                    group.addTask {
                        let wait = Task {
                            try await office.next(
                                // Every seventh waits for a room nobody posts to: it can only time out.
                                MessagePosted.self, where: { $0.room == (index % 7 == 0 ? 99 : index % 50) },
                                timeout: .milliseconds(index % 3 == 0 || index % 7 == 0 ? 1 : 2_000))
                        }
                        if index % 5 == 0 { wait.cancel() }
                        do {
                            _ = try await wait.value
                            return 0
                        } catch is MailTimeout {
                            return 1
                        } catch is CancellationError {
                            return 2
                        }
                    }
                }
                var outcomes = [0, 0, 0]
                for try await outcome in group { outcomes[outcome] += 1 }
                posting.cancel()
                return outcomes
            }
        }
        #expect(outcomes.reduce(0, +) == waiters)
        #expect(outcomes[0] > 0, "\(outcomes): matched, timed out, cancelled")
        #expect(outcomes[1] > 0, "\(outcomes): matched, timed out, cancelled")
        #expect(outcomes[2] > 0, "\(outcomes): matched, timed out, cancelled")
        #expect(office.recipientCount == 0)
    }
}

@Suite("Scoped registrations", .tags(.concurrency))
struct MailSubscriptionTests {
    @Test("A released subscription unregisters its block, and frees what the block held: the leak it prevents")
    func releasedUnregisters() {
        let office = PostOffice()
        let freed = Tally<String>()
        final class Witness: Sendable {
            let freed: Tally<String>
            init(_ freed: Tally<String>) { self.freed = freed }
            deinit { freed.add("freed") }
        }
        var subscription: MailSubscription? = {
            let witness = Witness(freed)
            return office.subscription(for: office.register { (_: MessagePosted) in _ = witness })
        }()
        #expect(office.recipientCount == 1)
        #expect(subscription?.isCancelled == false)
        subscription = nil
        #expect(office.recipientCount == 0)
        #expect(freed.all == ["freed"])
    }

    @Test("cancel() unregisters now; again, or the release after, does nothing; a gone post office is harmless")
    func cancel() {
        let office = PostOffice()
        let log = Tally<Int>()
        let subscription = office.subscription(for: office.register { (mail: MessagePosted) in log.add(mail.room) })
        office.post(MessagePosted(room: 1, text: ""))
        subscription.cancel()
        #expect(subscription.isCancelled)
        office.post(MessagePosted(room: 2, text: ""))
        subscription.cancel()
        #expect(log.all == [1])
        var gone: PostOffice? = PostOffice()
        let orphan = gone!.subscription(for: gone!.register { (_: MessagePosted) in })
        gone = nil
        orphan.cancel()
        #expect(orphan.isCancelled)
    }

    @Test("Once cancel() returns, a handler running on another thread has finished: unregister's promise")
    func cancelWaitsForARunningHandler() {
        let office = PostOffice()
        let started = DispatchSemaphore(value: 0)
        let finished = Atomic<Bool>(false)
        let subscription = office.subscription(
            for: office.register { (_: MessagePosted) in
                started.signal()
                let end = DispatchTime.now() + .milliseconds(50)  // a handler's work, on the CPU
                while DispatchTime.now() < end {}
                finished.store(true, ordering: .releasing)
            })
        DispatchQueue.global().async { office.post(MessagePosted(room: 0, text: "")) }
        #expect(started.wait(timeout: .now() + 10) == .success)
        #expect(finishes(within: 10) { subscription.cancel() })
        let handlerFinished = finished.load(ordering: .acquiring)
        #expect(handlerFinished)
    }
}
