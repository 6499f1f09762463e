#if !PONY_FUZZING
    import PonyExpress
    import PonyExpressMonitor
    import PonyExpressWire

    /// The seed inputs in `Tests/WireFuzzCorpus`, one per reader of ``WireDecoderProbe``, made from a real monitor's
    /// snapshot: `swift run PonyWireFuzz --write-seeds Tests/WireFuzzCorpus` writes them again after a format change.
    enum SeedCorpus {
        struct Ping: Mail {}

        static func inputs() throws -> [(name: String, bytes: [UInt8])] {
            let office = PostOffice()
            let monitor = PostOfficeMonitor()
            monitor.attach(to: office)
            final class Screen: Sendable {
                func handle(_ mail: Ping) {}
            }
            let screen = Screen()
            office.register(screen, Screen.handle)
            office.register { (_: Ping) in }
            for _ in 0..<3 { office.post(Ping()) }
            let snapshot = SnapshotFrame(takenAt: 1_700_000_000, snapshot: monitor.snapshot())
            monitor.detach()
            let hello = try Hello(pid: 42, processName: "seed", startedAt: 1_700_000_000).frame()
            let request = try Request.snapshot(recipientsOf: [String(reflecting: Ping.self)]).frame
            let stream = hello.bytes + request.bytes + (try snapshot.frame.bytes)
            return [
                ("frames", [0] + stream),
                ("hello", [1] + Array(hello.payload.dropFirst(4))),
                ("request", [2] + request.payload),
                ("reset", [2] + (try Request.resetStatistics.frame.payload)),
                ("snapshot", [3] + (try snapshot.frame.payload)),
                ("recording", [4] + Recording.magic + hello.bytes + (try snapshot.frame.bytes)),
            ]
        }
    }
#endif
