import Glibc

/// The directory SARIF paths are made relative to: `--source-root`, else the git root above the current directory,
/// else the current directory.
enum SourceRoot {
    /// The absolute source root, without a trailing slash.
    ///
    /// - Parameter option: `--source-root`'s value, if given.
    /// - Throws: ``SourceRootError`` when the given directory does not exist.
    static func resolve(_ option: String?) throws -> String {
        let current = currentDirectory()
        if let option {
            let path = option.hasPrefix("/") ? option : current + "/" + option
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw SourceRootError(message: "--source-root: '\(option)' is not a directory")
            }
            return realPath(path) ?? path
        }
        var directory = current
        while true {
            if access(directory + "/.git", F_OK) == 0 { return directory }
            guard let slash = directory.lastIndex(of: "/"), directory != "/" else { return current }
            directory = slash == directory.startIndex ? "/" : String(directory[..<slash])
        }
    }

    private static func currentDirectory() -> String {
        guard let pointer = getcwd(nil, 0) else { return "." }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}

/// A `--source-root` that cannot be used, in one line.
struct SourceRootError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
