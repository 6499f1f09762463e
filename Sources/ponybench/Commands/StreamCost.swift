import ArgumentParser
import Dispatch
import PonyExpress
import Synchronization

/// What a `mail(_:)` stream costs the thread that posts, beside a plain block: the stream's registration yields on
/// the posting thread, and a yield to a consumer that waits resumes its task (a job for the cooperative pool), all
/// inside `post`, so inside the posting handler when a handler posts.
struct StreamCost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream-cost",
        abstract: "Time one post to a plain block and to a mail(_:) stream, with its consumer waiting or behind."
    )

    @Option(help: "Posts measured per row.")
    var posts = 20_000

    struct Tick: Mail {
        var n: Int
    }

    mutating func run() throws {
        guard posts > 0 else { throw ValidationError("--posts must be above 0") }
        DebugBuild.warn("ponybench stream-cost")
        let block = measureBlock()
        let waiting = measureStream(consumerWaits: true)
        let behind = measureStream(consumerWaits: false)
        print("ns per post on the posting thread, \(posts) posts a row (median / p99)\n")
        print("| recipient | median ns | p99 ns | median vs a block |")
        print("|---|---:|---:|---:|")
        for (name, figures) in [
            ("a block (empty)", block), ("a stream whose consumer waits (a yield resumes its task)", waiting),
            ("a stream whose consumer is behind (a yield buffers)", behind),
        ] {
            print(
                "| \(name) | \(Int(figures.median)) | \(Int(figures.p99)) | \(String(format: "%.1fx", figures.median / block.median)) |"
            )
        }
    }

    private func measureBlock() -> (median: Double, p99: Double) {
        let office = PostOffice()
        office.register { (tick: Tick) in blackHole(tick) }
        return timed { n in office.post(Tick(n: n)) }
    }

    /// With `consumerWaits`, each post waits until the consumer took the last value, so that every yield finds it
    /// suspended; otherwise nothing consumes until every post is made, and every yield only buffers.
    private func measureStream(consumerWaits: Bool) -> (median: Double, p99: Double) {
        let office = PostOffice()
        let taken = Atomic<Int>(0)
        let stream = office.mail(Tick.self)
        let consumer =
            consumerWaits
            ? Task.detached { for await _ in stream { taken.add(1, ordering: .releasing) } } : nil
        defer { consumer?.cancel() }
        var expected = 0
        return timed(
            before: {
                guard consumerWaits else { return }
                // The consumer took every earlier value (a bounded spin) ...
                let deadline = DispatchTime.now() + .seconds(10)
                while taken.load(ordering: .acquiring) < expected, DispatchTime.now() < deadline {}
                // ... and 20 µs for it to suspend in `next()` again, so that the post finds it waiting.
                let settled = DispatchTime.now() + .microseconds(20)
                while DispatchTime.now() < settled {}
            }
        ) { n in
            office.post(Tick(n: n))
            expected += 1
        }
    }

    private func timed(before: () -> Void = {}, _ post: (Int) -> Void) -> (median: Double, p99: Double) {
        Stopwatch.eachOperation(posts, before: before, post)
    }
}
