import Glibc

/// Writes a recording as it happens: each frame in one `write`, so that a killed recorder leaves whole frames and at
/// most one partial one, which ``Recording`` skips.
package final class RecordingWriter {
    private let fd: Int32
    package let path: String

    /// Creates the file (or, with `overwrite`, truncates an existing one) and writes the magic bytes and the hello.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - hello: Who is recorded.
    ///   - overwrite: Whether an existing file may be replaced; without it, one is refused.
    /// - Throws: ``WireError/refused(_:)`` naming the file and the system's reason.
    package init(path: String, hello: Hello, overwrite: Bool = false) throws {
        fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL), 0o644)
        guard fd >= 0 else {
            if errno == EEXIST {
                throw WireError.refused("'\(path)' exists; add --force to overwrite it")
            }
            throw WireError.refused("cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        self.path = path
        try write(Recording.magic)
        try write(checksummed: try hello.frame().bytes)
    }

    deinit {
        close(fd)
    }

    /// Appends a snapshot frame.
    package func append(_ frame: SnapshotFrame) throws {
        try write(checksummed: try frame.frame.bytes)
    }

    /// Writes a frame and the checksum of its body, in one `write`.
    private func write(checksummed frame: [UInt8]) throws {
        try write(Recording.checksummed(frame))
    }

    private func write(_ bytes: [UInt8]) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw WireError.refused("cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            written += count
        }
    }
}
