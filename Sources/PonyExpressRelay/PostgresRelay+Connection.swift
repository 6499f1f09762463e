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
        let role: Role

        var description: String {
            switch role {
            case .listening:
                "the server did not start listening within \(PostgresRelay.milliseconds(limit)) ms of the attempt"
            case .sending:
                "the server did not answer a first query within \(PostgresRelay.milliseconds(limit)) ms of the attempt"
            }
        }
    }

    /// The two connections of a relay: one listens on the channel, the other sends the outbox. Apart, so that a
    /// flood of notifications (which the listening connection must read, one by one, before anything after them)
    /// cannot delay the answers to the relay's own `pg_notify`, and a failure of one does not end the other.
    enum Role: Hashable, CustomStringConvertible {
        case listening
        case sending

        var description: String {
            switch self {
            case .listening: "listening connection"
            case .sending: "sending connection"
            }
        }
    }

    /// Keeps both connections up until cancelled, each on its own event loop, each with its own reconnection.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask(executorPreference: listenExecutor) { await self.keepConnected(.listening) }
            group.addTask(executorPreference: sendExecutor) { await self.keepConnected(.sending) }
        }
    }

    /// Connects and serves one role until cancelled; after a failure, waits (doubling the wait each time, up to the
    /// maximum) and connects again.
    private func keepConnected(_ role: Role) async {
        var backoff = configuration.initialBackoff
        var connectionId = role == .listening ? 0 : 1
        while !Task.isCancelled {
            // Odd ids send, even ones listen: postgres-nio's log lines (and ours) tell the two apart.
            connectionId += 2
            // This role's own count: the other connection coming up says nothing of this one's attempts.
            let before = state.withLock { $0.connectionsByRole[role, default: 0] }
            do {
                try await serve(role, connectionId: connectionId)
            } catch {
                if Task.isCancelled { break }
                // Logged before it is counted: whoever sees the count can read why in the log.
                logger.warning(
                    "relay: \(role) to \(configuration.host):\(configuration.port)/\(configuration.database) failed or lost (\(Self.describe(error))); retrying in \(Self.milliseconds(backoff)) ms"
                )
                state.withLock { $0.statistics.connectionFailures += 1 }
            }
            disconnected(role)
            if state.withLock({ $0.connectionsByRole[role, default: 0] }) > before {
                backoff = configuration.initialBackoff
            }
            if Task.isCancelled { break }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, configuration.maximumBackoff)
        }
        disconnected(role)
    }

    /// One connection: listens, or sends, until it fails, closes or the relay stops.
    ///
    /// As soon as its work ends, the connection is closed (and, for the sending one, posts are dropped and counted
    /// rather than queued for a connection that is gone). Its work is then given ``partsGrace`` to end; work that
    /// does not is logged and left behind, and the relay connects again all the same.
    private func serve(_ role: Role, connectionId: Int) async throws {
        let quiet = Self.quiet(logger)
        let executor = role == .listening ? listenExecutor : sendExecutor
        // One attempt, from the first byte to the acknowledged LISTEN (or the answered probe), gets the connect
        // timeout: postgres-nio bounds the connection and its start-up by it, the watchdog below the rest.
        let options = configuration.connection
        let attemptEnds = NIODeadline.now() + options.options.connectTimeout
        let connection = try await PostgresConnection.connect(
            on: executor.eventLoop, configuration: options,
            id: connectionId, logger: quiet
        ).get()
        state.withLock { $0.connectionIds[role] = connectionId }
        let part = role == .listening ? "listener" : "sender"
        let work = ConnectionWork(parts: [part])
        let limit = configuration.connectTimeout
        let ready = executor.eventLoop.scheduleTask(deadline: attemptEnds) {
            work.end(ListenTimedOut(limit: limit, role: role))
        }
        let task = Task(executorPreference: executor) {
            do {
                switch role {
                case .listening:
                    try await connection.listen(on: self.configuration.channel) { notifications in
                        ready.cancel()
                        self.connected(.listening, connectionId)
                        for try await notification in notifications { self.receive(notification.payload) }
                    }
                    work.end(ConnectionEnded())
                case .sending:
                    // A server that let the client in but answers no query is no connection to send on.
                    for try await _ in try await connection.query("SELECT 1", logger: quiet) {}
                    ready.cancel()
                    self.connected(.sending, connectionId)
                    try await self.sendLoop(on: connection, work: work, logger: quiet)
                    work.end(nil)
                }
            } catch {
                work.end(error)
            }
            work.finished(part)
        }
        connection.closeFuture.whenComplete { _ in work.end(ConnectionEnded()) }
        let failure = await withTaskCancellationHandler {
            await work.firstEnd()
        } onCancel: {
            work.end(nil)
        }
        ready.cancel()
        disconnected(role)
        task.cancel()
        try? await connection.close()
        if !(await work.partsFinished(within: Self.partsGrace, on: executor.eventLoop)) {
            state.withLock { $0.partsLeftRunning = true }
            logger.warning(
                "relay: connection \(connectionId)'s \(part) did not end within \(Self.partsGrace.nanoseconds / 1_000_000) ms of the connection's end; connecting again without waiting for it"
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
            let watchdog = sendExecutor.eventLoop.scheduleTask(in: Self.sendTimeout) { work.end(SendTimedOut()) }
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

    /// A connection is up: listening, or able to send (posts are queued from now on). A connection that is no longer
    /// the current one of its role (its listen came back after the relay gave up on it) changes nothing.
    private func connected(_ role: Role, _ connectionId: Int) {
        let current = state.withLock { state -> Bool in
            guard state.connectionIds[role] == connectionId, !state.isStopped else { return false }
            switch role {
            case .listening: state.isListening = true
            case .sending:
                state.isSending = true
                state.loggedDrop = false
            }
            state.statistics.isConnected = state.isListening && state.isSending
            state.statistics.connections += 1
            state.connectionsByRole[role, default: 0] += 1
            return true
        }
        guard current else { return }
        logger.info(
            "relay: \(role) \(connectionId) up to \(configuration.host):\(configuration.port)/\(configuration.database), channel \(configuration.channel)"
        )
    }

    /// A connection is gone. Without the sending one, posts are dropped until the next, and so is what the outbox
    /// held.
    private func disconnected(_ role: Role) {
        let (lost, waiter) = state.withLock { state -> ([Outgoing], CheckedContinuation<Void, Never>?) in
            state.connectionIds[role] = nil
            state.statistics.isConnected = false
            switch role {
            case .listening:
                state.isListening = false
                return ([], nil)
            case .sending:
                state.isSending = false
                defer {
                    state.outbox.removeAll()
                    state.waiter = nil
                }
                return (state.outbox, state.waiter)
            }
        }
        for outgoing in lost { outgoing.shared.countDropped() }
        waiter?.resume()
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
