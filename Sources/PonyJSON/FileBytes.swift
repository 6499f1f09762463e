#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a small text file whole, with one-line errors: scenario files and ponytop's config file alike.
package enum FileBytes {
    /// Reads at most ``JSONReader/maxFileSize`` bytes (and one more, to tell a file that is too large) from a
    /// regular file.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - document: What the file should be, such as `scenario file`.
    ///   - ifMissing: What a missing file's error says was expected, and the valid names it lists.
    /// - Returns: The bytes.
    package static func read(
        _ path: String, document: String, ifMissing: (expected: String, valid: [String])
    ) throws(DocumentProblem) -> [UInt8] {
        let maxFileSize = JSONReader.maxFileSize
        func failure(
            _ problem: String, expected: String = "a readable \(document)", found: String? = nil
        )
            -> DocumentProblem
        {
            DocumentProblem(file: path, problem: problem, expected: expected, found: found)
        }
        guard !path.isEmpty else { throw failure("no file name given", found: "an empty path") }
        guard !path.utf8.contains(0) else { throw failure("file name contains a NUL byte") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT {
                throw DocumentProblem(
                    file: path, problem: "no such file", expected: ifMissing.expected, found: nil,
                    valid: ifMissing.valid)
            }
            throw failure("cannot open file: \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw failure("cannot read file: \(String(cString: strerror(errno)))")
        }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { throw failure("is a directory", expected: "a \(document)", found: "a directory") }
        guard kind == S_IFREG else { throw failure("not a regular file", expected: "a \(document)") }
        if status.st_size > off_t(maxFileSize) {
            throw failure("file too large", expected: "at most \(maxFileSize) bytes", found: "\(status.st_size) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: maxFileSize + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read file: \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            count += got
        }
        if count > maxFileSize {
            throw failure("file too large", expected: "at most \(maxFileSize) bytes", found: "more")
        }
        bytes.removeSubrange(count...)
        return bytes
    }
}

/// The C library's `read`, which ``FileBytes/read(_:document:ifMissing:)`` hides by name.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
