import Glibc

/// A peer that speaks raw bytes to a Unix domain socket, to test what an agent or ponytop does with bad input.
final class RawPeer {
    let fd: Int32

    /// Connects to a socket.
    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
    }

    /// Bytes a non-blocking ``trySend(_:)`` could not write yet, sent before any later ones.
    private var unsent: [UInt8] = []

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Makes writes return at once when the socket's buffer is full, as a peer flooding the agent does.
    func makeNonBlocking() {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Writes what it can without blocking; the rest waits for the next call, so that frames stay whole.
    ///
    /// - Returns: Whether everything, `bytes` included, was written.
    @discardableResult
    func trySend(_ bytes: [UInt8]) -> Bool {
        unsent += bytes
        while !unsent.isEmpty {
            let count = unsent.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            unsent.removeFirst(count)
        }
        return true
    }

    /// Sends `request` again and again, as fast as the socket takes it, for `seconds` or `count` requests: a request
    /// that did not fit waits here (its rest goes first), as a real flood's does, and is counted once it is sent.
    ///
    /// - Returns: How many requests were sent whole.
    func flood(_ request: [UInt8], count: Int = .max, seconds: Double) -> Int {
        var sent = 0
        var waiting = false
        let deadline = MonotonicNow.seconds() + seconds
        while sent < count, MonotonicNow.seconds() < deadline {
            if trySend(waiting ? [] : request) {
                sent += 1
                waiting = false
            } else {
                waiting = true
                usleep(1_000)
            }
        }
        return sent
    }

    /// Everything the other side sends until it closes (or 10 s pass).
    func readToEnd() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { return bytes }
            bytes += buffer[..<count]
        }
    }
}

extension RawPeer {
    /// Reads one whole frame (its length field, then its body) and returns its body; `nil` when the connection
    /// closed or nothing arrived within the socket's 10 s receive timeout.
    func readFrame() -> [UInt8]? {
        guard let header = readExactly(4) else { return nil }
        return readExactly(header.reduce(0) { $0 << 8 | Int($1) })
    }

    private func readExactly(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, count - done) }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }
}
