import NIOCore
import NIOPosix

/// Where a relay's tasks run: an event loop of its own, on one thread of its own, which its connection to PostgreSQL
/// runs on too.
///
/// Not Swift concurrency's cooperative pool, which an app whose threads of that pool all block (a synchronous wait,
/// a slow recipient) would starve, and not the app's event loops, which a slow recipient of relayed mail would stall.
/// And the connection's own loop, so that a batch of mail is written to PostgreSQL, and a notification read from it,
/// with no hop between threads: with a dispatch queue of its own and the connection on another thread, each post
/// crossed threads three times on its way, which is where the relay spent its lag on a loaded machine (the Relay
/// article has the figures).
final class RelayExecutor: TaskExecutor {
    /// The one-thread group the event loop belongs to.
    private let group: MultiThreadedEventLoopGroup
    /// The loop the relay's tasks and its connections run on.
    let eventLoop: any EventLoop

    init() {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        eventLoop = group.next()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Ends the thread once the relay's work is done; it returns at once, and is not called from the loop itself.
    func shutdown() {
        group.shutdownGracefully { _ in }
    }
}
