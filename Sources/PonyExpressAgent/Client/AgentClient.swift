import Glibc
import NIOCore
import NIOPosix
import PonyExpress
import PonyExpressWire

/// A viewer's connection to an agent: the hello, then a snapshot for each request. Replies arrive on NIO's event
/// loop and wait in ``latest`` for the viewer's own thread.
package final class AgentClient: Sendable {
    /// The agent's hello.
    package let hello: Hello
    /// The minor version of the agent's protocol.
    package let agentMinor: Int
    private let channel: any Channel
    private let inbox: ClientInbox

    private init(hello: Hello, agentMinor: Int, channel: any Channel, inbox: ClientInbox) {
        self.hello = hello
        self.agentMinor = agentMinor
        self.channel = channel
        self.inbox = inbox
    }

    /// Connects and waits for the agent's hello.
    ///
    /// - Parameters:
    ///   - address: Where the agent is.
    ///   - directory: The runtime directory, to find a pid's socket.
    ///   - timeout: Seconds to wait for the connection and the hello.
    /// - Throws: ``AgentClientError``: not found or unreachable (may work later), or rejected (it will not).
    package static func connect(
        to address: AgentAddress, directory: RuntimeDirectory = RuntimeDirectory(), timeout: Double = 3
    ) throws -> AgentClient {
        let inbox = ClientInbox()
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.milliseconds(Int64(timeout * 1000)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(FrameDecoder()), MessageToByteHandler(FrameEncoder()),
                        ClientHandler(inbox: inbox),
                    ])
                }
            }
        let channel: any Channel
        do {
            switch address {
            case .pid(let pid):
                guard let socket = directory.sockets().first(where: { $0.pid == pid }) else {
                    throw AgentClientError.notFound(
                        "no app with pid \(pid) has an agent socket in \(directory.path) (ponytop --list shows them)")
                }
                channel = try retryingWhileBusy(timeout: timeout) {
                    try bootstrap.connect(unixDomainSocketPath: socket.path).wait()
                }
            case .socket(let path):
                channel = try retryingWhileBusy(timeout: timeout) {
                    try bootstrap.connect(unixDomainSocketPath: path).wait()
                }
            case .tcp(let host, let port):
                channel = try bootstrap.connect(host: host, port: port).wait()
            }
        } catch let error as AgentClientError {
            throw error
        } catch {
            throw AgentClientError.unreachable("cannot connect to \(address): \(Self.describe(error))")
        }
        guard let first = inbox.waitForFrame(timeout: timeout) else {
            // Read why before closing: the close itself would say "the app closed the connection".
            let reason = inbox.closedReason
            closeAndWait(channel)
            if let reason { throw AgentClientError.unreachable("\(address): \(reason)") }
            throw AgentClientError.notAnswering(
                "\(address) did not answer within \(seconds(timeout)) s: the app is stopped (a debugger?) or too busy")
        }
        do {
            if first.kind == .error {
                throw AgentClientError.rejected(String(decoding: first.payload, as: UTF8.self))
            }
            // Any minor version of our major one reads: a newer one's fields are skipped, an older one's absent.
            let (hello, minor) = try Hello.read(first)
            return AgentClient(hello: hello, agentMinor: minor, channel: channel, inbox: inbox)
        } catch let error as AgentClientError {
            closeAndWait(channel)
            throw error
        } catch {
            closeAndWait(channel)
            throw AgentClientError.rejected("\(address) is not a ponytop agent: \(error)")
        }
    }

    /// Connects, trying again while the agent's socket is busy: a Unix domain socket refuses a connection at once
    /// (`EAGAIN`) while its backlog is full, as it is for a moment after a burst of connections, where a TCP
    /// connection would wait. Any other failure, or `timeout` seconds, ends the tries.
    private static func retryingWhileBusy(timeout: Double, _ connect: () throws -> any Channel) throws -> any Channel {
        let deadline = MonotonicClock.now() + UInt64(max(0, timeout) * 1e9)
        var pause: UInt32 = 5_000
        while true {
            do {
                return try connect()
            } catch  where isBusy(error) && MonotonicClock.now() + UInt64(pause) * 1_000 < deadline {
                usleep(pause)
                pause = min(pause * 2, 100_000)
            }
        }
    }

    /// Whether a connection failed because the socket's backlog was full.
    private static func isBusy(_ error: any Error) -> Bool {
        if let error = error as? IOError { return error.errnoCode == EAGAIN }
        if let error = error as? NIOConnectionError, let failure = error.connectionErrors.first {
            return isBusy(failure.error)
        }
        return false
    }

    /// Seconds as a person writes them: `3`, `0.5`.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }

    /// Why a connection failed, in a few words: refused, timed out, no such host, or the system's reason.
    static func describe(_ error: any Error) -> String {
        if let error = error as? IOError {
            if error.errnoCode == ECONNREFUSED { return "connection refused (nothing listens there)" }
            return String(cString: strerror(error.errnoCode))
        }
        if let error = error as? NIOConnectionError {
            if let failure = error.connectionErrors.first { return describe(failure.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "cannot resolve host \(error.host)" }
            return "no address to connect to for \(error.host)"
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout(let amount):
                return "timed out after \(Double(amount.nanoseconds) / 1e9) s (no answer)"
            default:
                return "connection failed (\(error))"
            }
        }
        return "\(error)"
    }

    /// Sends a request; the reply, if any, arrives in ``latest``.
    package func send(_ request: Request) {
        guard let frame = try? request.frame else { return }
        channel.writeAndFlush(frame, promise: nil)
    }

    /// How often a viewer that asks for nothing meanwhile sends ``Request/keepAlive`` to keep its slot: a third of
    /// the agent's quiet bound, so that one lost or late keep-alive is not taken for silence; `nil` when the agent
    /// reads no keep-alive (before protocol 1.3), whose slot a quiet viewer keeps only while nobody needs it.
    package var keepAliveInterval: Double? {
        guard agentMinor >= 3, let bound = hello.quietViewerBound, bound > 0 else { return nil }
        return bound / 3
    }

    /// The newest snapshot received and how many have been received.
    package var latest: (frame: SnapshotFrame?, count: Int) { inbox.latest }

    /// Why the connection ended, once it has: the agent's reason, or that it closed.
    package var closedReason: String? { inbox.closedReason }

    /// Waits until more than `count` snapshots have arrived or the connection ends.
    ///
    /// - Returns: The newest snapshot, or `nil` after `timeout` seconds or when the connection ended first.
    package func waitForSnapshot(after count: Int, timeout: Double) -> SnapshotFrame? {
        inbox.waitForSnapshot(after: count, timeout: timeout)
    }

    /// Closes the connection and waits until it is closed, so that a viewer may exit right after. Not to be called
    /// on the event loop.
    package func close() {
        Self.closeAndWait(channel)
    }

    /// Closes a channel and waits for it: a process that exits while a close is still under way on the event loop
    /// leaves the channel half torn down. (Its socket addresses may still be alive at exit, which LeakSanitizer
    /// cannot see: `.ci/lsan.supp` says why.)
    private static func closeAndWait(_ channel: any Channel) {
        try? channel.close().wait()
    }
}

/// What the event loop hands the viewer's thread.
final class ClientInbox: Sendable {
    private struct State {
        var handshake: Frame?
        var latest: SnapshotFrame?
        var count = 0
        var closedReason: String?
    }

    private let state = Locked(State())
    private let condition = ConditionSignal()

    var latest: (frame: SnapshotFrame?, count: Int) { state.withLock { ($0.latest, $0.count) } }
    var closedReason: String? { state.withLock { $0.closedReason } }

    func receive(_ frame: Frame) {
        // Decoded before the lock is taken: a viewer's thread reading ``latest`` to draw does not wait for a snapshot
        // of 1,000 mail types to decode.
        let snapshot = frame.kind == .snapshot ? Result { try SnapshotFrame.read(frame) } : nil
        state.withLock { state in
            if state.handshake == nil {
                state.handshake = frame
            } else if frame.kind == .error {
                state.closedReason = String(decoding: frame.payload, as: UTF8.self)
            } else if let snapshot {
                switch snapshot {
                case .success(let snapshot):
                    state.latest = snapshot
                    state.count += 1
                case .failure(let error):
                    state.closedReason = "the app sent a bad snapshot: \(error)"
                }
            }
        }
        condition.broadcast()
    }

    func close(_ reason: String) {
        state.withLock { state in
            if state.closedReason == nil { state.closedReason = reason }
        }
        condition.broadcast()
    }

    func waitForFrame(timeout: Double) -> Frame? {
        condition.wait(timeout: timeout) { state.withLock { $0.handshake != nil || $0.closedReason != nil } }
        return state.withLock { $0.handshake }
    }

    func waitForSnapshot(after count: Int, timeout: Double) -> SnapshotFrame? {
        condition.wait(timeout: timeout) { state.withLock { $0.count > count || $0.closedReason != nil } }
        return state.withLock { $0.count > count ? $0.latest : nil }
    }
}

final class ClientHandler: ChannelInboundHandler {
    typealias InboundIn = Frame

    private let inbox: ClientInbox

    init(inbox: ClientInbox) {
        self.inbox = inbox
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        inbox.receive(Self.unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        inbox.close("the app closed the connection")
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        inbox.close("\(error)")
        context.close(promise: nil)
    }
}
