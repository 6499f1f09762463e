import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private final class Sender {}

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
