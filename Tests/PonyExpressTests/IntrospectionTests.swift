import Dispatch
import PonyExpress
import PonyTestSupport
import Testing

private struct Ping: Mail {}
private struct Pong: Mail {}
private final class Screen: Sendable {
    func ping(_: Ping) {}
}

@Suite("Introspection")
struct IntrospectionTests {
    @Test("Recipients of a type, with kind, object type, queue and site, in registration order")
    func recipientsOfType() {
        let office = PostOffice()
        let screen = Screen()
        let first = office.register(screen, Screen.ping)
        let second = office.register(queue: DispatchQueue(label: "bg")) { (_: Ping) in }
        office.register { (_: Pong) in }
        let infos = office.recipients(of: Ping.self)
        #expect(infos.map(\.id) == [first, second])
        #expect(infos.map(\.kind) == [.object(TypeIdentity(Screen.self)), .block])
        #expect(infos.map(\.queueLabel) == [nil, "bg"])
        #expect(infos.allSatisfy { $0.site.fileID == "PonyExpressTests/IntrospectionTests.swift" })
        #expect(office.recipientCount(of: Ping.self) == 2)
        #expect(office.recipientCount(of: Pong.self) == 1)
        #expect(office.recipientCount == 3)
        #expect(office.recipients().map(\.id).first == first)
        withExtendedLifetime(screen) {}
    }

    @Test("A registration's time is on the tap clock, never later than a time read after register returned")
    func registeredAtIsCoarseButNotLate() {
        let office = PostOffice()
        let before = MonotonicClock.now()
        office.register { (_: Ping) in }
        let after = MonotonicClock.now()
        let registeredAt = office.recipients(of: Ping.self)[0].registeredAt
        #expect(registeredAt <= after)
        // Read at the kernel tick's resolution: up to a tick (a few milliseconds) before `before`, never a second.
        #expect(registeredAt + 1_000_000_000 > before)
    }

    @Test("Type names are resolved on request")
    func names() {
        #expect(TypeIdentity(Ping.self).name == "Ping")
        #expect(TypeIdentity(Ping.self).qualifiedName.hasSuffix("Ping"))
        #expect(TypeIdentity(Ping.self) != TypeIdentity(Pong.self))
    }

    @Test("areLive answers as isLive does, for more registrations than one turn of the lock takes")
    func areLiveInTurns() {
        let office = PostOffice()
        var screens = (0..<1_500).map { _ in Screen() }
        let ids = screens.map { office.register($0, Screen.ping) }
        // Release every third object without unregistering: registered, no longer live.
        for index in stride(from: 0, to: screens.count, by: 3) { screens[index] = Screen() }
        let unknown = office.register { (_: Pong) in }
        office.unregister(unknown)
        let asked = ids + [unknown]
        #expect(office.areLive(asked) == asked.map(office.isLive))
        #expect(office.areLive(asked).count { !$0 } == 501)
        withExtendedLifetime(screens) {}
    }
}
