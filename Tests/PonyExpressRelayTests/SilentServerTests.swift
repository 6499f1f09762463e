import Foundation
import PonyExpress
import PonyExpressRelay
import PonyTestSupport
import Testing

/// A server that takes the connection and never answers: the kernel completes the TCP handshake from the listening
/// socket's backlog, and nothing reads or writes. An attempt to connect must end within the connect timeout, and the
/// relay must try again, whatever stage the silence stops it at.
///
/// The time limit is a backstop against a hang (each wait inside has its own 30 s deadline) and counts the wait for
/// a blocking test's turn: in CI's ThreadSanitizer pass at `e7ada44` both tests ended 175 s after they were queued,
/// against a limit of 3 minutes then.
@Suite(.blocksItsThread, .tags(.concurrency), .timeLimit(.minutes(10))) struct SilentServerTests {
    /// A listening socket on a free loopback port that never accepts.
    final class SilentListener {
        let descriptor: Int32
        let port: Int

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0, listen(descriptor, 16) == 0 else {
                close(descriptor)
                throw POSIXError(.EADDRINUSE)
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            self.descriptor = descriptor
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }

    /// A server that lets every client in (authentication OK, ready for queries) and then never answers a query: a
    /// `LISTEN` that is never acknowledged, as a server or a client library that stopped halfway leaves it.
    final class MuteAfterStartupServer: @unchecked Sendable {
        let listener: SilentListener
        private let connections = Locked<[Int32]>([])

        init() throws {
            listener = try SilentListener()
            let descriptor = listener.descriptor
            Thread.detachNewThread { [connections] in
                while true {
                    let client = accept(descriptor, nil, nil)
                    guard client >= 0 else { return }
                    connections.withLock { $0.append(client) }
                    Thread.detachNewThread { Self.serve(client) }
                }
            }
        }

        /// Reads the startup message, answers it, then reads and drops whatever comes until the client leaves.
        private static func serve(_ client: Int32) {
            var length: UInt32 = 0
            guard read(client, &length, 4) == 4 else { return }
            var rest = [UInt8](repeating: 0, count: Int(UInt32(bigEndian: length)) - 4)
            guard rest.isEmpty || read(client, &rest, rest.count) > 0 else { return }
            // AuthenticationOk, BackendKeyData, ReadyForQuery (idle).
            let answer: [UInt8] =
                [0x52, 0, 0, 0, 8, 0, 0, 0, 0] + [0x4B, 0, 0, 0, 12, 0, 0, 0, 1, 0, 0, 0, 2] + [0x5A, 0, 0, 0, 5, 0x49]
            _ = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            var sink = [UInt8](repeating: 0, count: 4_096)
            while read(client, &sink, sink.count) > 0 {}
        }

        deinit {
            shutdown(listener.descriptor, Int32(SHUT_RDWR))
            for client in connections.withLock({ $0 }) { close(client) }
        }
    }

    @Test func aListenTheServerNeverAcknowledgesEndsTheAttemptWithinTheConnectTimeoutAndTheRelayTriesAgain() throws {
        let server = try MuteAfterStartupServer()
        let (relay, logs) = try Self.relay(to: server.listener.port)
        defer { relay.stop() }
        #expect(relay.statistics.connections == 0)
        // The sending connection fails on the same mute server, and may fail twice before the listening one logs.
        #expect(
            waitUntil(timeout: 30) { logs.all.contains { $0.contains("did not start listening within 500 ms") } },
            "\(logs.all.suffix(4))")
    }

    @Test func anAttemptToAServerThatNeverAnswersEndsWithinTheConnectTimeoutAndTheRelayTriesAgain() throws {
        let listener = try SilentListener()
        let (relay, logs) = try Self.relay(to: listener.port)
        defer { relay.stop() }
        #expect(
            waitUntil(timeout: 30) { logs.all.contains { $0.contains("Connect timeout (500 ms)") } },
            "\(logs.all.suffix(4))")
    }

    /// A relay connecting to `port` with a connect timeout of 500 ms, once it has failed twice (each attempt given up
    /// at its deadline, well within the wait) and is not connected.
    private static func relay(to port: Int) throws -> (PostgresRelay, LogCapture.Lines) {
        let (logger, logs) = LogCapture.logger()
        var configuration = RelayConfiguration(
            host: "127.0.0.1", port: port, username: "nobody", database: "none", channel: "silent")
        configuration.connectTimeout = .milliseconds(500)
        configuration.maximumBackoff = .milliseconds(200)
        configuration.authentication = .key(.test)
        let relay = try PostgresRelay.start(office: PostOffice(), configuration: configuration, logger: logger)
        #expect(
            waitUntil(timeout: 30) { relay.statistics.connectionFailures >= 2 },
            "\(relay.statistics.connectionFailures) failures; \(logs.all.suffix(4))")
        #expect(!relay.statistics.isConnected)
        return (relay, logs)
    }
}
