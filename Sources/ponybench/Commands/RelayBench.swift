#if Relay
    import ArgumentParser
    import Dispatch
    import Foundation
    import Logging
    import NIOPosix
    import PonyExpress
    import PonyExpressRelay
    import PostgresNIO
    import Synchronization

    /// Measures the PostgreSQL relay end to end (post in one office, delivery in another, through a real server) beside
    /// a bare postgres-nio `LISTEN`/`NOTIFY` loop on the same server in the same run: the floor.
    struct RelayBench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "relay",
            abstract: "Relay throughput and lag at a steady rate through PostgreSQL, beside a bare LISTEN/NOTIFY loop.",
            discussion: """
                Needs a PostgreSQL server: --url postgres://USER[:PASSWORD]@HOST:PORT/DATABASE. Both offices and both \
                loops run in this process, so lags are read on one monotonic clock.
                """)

        @Option(help: "The server: postgres://USER[:PASSWORD]@HOST:PORT/DATABASE.")
        var url: String

        @Option(help: "Posts per second in the steady phase (1 to 100000).")
        var rate: Int = 1_000

        @Option(help: "Seconds of the steady phase (1 to 600).")
        var seconds: Int = 10

        @Option(help: "Posts in the burst phase, posted as fast as possible (1 to 1000000).")
        var burst: Int = 20_000

        func validate() throws {
            guard (1...100_000).contains(rate) else { throw ValidationError("--rate must be 1 to 100000, got \(rate)") }
            guard (1...600).contains(seconds) else {
                throw ValidationError("--seconds must be 1 to 600, got \(seconds)")
            }
            guard (1...1_000_000).contains(burst) else {
                throw ValidationError("--burst must be 1 to 1000000, got \(burst)")
            }
            do {
                _ = try RelayConfiguration(url: url)
            } catch {
                throw ValidationError("--url: \(error.description)")
            }
        }

        func run() throws {
            DebugBuild.warn("ponybench relay")
            var configuration = try RelayConfiguration(url: url, channel: "ponybench_relay")
            // A key of this run's own: the relays sign and check every envelope, as a fleet's do.
            var random = SystemRandomNumberGenerator()
            let key = try RelayKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
            configuration.authentication = .key(key)
            print(
                "Relay through \(configuration), signed, \(rate) posts/s for \(seconds) s, then a burst of \(burst) posts.\n"
            )
            let count = rate * seconds
            let relaySteady = try RelayRun.measure(configuration, count: count, rate: rate)
            var unsigned = configuration
            unsigned.authentication = .unauthenticated
            let unsignedSteady = try RelayRun.measure(unsigned, count: count, rate: rate)
            let floorSteady = try BareNotifyRun.measure(configuration, count: count, rate: rate)
            let relayBurst = try RelayRun.measure(configuration, count: burst, rate: nil)
            let floorBurst = try BareNotifyRun.measure(configuration, count: burst, rate: nil)
            print(RelayResult.header)
            print(relaySteady.line("relay, signed, \(rate)/s"))
            print(unsignedSteady.line("relay, unsigned, \(rate)/s"))
            print(floorSteady.line("bare LISTEN/NOTIFY, \(rate)/s"))
            print(relayBurst.line("relay, signed, burst"))
            print(floorBurst.line("bare LISTEN/NOTIFY, burst"))
            print()
            print(SigningCost.measure(key: key).line)
            print()
            let overhead = floorSteady.lagP99 > 0 ? Double(relaySteady.lagP99) / Double(floorSteady.lagP99) : .nan
            print(
                "Targets: relay p99 lag at \(rate)/s under 5 ms: \(Self.verdict(Double(relaySteady.lagP99) < 5e6)) "
                    + "(\(RelayResult.milliseconds(relaySteady.lagP99)) ms); relay p99 over the floor's at most 1.5x: "
                    + "\(Self.verdict(overhead <= 1.5)) (\(String(format: "%.2f", overhead))x)")
        }

        static func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }
    }

    /// One phase's figures.
    struct RelayResult {
        var posted: Int
        var received: Int
        var seconds: Double
        var lagP50: UInt64
        var lagP99: UInt64

        static let header =
            "run                                  posted   received   received/s   lag p50 ms   lag p99 ms"

        func line(_ name: String) -> String {
            let perSecond = seconds > 0 ? Double(received) / seconds : 0
            func right(_ text: String, _ width: Int) -> String {
                String(repeating: " ", count: max(0, width - text.count)) + text
            }
            return name.padding(toLength: 34, withPad: " ", startingAt: 0) + right(String(posted), 9)
                + right(String(received), 11) + right(String(format: "%.0f", perSecond), 13)
                + right(Self.milliseconds(lagP50), 13) + right(Self.milliseconds(lagP99), 13)
        }

        static func milliseconds(_ nanoseconds: UInt64) -> String { String(format: "%.3f", Double(nanoseconds) / 1e6) }

        /// Figures from the lags of what arrived.
        init(posted: Int, lags: [UInt64], seconds: Double) {
            self.posted = posted
            received = lags.count
            self.seconds = seconds
            let sorted = lags.sorted()
            func percentile(_ p: Double) -> UInt64 {
                sorted.isEmpty
                    ? 0 : sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
            }
            lagP50 = percentile(0.5)
            lagP99 = percentile(0.99)
        }
    }

    /// What signing costs one envelope of the bench's mail, on this machine: HMAC-SHA256 to sign, and to check.
    struct SigningCost {
        var envelopes: Int
        var bytes: Int
        var signNanoseconds: Double
        var verifyNanoseconds: Double

        var line: String {
            "signing cost, \(envelopes) envelopes of \(bytes) bytes: sign "
                + String(format: "%.2f", signNanoseconds / 1_000) + " µs, verify "
                + String(format: "%.2f", verifyNanoseconds / 1_000) + " µs per envelope"
        }

        static func measure(key: RelayKey, envelopes: Int = 100_000) -> SigningCost {
            let signer = EnvelopeSigner(key: key, channel: "ponybench_relay")
            let mail = String(
                decoding: (try? JSONEncoder().encode(RelayBenchMail(sequence: 1, postedAt: 1))) ?? Data(), as: UTF8.self
            )
            var envelope = PonyExpressRelay.Envelope(
                f: RelayEnvelope.format, r: "k3j2h4g5f6d7s8a9", h: "bench-host", p: 4242, i: "bench-host:4242",
                t: "ponybench.RelayBenchMail", v: 1, n: 0, s: 1_764_000_000_000_000_000, m: mail)
            var signatures: [String] = []
            signatures.reserveCapacity(envelopes)
            let signStart = RelayClock.now()
            for index in 0..<envelopes {
                envelope.n = UInt64(index)
                signatures.append(signer.signature(of: envelope))
            }
            let signed = RelayClock.now() - signStart
            var valid = 0
            let verifyStart = RelayClock.now()
            for index in 0..<envelopes {
                envelope.n = UInt64(index)
                envelope.g = signatures[index]
                if signer.isValid(envelope) { valid += 1 }
            }
            let verified = RelayClock.now() - verifyStart
            precondition(valid == envelopes, "a signature the bench made did not verify")
            envelope.g = signatures[0]
            let bytes = ((try? JSONEncoder().encode(envelope)) ?? Data()).count
            return SigningCost(
                envelopes: envelopes, bytes: bytes, signNanoseconds: Double(signed) / Double(envelopes),
                verifyNanoseconds: Double(verified) / Double(envelopes))
        }
    }

    /// The mail the relay phase posts: its sequence and when it was posted, on this process's monotonic clock.
    struct RelayBenchMail: Mail, Codable, Sendable {
        var sequence: Int
        var postedAt: UInt64
    }

    /// Keeps the lag of each arrival.
    final class LagRecorder: Sendable {
        private let lags = Mutex<[UInt64]>([])

        func record(postedAt: UInt64) {
            let now = RelayClock.now()
            lags.withLock { $0.append(now.elapsed(since: postedAt)) }
        }

        func receive(_ mail: RelayBenchMail) { record(postedAt: mail.postedAt) }

        var count: Int { lags.withLock { $0.count } }
        var all: [UInt64] { lags.withLock { $0 } }
    }

    enum RelayClock {
        static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

        /// Calls `body(index)` `count` times at `rate` per second (or as fast as possible), then waits until `isDone`
        /// or 10 s more.
        static func pace(count: Int, rate: Int?, _ body: (Int) -> Void, until isDone: () -> Bool) -> Double {
            let start = now()
            for index in 0..<count {
                if let rate {
                    let due = start + UInt64(index) * 1_000_000_000 / UInt64(rate)
                    while now() < due { usleep(UInt32(min(1_000, (due - now()) / 1_000))) }
                }
                body(index)
            }
            let deadline = now() + 10_000_000_000
            while !isDone(), now() < deadline { usleep(1_000) }
            return Double(now() - start) / 1e9
        }
    }

    /// The relay phase: two offices, two relays on one channel; posts in one, deliveries in the other.
    enum RelayRun {
        static func measure(_ configuration: RelayConfiguration, count: Int, rate: Int?) throws -> RelayResult {
            var logger = Logger(label: "ponybench.relay")
            logger.logLevel = .error
            var configuration = configuration
            configuration.outboxCapacity = max(10_000, count)
            let sending = PostOffice()
            let receiving = PostOffice()
            let relays = (
                try PostgresRelay.start(office: sending, configuration: configuration, logger: logger),
                try PostgresRelay.start(office: receiving, configuration: configuration, logger: logger)
            )
            defer {
                relays.0.stop()
                relays.1.stop()
            }
            try relays.0.share(RelayBenchMail.self)
            try relays.1.share(RelayBenchMail.self)
            let recorder = LagRecorder()
            let id = receiving.register(recorder, LagRecorder.receive)
            defer { receiving.unregister(id) }
            let deadline = RelayClock.now() + 15_000_000_000
            while !(relays.0.statistics.isConnected && relays.1.statistics.isConnected), RelayClock.now() < deadline {
                usleep(10_000)
            }
            let seconds = RelayClock.pace(
                count: count, rate: rate,
                { sending.post(RelayBenchMail(sequence: $0, postedAt: RelayClock.now())) },
                until: { recorder.count >= count })
            return RelayResult(posted: count, lags: recorder.all, seconds: seconds)
        }
    }

    /// The floor: one connection listens, another sends one `SELECT pg_notify` per message and waits for it, with a
    /// payload of the same shape; no post office, no envelope, no outbox.
    enum BareNotifyRun {
        static func measure(_ configuration: RelayConfiguration, count: Int, rate: Int?) throws -> RelayResult {
            let recorder = LagRecorder()
            final class Outcome: Sendable {
                let result = Mutex<Result<Double, any Error>?>(nil)
            }
            let box = Outcome()
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                let outcome: Result<Double, any Error>
                do {
                    outcome = .success(try await run(configuration, count: count, rate: rate, recorder: recorder))
                } catch {
                    outcome = .failure(error)
                }
                box.result.withLock { $0 = outcome }
                done.signal()
            }
            done.wait()
            let seconds = try box.result.withLock { $0! }.get()
            return RelayResult(posted: count, lags: recorder.all, seconds: seconds)
        }

        private static func run(
            _ configuration: RelayConfiguration, count: Int, rate: Int?, recorder: LagRecorder
        ) async throws -> Double {
            var logger = Logger(label: "ponybench.bare")
            logger.logLevel = .error
            let postgres = PostgresConnection.Configuration(
                host: configuration.host, port: configuration.port, username: configuration.username,
                password: configuration.password, database: configuration.database, tls: .disable)
            let group = MultiThreadedEventLoopGroup.singleton
            let listener = try await PostgresConnection.connect(
                on: group.next(), configuration: postgres, id: 1, logger: logger
            ).get()
            let sender = try await PostgresConnection.connect(
                on: group.next(), configuration: postgres, id: 2, logger: logger
            ).get()
            let channel = "ponybench_bare"
            let listening = AsyncStream<Void>.makeStream()
            let listen = Task {
                try await listener.listen(on: channel) { notifications in
                    listening.continuation.yield()
                    for try await notification in notifications {
                        let decoded = try JSONDecoder().decode(
                            RelayBenchMail.self, from: Data(notification.payload.utf8))
                        recorder.record(postedAt: decoded.postedAt)
                        if recorder.count >= count { return }
                    }
                }
            }
            for await _ in listening.stream { break }
            let start = RelayClock.now()
            for index in 0..<count {
                if let rate {
                    let due = start + UInt64(index) * 1_000_000_000 / UInt64(rate)
                    let now = RelayClock.now()
                    if now < due { try await Task.sleep(for: .nanoseconds(due - now)) }
                }
                let mail = RelayBenchMail(sequence: index, postedAt: RelayClock.now())
                let payload = String(decoding: try JSONEncoder().encode(mail), as: UTF8.self)
                for try await _ in try await sender.query("SELECT pg_notify(\(channel), \(payload))", logger: logger) {}
            }
            let deadline = RelayClock.now() + 10_000_000_000
            while recorder.count < count, RelayClock.now() < deadline { try await Task.sleep(for: .milliseconds(1)) }
            let seconds = Double(RelayClock.now() - start) / 1e9
            listen.cancel()
            try? await sender.close()
            try? await listener.close()
            return seconds
        }
    }
#endif
