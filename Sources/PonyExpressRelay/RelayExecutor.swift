import Dispatch

/// Where the relay's tasks run: a serial dispatch queue of its own rather than Swift concurrency's cooperative pool,
/// so that an app whose threads of that pool all block (a synchronous wait, a slow recipient) cannot starve the
/// relay's connection, and the relay's recipients of relayed mail never block the app's tasks.
final class RelayExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
