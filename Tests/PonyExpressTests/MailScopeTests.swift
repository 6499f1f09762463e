import Dispatch
import PonyExpress
import PonyTestSupport
import Synchronization
import Testing

private struct RoomMessage: Mail {}
private struct Typing: Mail {}

private final class Screen: Sendable {
    func show(_: RoomMessage) {}
}

/// Scopes (issue 42): registrations made inside a unit of work belong to it, and its end tells the taps which of
/// them outlived it.
@Suite struct MailScopeTests {
    @Test("A registration left behind by a scope is reported once its grace passed; one unregistered in time is not")
    func leakedAndCleanRegistrations() throws {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        var kept: RecipientId?
        office.scope("GET /rooms/:room", grace: .zero) {
            let clean = office.register { (_: RoomMessage) in }
            kept = office.register { (_: Typing) in }
            office.unregister(clean)
        }
        // A grace of zero: checked on the ending thread, before `scope` returns.
        let end = try #require(tap.scopeEnds.first)
        #expect(tap.scopeEnds.count == 1)
        #expect(end.scope.name == "GET /rooms/:room")
        #expect(end.outlived.map(\.id) == [kept])
        #expect(end.sites.map(\.registrations) == [1, 1])
        #expect(end.sites.map(\.outlived) == [0, 1])
        #expect(end.sites.map(\.mailType) == [TypeIdentity(RoomMessage.self), TypeIdentity(Typing.self)])
        #expect(end.grace == 0)
        #expect(end.endedAt >= end.openedAt && end.checkedAt >= end.endedAt)
        #expect(!end.isClean)
        #expect(tap.registered.allSatisfy { $0.scope == end.scope })
    }

    @Test("The check waits for the grace period: a registration removed within it is clean")
    func graceLetsLateCleanupFinish() throws {
        // The premise is that the test's thread unregisters within 200 ms of the scope's end; a loaded machine may
        // deschedule it for longer, so an attempt whose own clock says the premise broke is tried again.
        for _ in 0..<3 {
            let office = PostOffice()
            let tap = RecordingTap()
            office.attach(tap)
            let scope = office.openScope("job", grace: .milliseconds(200))
            let id = scope.run { office.register { (_: RoomMessage) in } }
            let ended = DispatchTime.now().uptimeNanoseconds
            scope.end()
            let checkedEarly = !tap.scopeEnds.isEmpty
            office.unregister(id)
            let late = DispatchTime.now().uptimeNanoseconds - ended >= 150_000_000
            #expect(waitUntil(timeout: 10) { !tap.scopeEnds.isEmpty })
            let end = try #require(tap.scopeEnds.first)
            #expect(end.checkedAt - end.endedAt >= 200_000_000)
            #expect(end.grace == 200_000_000)
            if late { continue }
            #expect(!checkedEarly, "checked before its grace period passed")
            #expect(end.isClean)
            return
        }
        Issue.record("three attempts were each held up past the grace period: the premise could not be tried")
    }

    @Test("Scopes nest, the innermost owns a registration, and child tasks inherit the scope")
    func nestingAndChildTasks() async {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        await office.scope("request", grace: .zero) {
            #expect(MailScope.current?.name == "request")
            office.register { (_: RoomMessage) in }
            await office.scope("inner", grace: .zero) {
                async let child = office.register { (_: Typing) in }
                _ = await child
            }
            #expect(MailScope.current?.name == "request")
        }
        #expect(MailScope.current == nil)
        #expect(tap.registered.map { $0.scope?.name } == ["request", "inner"])
        #expect(tap.scopeEnds.map(\.scope.name) == ["inner", "request"])
        #expect(
            tap.scopeEnds.map { $0.outlived.map(\.mailType) } == [
                [TypeIdentity(Typing.self)], [TypeIdentity(RoomMessage.self)],
            ])
    }

    @Test("A registration meant to outlive its scope belongs to none, and is never reported")
    func outlivesScopeOption() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        office.scope("request", grace: .zero) {
            office.register(options: .outlivesScope) { (_: RoomMessage) in }
        }
        #expect(tap.registered.first?.scope == nil)
        #expect(tap.scopeEnds.isEmpty, "a scope that made no registration of its own is not checked")
    }

    @Test("A scope's check prunes the registrations whose object died, reported as prunes, not as outlived")
    func deadObjectsArePrunedByTheCheck() throws {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        office.scope("SettingsScreen", grace: .zero) {
            office.register(Screen(), Screen.show)
        }
        let end = try #require(tap.scopeEnds.first)
        #expect(end.isClean)
        #expect(tap.pruned.map(\.reason) == [.recipientReleased])
        #expect(office.recipientCount == 0)
    }

    @Test("A scope that throws still ends; ending twice checks once; a registration made after the end belongs to none")
    func endsOnceAndOnThrow() throws {
        struct Failure: Error {}
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        #expect(throws: Failure.self) {
            try office.scope("failing", grace: .zero) {
                office.register { (_: RoomMessage) in }
                throw Failure()
            }
        }
        #expect(tap.scopeEnds.count == 1)
        let scope = office.openScope("screen", grace: .zero)
        scope.run { _ = office.register { (_: RoomMessage) in } }
        scope.end()
        scope.end()
        #expect(tap.scopeEnds.count == 2)
        #expect(!scope.isOpen)
        let late = scope.run { office.register { (_: Typing) in } }
        #expect(tap.registered.last?.id == late)
        #expect(tap.registered.last?.scope == nil)
    }

    @Test("A long-lived scope that registers and unregisters often holds about twice its live registrations")
    func longScopesStayBounded() throws {
        let office = PostOffice()
        let tap = RecordingTap()
        let scope = office.openScope("session", grace: .zero)
        scope.run {
            for _ in 0..<10_000 {
                let id = office.register { (_: RoomMessage) in }
                office.unregister(id)
            }
        }
        #expect(scope.rememberedRegistrations <= 128)
        office.attach(tap)
        scope.end()
        let end = try #require(tap.scopeEnds.first)
        // The forgotten registrations still count for their site.
        #expect(end.sites.map(\.registrations) == [10_000])
        #expect(end.isClean)
    }

    @Test("Checks of many scopes with different grace periods share timers, and none runs before its grace passed")
    func checksShareTimers() {
        let office = PostOffice()
        let tap = RecordingTap()
        office.attach(tap)
        let graces: [Duration] = [.milliseconds(150), .milliseconds(50), .milliseconds(100), .milliseconds(20)]
        for index in 0..<200 {
            office.scope("job", grace: graces[index % graces.count]) {
                _ = office.register { (_: RoomMessage) in }
            }
        }
        #expect(waitUntil(timeout: 10) { tap.scopeEnds.count == 200 })
        for end in tap.scopeEnds {
            #expect(end.checkedAt >= end.endedAt + end.grace, "checked \(end.checkedAt - end.endedAt) ns after its end")
        }
        #expect(Set(tap.scopeEnds.map(\.scope.id)).count == 200)
    }
}
