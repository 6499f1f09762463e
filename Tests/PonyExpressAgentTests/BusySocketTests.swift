import Dispatch
import Glibc
import PonyExpress
import PonyExpressAgent
import PonyExpressWire
import PonyTestSupport
import Testing

/// A listening Unix domain socket that accepts nothing until told to: its backlog fills, as an agent's does for a
/// moment after a burst of connections.
private final class SlowListener: @unchecked Sendable {
    let path: String
    let fd: Int32

    init(path: String) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(path)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        listen(fd, 0)
    }

    deinit {
        close(fd)
        unlink(path)
    }

    static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        return address
    }

    /// A non-blocking connection: its descriptor, or `nil` with `errno` when the socket refused it.
    func connectWithoutWaiting() -> Int32? {
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        var address = Self.address(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let saved = errno
            close(client)
            errno = saved
            return nil
        }
        return client
    }

    /// Accepts every waiting connection and greets each with an agent's hello, `count` in all.
    func acceptAndGreet(_ count: Int, hello: [UInt8]) -> [Int32] {
        (0..<count).map { _ in
            let peer = accept(fd, nil, nil)
            _ = hello.withUnsafeBytes { write(peer, $0.baseAddress, $0.count) }
            return peer
        }
    }
}

@Suite("connecting to a busy agent", .blocksItsThread, .serialized, .tags(.concurrency))
struct BusySocketTests {
    @Test("a connection the socket refuses because its backlog is full is tried again until the timeout")
    func backlogFull() throws {
        let listener = SlowListener(path: temporaryRuntimeDirectory() + "/busy.sock")
        var waiting: [Int32] = []
        defer { for fd in waiting { close(fd) } }
        while waiting.count < 64, let fd = listener.connectWithoutWaiting() { waiting.append(fd) }
        try #require(errno == EAGAIN, "the backlog is full: a connection now is refused with EAGAIN")
        #expect(throws: AgentClientError.self, "without an accept, the tries end with the timeout") {
            try AgentClient.connect(to: .socket(listener.path), timeout: 0.3)
        }

        // The listener starts accepting a moment after the client's first try.
        let hello = try Hello(pid: 1, processName: "busy", startedAt: 0).frame().bytes
        let accepted = Locked<[Int32]>([])
        let count = waiting.count + 1
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            let peers = listener.acceptAndGreet(count, hello: hello)
            accepted.withLock { $0 = peers }
        }
        let client = try AgentClient.connect(to: .socket(listener.path), timeout: 10)
        #expect(client.hello.processName == "busy")
        client.close()
        #expect(waitUntil(timeout: 10) { accepted.withLock { $0.count } == count })
        for fd in accepted.withLock({ $0 }) { close(fd) }
    }
}
