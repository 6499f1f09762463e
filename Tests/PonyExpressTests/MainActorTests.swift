import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private final class Sender: Sendable {}
private struct Parcel: VerifiedMail { typealias RequiredSender = Sender }

@MainActor
private final class ViewModel {
    let log: Tally<String>
    init(log: Tally<String>) { self.log = log }
    func receive(_: Ping) {
        MainActor.assertIsolated()
        log.add("main")
    }
    func receive(_: Ping, sender: Sender?) {
        MainActor.assertIsolated()
        log.add("main optional sender")
    }
}

@Suite("@MainActor recipients", .tags(.concurrency))
struct MainActorTests {
    @Test("A @MainActor method is delivered on the main queue, even when posted from another thread")
    @MainActor
    func deliveredOnMain() async {
        let office = PostOffice()
        let log = Tally<String>()
        let viewModel = ViewModel(log: log)
        let plain = office.register(viewModel, ViewModel.receive as (ViewModel) -> @MainActor (Ping) -> Void)
        let optional = office.register(
            viewModel, ViewModel.receive as (ViewModel) -> @MainActor (Ping, Sender?) -> Void)
        #expect(office.recipients(of: Ping.self).map(\.id) == [plain, optional])
        #expect(office.recipients(of: Ping.self).allSatisfy { $0.queueLabel == DispatchQueue.main.label })
        await Task.detached { office.post(Ping()) }.value
        // The main queue is serviced while this test awaits.
        #expect(await eventually { log.count >= 2 })
        #expect(log.all == ["main", "main optional sender"])
    }

    @Test(
        "A @MainActor method registered with another queue stops the program at register",
        .exitTestOutsideThreadSanitizer)
    func otherQueueStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let office = PostOffice()
                let viewModel = ViewModel(log: Tally<String>())
                office.register(
                    queue: DispatchQueue(label: "not.main"), viewModel,
                    ViewModel.receive as (ViewModel) -> @MainActor (Ping) -> Void)
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("a @MainActor method is always delivered on the main queue"), "\(message)")
    }
}

@Suite("@MainActor recipients on an explicit main queue", .tags(.concurrency))
struct ExplicitMainQueueTests {
    @Test("Passing .main to a @MainActor method's registration is accepted and delivers on main")
    @MainActor
    func explicitMain() async {
        let office = PostOffice()
        let log = Tally<String>()
        let viewModel = ViewModel(log: log)
        office.register(queue: .main, viewModel, ViewModel.receive as (ViewModel) -> @MainActor (Ping) -> Void)
        await Task.detached { office.post(Ping()) }.value
        #expect(await eventually { log.all == ["main"] })
    }
}

/// State of the main actor, touched by `@MainActor` blocks: under Swift 6 a plain block could not touch it.
@MainActor
private final class Screen {
    var seen: [String] = []
}

@Suite("@MainActor blocks", .tags(.concurrency))
struct MainActorBlockTests {
    @Test("A @MainActor block of every shape runs on the main actor, even when posted from another thread")
    @MainActor
    func deliveredOnMain() async {
        let office = PostOffice()
        let screen = Screen()
        office.register { @MainActor (_: Ping) in screen.seen.append(isOnMainQueue() ? "mail" : "off main") }
        office.register { @MainActor (_: Ping, _: Sender) in screen.seen.append("sender") }
        office.register { @MainActor (_: Ping, _: Sender?) in screen.seen.append("optional sender") }
        office.register(Ping.self) { @MainActor in screen.seen.append("no parameters") }
        office.register { @MainActor (_: Parcel) in screen.seen.append("verified") }
        office.register { @MainActor (_: Parcel, _: Sender) in screen.seen.append("verified sender") }
        office.register(Parcel.self) { @MainActor in screen.seen.append("verified, no parameters") }
        #expect(office.recipients(of: Ping.self).allSatisfy { $0.queueLabel == DispatchQueue.main.label })
        let sender = Sender()
        await Task.detached {
            #expect(!isOnMainQueue())
            office.post(Ping(), sender: sender)
            office.post(Parcel(), sender: sender)
        }.value
        // Nothing ran on the posting thread: each block is queued on main, which runs while this test awaits.
        #expect(await eventually { screen.seen.count >= 7 })
        #expect(
            screen.seen == [
                "mail", "sender", "optional sender", "no parameters", "verified", "verified sender",
                "verified, no parameters",
            ])
    }

    @Test("A plain block registered on the main actor still runs on the posting thread")
    @MainActor
    func plainBlockRunsWherePosted() async {
        let office = PostOffice()
        let threads = Tally<Bool>()
        office.register { (_: Ping) in threads.add(isOnMainQueue()) }
        await Task.detached { office.post(Ping()) }.value
        #expect(threads.all == [false])
    }
}
