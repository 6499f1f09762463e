import Foundation
import Logging
import NIOCore
import NIOPosix
import PonyExpress
import PonyExpressMonitor
import PostgresNIO

extension PostgresRelay {
    /// Why a connection's work ended without an error of its own.
    struct ConnectionEnded: Error, CustomStringConvertible {
        var description: String { "the connection closed" }
    }

    /// Why a connection was given up although it had not failed: a batch of `pg_notify` took longer than
    /// ``sendTimeout``, which only a connection that stopped answering does.
    struct SendTimedOut: Error, CustomStringConvertible {
        var description: String {
            "a batch of pg_notify got no answer within \(PostgresRelay.sendTimeout.nanoseconds / 1_000_000_000) s"
        }
    }

    /// Why an attempt was given up although its connection had not failed: the server let the client in but did not
    /// acknowledge its `LISTEN` within the connect timeout, which a server or client library that stopped halfway
    /// does (a PostgreSQL restarting under load left both relays of a test so for 15 s and more).
    struct ListenTimedOut: Error, CustomStringConvertible {
        let limit: Duration

        var description: String {
            "the server did not start listening within \(PostgresRelay.milliseconds(limit)) ms of the attempt"
        }
    }

    /// Connects, listens and sends until cancelled; after a failure, waits (doubling the wait each time, up to the
    /// maximum) and connects again.
    func run() async {
        var backoff = configuration.initialBackoff
        var connectionId = 0
        while !Task.isCancelled {
            connectionId += 1
            let before = statistics.connections
            do {
                try await serve(connectionId: connectionId)
            } catch {
                if Task.isCancelled { break }
                state.withLock { $0.statistics.connectionFailures += 1 }
                logger.warning(
                    "relay: connection to \(configuration.host):\(configuration.port)/\(configuration.database) failed or lost (\(Self.describe(error))); retrying in \(Self.milliseconds(backoff)) ms"
                )
            }
            disconnected()
            if statistics.connections > before { backoff = configuration.initialBackoff }
            if Task.isCancelled { break }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, configuration.maximumBackoff)
        }
        disconnected()
    }

    /// One connection: listens and sends until either fails, the connection closes or the relay stops.
    ///
    /// As soon as one of them ends, posts are dropped and counted (not queued for a connection that is gone), the
    /// others are cancelled, and the connection is closed. They are then given ``partsGrace`` to end; one that does
    /// not is logged and left behind, and the relay connects again all the same.
    private func serve(connectionId: Int) async throws {
        let quiet = Self.quiet(logger)
        // One attempt, from the first byte to the acknowledged LISTEN, gets the connect timeout: postgres-nio bounds
        // the connection and its start-up by it, the watchdog below the LISTEN.
        let options = configuration.connection
        let attemptEnds = NIODeadline.now() + options.options.connectTimeout
        let connection = try await PostgresConnection.connect(
            on: executor.eventLoop, configuration: options,
            id: connectionId, logger: quiet
        ).get()
        state.withLock { $0.connectionId = connectionId }
        let work = ConnectionWork(parts: ["listener", "sender"])
        let limit = configuration.connectTimeout
        let listening = executor.eventLoop.scheduleTask(deadline: attemptEnds) {
            work.end(ListenTimedOut(limit: limit))
        }
        let listener = Task(executorPreference: executor) {
            do {
                try await connection.listen(on: self.configuration.channel) { notifications in
                    listening.cancel()
                    self.connected(connectionId)
                    for try await notification in notifications { self.receive(notification.payload) }
                }
                work.end(ConnectionEnded())
            } catch {
                work.end(error)
            }
            work.finished("listener")
        }
        let sender = Task(executorPreference: executor) {
            do {
                try await self.sendLoop(on: connection, work: work, logger: quiet)
                work.end(nil)
            } catch {
                work.end(error)
            }
            work.finished("sender")
        }
        connection.closeFuture.whenComplete { _ in work.end(ConnectionEnded()) }
        let failure = await withTaskCancellationHandler {
            await work.firstEnd()
        } onCancel: {
            work.end(nil)
        }
        listening.cancel()
        disconnected()
        listener.cancel()
        sender.cancel()
        try? await connection.close()
        if !(await work.partsFinished(within: Self.partsGrace, on: executor.eventLoop)) {
            state.withLock { $0.partsLeftRunning = true }
            logger.warning(
                "relay: connection \(connectionId)'s \(work.running.sorted().joined(separator: " and ")) did not end within \(Self.partsGrace.nanoseconds / 1_000_000) ms of the connection's end; connecting again without waiting for it"
            )
        }
        if let failure, !Task.isCancelled { throw failure }
    }

    /// How long a connection's listener and sender are given to end once the connection ended.
    static let partsGrace = TimeAmount.seconds(2)
    /// How long one batch of `pg_notify` may wait for its answer.
    static let sendTimeout = TimeAmount.seconds(10)

    /// Sends the outbox in batches, one query per batch, until cancelled or a send fails. A batch that gets no
    /// answer within ``sendTimeout`` ends the connection's work, so that a connection that stopped answering is
    /// replaced instead of holding the outbox.
    private func sendLoop(on connection: PostgresConnection, work: ConnectionWork, logger: Logger) async throws {
        while let batch = await nextBatch() {
            let watchdog = executor.eventLoop.scheduleTask(in: Self.sendTimeout) { work.end(SendTimedOut()) }
            defer { watchdog.cancel() }
            let payloads = batch.map(\.payload)
            do {
                let rows = try await connection.query(
                    "SELECT pg_notify(\(configuration.channel), payload) FROM unnest(\(payloads)::text[]) AS payload",
                    logger: logger)
                for try await _ in rows {}
            } catch {
                for outgoing in batch { outgoing.shared.countDropped() }
                throw error
            }
            var bySharedType: [ObjectIdentifier: (SharedMailType, Int)] = [:]
            for outgoing in batch {
                bySharedType[ObjectIdentifier(outgoing.shared), default: (outgoing.shared, 0)].1 += 1
            }
            for (shared, count) in bySharedType.values { shared.countSent(count) }
        }
    }

    /// The next posts to send (at most 512), waiting while there are none; `nil` once cancelled.
    private func nextBatch() async -> [Outgoing]? {
        while true {
            // A sender whose connection ended leaves what is queued to the next connection's.
            if Task.isCancelled { return nil }
            let batch = state.withLock { state -> [Outgoing] in
                guard state.outbox.count > 512 else {
                    defer { state.outbox.removeAll(keepingCapacity: true) }
                    return state.outbox
                }
                defer { state.outbox.removeFirst(512) }
                return Array(state.outbox.prefix(512))
            }
            if !batch.isEmpty { return batch }
            if Task.isCancelled { return nil }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { state -> Bool in
                        if !state.outbox.isEmpty || Task.isCancelled { return true }
                        state.waiter = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
        }
    }

    /// The connection listens: posts may be sent from now on. A connection that is no longer the current one (its
    /// listen came back after the relay gave up on it) changes nothing.
    private func connected(_ connectionId: Int) {
        let current = state.withLock { state -> Bool in
            guard state.connectionId == connectionId, !state.isStopped else { return false }
            state.isConnected = true
            state.loggedDrop = false
            state.statistics.isConnected = true
            state.statistics.connections += 1
            return true
        }
        guard current else { return }
        logger.info(
            "relay: connected to \(configuration.host):\(configuration.port)/\(configuration.database), channel \(configuration.channel)"
        )
    }

    /// The connection is gone: posts are dropped until the next one, and so is what the outbox held.
    private func disconnected() {
        let (lost, waiter) = state.withLock { state in
            state.connectionId = 0
            state.isConnected = false
            state.statistics.isConnected = false
            defer {
                state.outbox.removeAll()
                state.waiter = nil
            }
            return (state.outbox, state.waiter)
        }
        for outgoing in lost { outgoing.shared.countDropped() }
        waiter?.resume()
    }

    // MARK: - Receiving

    /// Why an arrival was refused.
    enum Refusal: CustomStringConvertible {
        case notAnEnvelope(bytes: Int)
        case format(Int)
        case unknownType(String)
        case version(String, got: Int, expected: Int)
        case undecodable(String)

        var description: String {
            switch self {
            case .notAnEnvelope(let bytes): "a \(bytes)-byte payload that is not a relay envelope"
            case .format(let format): "an envelope of format \(format), expected \(RelayEnvelope.format)"
            case .unknownType(let name): "mail of type \(Self.printable(name)), which this process does not share"
            case .version(let name, let got, let expected):
                "\(Self.printable(name)) version \(got), expected version \(expected)"
            case .undecodable(let name): "\(Self.printable(name)) whose mail does not decode"
            }
        }

        /// Text from another process, with control characters escaped and cut to 200 characters.
        static func printable(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars.prefix(200) {
                if scalar.properties.generalCategory == .control {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
    }

    /// Posts an arriving envelope's mail, or counts and logs why not.
    func receive(_ payload: String) {
        let data = Data(payload.utf8)
        guard let header = try? JSONDecoder().decode(EnvelopeHeader.self, from: data) else {
            return refuse(.notAnEnvelope(bytes: data.count))
        }
        guard header.f == RelayEnvelope.format else { return refuse(.format(header.f)) }
        if header.r == identity.relayId { return }
        guard let shared = state.withLock({ $0.sharedByName[header.t] }) else { return refuse(.unknownType(header.t)) }
        guard header.v == shared.version else {
            return refuse(.version(header.t, got: header.v, expected: shared.version))
        }
        let sender = sender(for: header)
        do {
            try shared.post(data, office, sender)
        } catch {
            return refuse(.undecodable(header.t))
        }
        let now = WallClock.nanoseconds()
        shared.countReceived(lag: now > header.s ? now - header.s : 0)
    }

    private func refuse(_ refusal: Refusal) {
        let count = state.withLock { state in
            state.statistics.rejected += 1
            return state.statistics.rejected
        }
        // The first ten, then one in a thousand: a flood of bad payloads must not flood the log.
        if count <= 10 || count % 1_000 == 0 {
            logger.warning("relay: refused \(refusal) (\(count) refused so far)")
        }
    }

    /// The one sender object of a remote relay.
    private func sender(for header: EnvelopeHeader) -> RemoteSender {
        state.withLock { state in
            if let known = state.senders[header.r] { return known }
            if state.senders.count >= Self.senderCapacity { state.senders.removeAll() }
            let sender = RemoteSender(
                host: Refusal.printable(header.h), processId: header.p, instance: Refusal.printable(header.i),
                relayId: Refusal.printable(header.r))
            state.senders[header.r] = sender
            return sender
        }
    }

    // MARK: - Describing

    /// postgres-nio's logger: critical lines only, so that its own logging adds nothing to the relay's.
    static func quiet(_ logger: Logger) -> Logger {
        var quiet = logger
        quiet.logLevel = .critical
        return quiet
    }

    /// An error as one line, without anything from the configuration but what the error itself says: postgres-nio's
    /// errors never carry the password.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return "server: \(Refusal.printable(message))" }
            // A TLS failure (an untrusted certificate under sslmode=verify-full) says what it was only underneath.
            if let underlying = error.underlying { return "\(error.code): \(Refusal.printable("\(underlying)"))" }
            return "\(error.code)"
        }
        return Refusal.printable("\(error)")
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
