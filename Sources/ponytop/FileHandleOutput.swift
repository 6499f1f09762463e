import Glibc

/// Unbuffered writes to stdout and stderr that stop quietly when the reader is gone (EPIPE, SIGPIPE ignored).
enum FileHandleOutput {
    static func standardOutput(_ text: String) { write(text, to: STDOUT_FILENO) }

    static func standardError(_ text: String) { write(text, to: STDERR_FILENO) }

    private static func write(_ text: String, to descriptor: Int32) {
        signal(SIGPIPE, SIG_IGN)
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
