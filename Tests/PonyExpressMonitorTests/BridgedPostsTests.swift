import Dispatch
import PonyExpress
import PonyExpressMonitor
import PonyTestSupport
import Testing

private struct ThemeChanged: Mail {}
private struct Saved: Mail {}

@Suite(.blocksItsThread) struct BridgedPostsTests {
    @Test("bridged posts are counted per mail type, within its posts, whether delivered in a batch or not")
    func countsBridgedPosts() {
        let (office, monitor, clock) = watchedOffice()
        office.register { (_: ThemeChanged) in }
        let queue = DispatchQueue(label: "bridged-posts-test")
        office.register(queue: queue) { (_: Saved) in }
        for _ in 0..<3 { office.post(ThemeChanged(), sender: nil, origin: .bridged) }
        office.post(ThemeChanged())
        office.post(ThemeChanged(), sender: nil, origin: .relayed)
        office.post(Saved(), sender: nil, origin: .bridged)
        office.post(Saved())
        office.post(Saved(), sender: nil, origin: .bridged)
        queue.sync {}
        clock.advance(seconds: 1)

        let snapshot = monitor.snapshot()
        let theme = snapshot.stats(of: TypeIdentity(ThemeChanged.self))
        #expect(theme?.posts == 5)
        #expect(theme?.bridgedPosts == 3)
        let saved = snapshot.stats(of: TypeIdentity(Saved.self))
        #expect(saved?.posts == 3)
        #expect(saved?.bridgedPosts == 2)
    }

    @Test("a type posted only by the app has no bridged posts")
    func localOnly() {
        let (office, monitor, clock) = watchedOffice()
        office.register { (_: Saved) in }
        office.post(Saved())
        clock.advance(seconds: 1)
        #expect(monitor.snapshot().stats(of: TypeIdentity(Saved.self))?.bridgedPosts == 0)
    }
}
