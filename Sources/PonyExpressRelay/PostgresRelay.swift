import Dispatch
import Foundation
import Logging
import NIOCore
import NIOPosix
import PonyExpress
import PonyExpressMonitor
import PostgresNIO

#if canImport(Glibc)
    import Glibc
#endif

/// Shares mail between processes through PostgreSQL's `LISTEN`/`NOTIFY`: mail of a shared type posted in one process
/// reaches the recipients of that type in every process on the same channel.
///
/// ```swift
/// var configuration = try RelayConfiguration(url: "postgres://app@db:5432/app", channel: "mail")
/// configuration.authentication = .key(try RelayKey.fromEnvironment())  // PONYEXPRESS_RELAY_KEY
/// let relay = try PostgresRelay.start(office: .default, configuration: configuration)
/// try relay.share(CacheInvalidated.self)
/// // ... PostOffice.default.post(CacheInvalidated(key: "user:42")) now reaches every instance ...
/// relay.stop()
/// ```
///
/// Guarantees, at most once:
/// - A shared post reaches each other process on the channel at most once, and only while both are connected. The
///   posting process delivers its own post locally, as ever, and never a second time from PostgreSQL.
/// - `post` never blocks on the network: the relay encodes the mail and puts it in a bounded outbox. Mail posted while
///   the relay is not connected, beyond the outbox's capacity, larger than `NOTIFY`'s 8,000-byte payload, or in
///   flight when the connection fails is dropped, counted in the monitor's `RelayFigures.dropped` and logged.
/// - After a lost connection the relay reconnects with exponential backoff; mail flows again once it is back.
/// - Mail that arrives unsigned, with a wrong signature, again, stamped outside the time window, with an unknown type
///   name, another version or undecodable bytes is counted by reason (``Statistics/refusals``) and logged
///   (rate-limited), never posted.
/// - Listening and sending use a connection each, so that a flood of notifications on the channel, which the
///   listening connection must read, does not hold up the relay's own posts.
///
/// Mail from another process is posted with a ``RemoteSender`` naming that process, and with
/// `PostOrigin.relayed`, so that sender filters choose local or remote mail and the monitor's tap sees relayed posts.
/// The password of the configuration never appears in a log line.
public final class PostgresRelay: RelayFigureSource {
    /// Relay-wide counts, beside the per-type `RelayFigures` the monitor shows.
    public struct Statistics: Sendable, Equatable {
        /// Whether the relay is connected now: listening on one connection and able to send on the other.
        public var isConnected: Bool
        /// Connections made (the first and every reconnection), the listening and the sending ones together.
        public var connections: UInt64
        /// Attempts to connect that failed, and connections lost, of either kind.
        public var connectionFailures: UInt64
        /// Arrivals refused, all reasons together: ``refusals``' total.
        public var rejected: UInt64
        /// Arrivals refused, by reason.
        public var refusals = RelayRefusals()
    }

    /// The post office whose shared mail is relayed.
    public let office: PostOffice
    /// Where it meets the other processes (its description hides the password).
    public let configuration: RelayConfiguration
    /// This relay as other processes see it: the sender of its mail there.
    public let identity: RemoteSender
    let logger: Logger
    /// The event loop, on a thread of its own, that the listening connection and the handling of arrivals run on.
    let listenExecutor: RelayExecutor
    /// The event loop, on another thread, that the sending connection runs on: a flood of arrivals keeps the
    /// listening thread busy, not this one.
    let sendExecutor: RelayExecutor
    /// Signs sent envelopes and checks arriving ones; `nil` for ``RelayConfiguration/Authentication/unauthenticated``.
    let signer: EnvelopeSigner?
    /// ``RelayConfiguration/replayWindow`` in nanoseconds.
    let replayWindow: UInt64
    let state: Locked<State>
    private let finished = DispatchSemaphore(value: 0)

    /// Everything that changes, under one lock.
    struct State {
        var sharedByName: [String: SharedMailType] = [:]
        var forwarders: [ObjectIdentifier: (forwarder: AnyObject, id: RecipientId)] = [:]
        var outbox: [Outgoing] = []
        var waiter: CheckedContinuation<Void, Never>?
        var isListening = false
        /// Whether the sending connection is up: posts are queued only then.
        var isSending = false
        var isStopped = false
        var loggedDrop = false
        var sequence: UInt64 = 0
        /// The relays authenticated lately, with their sender objects: the only way into the sender cache.
        var knownRelays: KnownRelays
        var statistics = Statistics(isConnected: false, connections: 0, connectionFailures: 0, rejected: 0)
        var task: Task<Void, Never>?
        /// The connection being served, by role, absent between connections.
        var connectionIds: [Role: Int] = [:]
        /// Connections made, by role: what resets each role's backoff.
        var connectionsByRole: [Role: UInt64] = [:]
        /// Whether a connection's listener or sender outlived it: the event loops then stay up, since that work
        /// may still run on them.
        var partsLeftRunning = false
    }

    /// What became of a post offered to the outbox.
    enum Outcome {
        case queued(CheckedContinuation<Void, Never>?)
        case disconnected(log: Bool)
        case full
    }

    /// One encoded post waiting to be sent.
    struct Outgoing: Sendable {
        let payload: String
        let shared: SharedMailType
    }

    /// `NOTIFY`'s payload limit is 8,000 bytes; the payload must be shorter.
    public static let payloadLimit = 7_999
    /// The most remote relays whose ``RemoteSender`` objects and replay state are kept.
    static let senderCapacity = 1_024

    private init(office: PostOffice, configuration: RelayConfiguration, logger: Logger) {
        self.office = office
        self.configuration = configuration
        self.logger = logger
        listenExecutor = RelayExecutor()
        sendExecutor = RelayExecutor()
        if case .key(let key) = configuration.authentication {
            signer = EnvelopeSigner(key: key, channel: configuration.channel)
        } else {
            signer = nil
        }
        let window = configuration.replayWindow.components
        replayWindow = UInt64(window.seconds) * 1_000_000_000 + UInt64(window.attoseconds / 1_000_000_000)
        state = Locked(State(knownRelays: KnownRelays(capacity: Self.senderCapacity, window: replayWindow)))
        var id = SystemRandomNumberGenerator()
        identity = RemoteSender(
            host: RemoteSender.localHost, processId: RemoteSender.localProcessId, instance: configuration.instance,
            relayId: String(id.next() as UInt64, radix: 36) + String(id.next() as UInt64, radix: 36))
    }

    /// Starts a relay: it connects in the background, and reconnects whenever the connection is lost, until
    /// ``stop()``. Share mail types with ``share(_:name:version:)``.
    ///
    /// - Parameters:
    ///   - office: The post office whose shared mail to relay.
    ///   - configuration: The server, database and channel.
    ///   - logger: Where connection changes, drops and refused arrivals are logged (never the password).
    /// - Returns: The running relay.
    /// - Throws: ``RelayConfigurationError`` for a configuration out of bounds, or without
    ///   ``RelayConfiguration/authentication``.
    public static func start(
        office: PostOffice, configuration: RelayConfiguration,
        logger: Logger = Logger(label: "PonyExpressRelay")
    ) throws(RelayConfigurationError) -> PostgresRelay {
        try configuration.validate()
        guard configuration.authentication != nil else {
            throw RelayConfigurationError(
                "the relay has no key: set authentication to .key(RelayKey.fromEnvironment()) (\(RelayKey.environmentVariable) or \(RelayKey.fileVariable)), or to .unauthenticated to let anyone who can connect to the database post"
            )
        }
        let relay = PostgresRelay(office: office, configuration: configuration, logger: logger)
        let task = Task.detached(executorPreference: relay.listenExecutor) { [relay] in
            await relay.run()
            relay.finished.signal()
        }
        relay.state.withLock { $0.task = task }
        return relay
    }

    /// Shares a mail type: its posts in this office are sent to the other processes on the channel, and theirs are
    /// posted here.
    ///
    /// Every process must share the type under the same name and version. Sharing it again is harmless.
    ///
    /// - Parameters:
    ///   - type: The mail type.
    ///   - name: Its name across processes; by default its module-qualified Swift name (`App.CacheInvalidated`),
    ///     which stays the same as long as the type keeps its name and module.
    ///   - version: Its format version: bump it when the encoded form changes incompatibly, so that processes
    ///     running the old code refuse the new mail (counted) instead of misreading it.
    /// - Throws: ``RelayConfigurationError`` when the name is empty, longer than 200 bytes, or already shares
    ///   another type.
    public func share<M: Mail & Codable & Sendable>(
        _ type: M.Type, name: String? = nil, version: Int = 1
    ) throws(RelayConfigurationError) {
        let name = name ?? String(reflecting: M.self)
        guard !name.isEmpty, name.utf8.count <= 200 else {
            throw RelayConfigurationError(
                "a shared mail type's name must be 1 to 200 bytes long, got \(name.utf8.count)")
        }
        let shared = SharedMailType(M.self, name: name, version: version)
        let forwarder = SharedMailForwarder<M>(relay: self, shared: shared)
        let conflict: String? = state.withLock { state in
            if let existing = state.sharedByName[name] {
                return existing.mailType == shared.mailType && existing.version == version
                    ? nil : "the name \(name) already shares \(existing.mailType.name) version \(existing.version)"
            }
            state.sharedByName[name] = shared
            return nil
        }
        if let conflict { throw RelayConfigurationError(conflict) }
        guard state.withLock({ $0.forwarders[ObjectIdentifier(M.self)] == nil }) else { return }
        let id = office.register(forwarder, SharedMailForwarder<M>.forward)
        state.withLock { $0.forwarders[ObjectIdentifier(M.self)] = (forwarder, id) }
    }

    /// Stops relaying: unregisters from the office, closes the connection and waits (a few seconds at most) for the
    /// background work to end. Mail still in the outbox is dropped and counted. Do not call it from a task of
    /// Swift concurrency's cooperative pool.
    public func stop() {
        let (task, forwarders) = state.withLock { state in
            state.isStopped = true
            defer {
                state.forwarders = [:]
                state.task = nil
            }
            return (state.task, state.forwarders.values.map(\.id))
        }
        for id in forwarders { office.unregister(id) }
        guard let task else { return }
        task.cancel()
        // A connection attempt under way, then its listener and sender given their grace, then a margin.
        let grace = Int(Self.partsGrace.nanoseconds / 1_000_000_000)
        let ended = finished.wait(
            timeout: .now() + .seconds(Int(configuration.connectTimeout.components.seconds) + grace + 2))
        // Its thread ends once nothing runs on it; work still running past the wait keeps it.
        if ended == .success, !state.withLock({ $0.partsLeftRunning }) {
            listenExecutor.shutdown()
            sendExecutor.shutdown()
        }
    }

    /// Relay-wide counts now.
    public var statistics: Statistics {
        state.withLock { $0.statistics }
    }

    /// The figures of every shared mail type, by mail type: what the monitor shows.
    public func relayFigures() -> [TypeIdentity: RelayFigures] {
        let shared = state.withLock { Array($0.sharedByName.values) }
        var figures: [TypeIdentity: RelayFigures] = [:]
        for entry in shared { figures[entry.mailType] = entry.figures }
        return figures
    }

    /// The figures of one shared mail type, `nil` if it is not shared.
    ///
    /// - Parameter type: The mail type.
    /// - Returns: Its figures.
    public func figures<M: Mail>(of type: M.Type) -> RelayFigures? {
        relayFigures()[TypeIdentity(M.self)]
    }

    // MARK: - Posting

    /// Encodes a local post and puts it in the outbox, or counts it dropped.
    func send<M: Mail & Codable & Sendable>(_ mail: M, shared: SharedMailType) {
        let sequence = state.withLock { state -> UInt64 in
            state.sequence += 1
            return state.sequence
        }
        let payload: String
        do {
            var envelope = Envelope(
                f: RelayEnvelope.format, r: identity.relayId, h: identity.host, p: identity.processId,
                i: identity.instance, t: shared.name, v: shared.version, n: sequence, s: WallClock.nanoseconds(),
                m: String(decoding: try JSONEncoder().encode(mail), as: UTF8.self))
            envelope.g = signer?.signature(of: envelope)
            payload = String(decoding: try JSONEncoder().encode(envelope), as: UTF8.self)
        } catch {
            shared.countDropped()
            logger.error("relay: cannot encode \(shared.name) as JSON, dropped: \(error)")
            return
        }
        guard payload.utf8.count <= Self.payloadLimit else {
            shared.countDropped()
            logger.error(
                "relay: \(shared.name) is \(payload.utf8.count) bytes as JSON, over NOTIFY's limit of \(Self.payloadLimit); dropped (send a key to the data instead)"
            )
            return
        }
        let outcome = state.withLock { state -> Outcome in
            guard state.isSending, !state.isStopped else {
                defer { state.loggedDrop = true }
                return .disconnected(log: !state.loggedDrop)
            }
            guard state.outbox.count < configuration.outboxCapacity else { return .full }
            state.outbox.append(Outgoing(payload: payload, shared: shared))
            defer { state.waiter = nil }
            return .queued(state.waiter)
        }
        switch outcome {
        case .queued(let waiter): waiter?.resume()
        case .disconnected(let log):
            shared.countDropped()
            if log { logger.warning("relay: not connected; shared mail is dropped (and counted) until it is") }
        case .full:
            shared.countDropped()
            logger.warning("relay: outbox full (\(configuration.outboxCapacity) posts); \(shared.name) dropped")
        }
    }
}

/// The relay's recipient for one shared type in the local office: forwards local posts, not relayed ones.
final class SharedMailForwarder<M: Mail & Codable & Sendable>: Sendable {
    private weak let relay: PostgresRelay?
    private let shared: SharedMailType

    init(relay: PostgresRelay, shared: SharedMailType) {
        self.relay = relay
        self.shared = shared
    }

    /// Sends a local post; mail that came from another process (its sender a ``RemoteSender``) is not sent back.
    func forward(_ mail: M, _ sender: AnyObject?) {
        guard !(sender is RemoteSender) else { return }
        relay?.send(mail, shared: shared)
    }
}
