import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.0 client for loopback servers in tests, and a free-port finder: plain sockets, every call bounded
/// by a receive timeout so that a silent server fails the test instead of hanging it.
public enum LoopbackHTTP {
    /// A response's status and body.
    public struct Response: Sendable {
        public let status: Int
        public let body: String
    }

    /// Sends `GET path` to 127.0.0.1:`port`; `nil` when nothing listens there or no full answer came in time.
    public static func get(port: Int, path: String, timeout: Double = 5) -> Response? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard send(socket, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count < 0 { return nil }
            received += buffer[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let headerEnd = text.range(of: "\r\n\r\n") else { return nil }
        let statusLine = text[..<headerEnd.lowerBound].prefix { $0 != "\r" }.split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        return Response(status: status, body: String(text[headerEnd.upperBound...]))
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago.
    public static func freePort() -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(socket, $0, length)
                _ = getsockname(socket, $0, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A socket listening on a free loopback port, to hold the port busy; close it when done.
    public static func listeningSocket() -> (socket: Int32, port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(socket, $0, length)
                _ = listen(socket, 1)
                _ = getsockname(socket, $0, &length)
            }
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A socket connected to 127.0.0.1:`port`, or `nil`.
    public static func connection(to port: Int) -> Int32? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            return nil
        }
        return socket
    }

    /// What arrives until the server closes (`closed`) or `timeout` seconds pass.
    public static func readToEnd(_ socket: Int32, timeout: Double) -> (bytes: [UInt8], closed: Bool) {
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { return (bytes, true) }
            if count < 0 { return (bytes, errno == ECONNRESET) }
            bytes += buffer[..<count]
        }
    }

    /// Whether the server closed the connection (it may have left answers unread in it).
    public static func peerClosed(_ socket: Int32) -> Bool {
        // POLLRDHUP (0x2000) is Linux's "the peer closed its side"; Glibc hides its name behind _GNU_SOURCE.
        let readHangUp: Int16 = 0x2000
        var status = pollfd(fd: socket, events: readHangUp, revents: 0)
        return poll(&status, 1, 0) > 0 && status.revents & (readHangUp | Int16(POLLHUP | POLLERR)) != 0
    }

    /// The resident memory of a process, from `/proc/<pid>/statm`.
    public static func residentBytes(of pid: pid_t) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
