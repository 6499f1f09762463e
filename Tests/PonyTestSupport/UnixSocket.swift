import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A Unix socket listening at `path`, for a test that plays an agent, or a stopped app nobody accepts on.
///
/// - Returns: The listening descriptor; the caller closes it.
/// - Throws: `POSIXError` when it cannot bind or listen.
public func listeningUnixSocket(at path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    guard bound == 0, listen(fd, 4) == 0 else {
        close(fd)
        throw POSIXError(.EADDRINUSE)
    }
    return fd
}
