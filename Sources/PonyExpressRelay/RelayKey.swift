import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The secret a fleet of relays shares to sign and check its envelopes (HMAC-SHA256): at least 32 random bytes.
///
/// PostgreSQL has no permissions on `LISTEN`/`NOTIFY` channels, so any role that can connect to the database can
/// send on the relay's channel. With a key, a relay posts only envelopes signed with it. The key comes from the
/// configuration of the process, never its command line (where the process list shows it to every user): the
/// environment variable ``environmentVariable`` holds it in base64, or the file named by ``fileVariable`` does.
///
/// ```swift
/// var configuration = try RelayConfiguration(url: "postgres://app@db/app", channel: "mail")
/// configuration.authentication = .key(try RelayKey.fromEnvironment())
/// ```
///
/// Make one with `openssl rand -base64 32`. Its ``description`` never shows the bytes.
public struct RelayKey: Sendable, CustomStringConvertible {
    /// The key's bytes.
    let bytes: [UInt8]

    /// The fewest bytes a key may have: HMAC-SHA256's own output size, below which the key is the weak part.
    public static let minimumBytes = 32
    /// The environment variable that holds a key in base64: `PONYEXPRESS_RELAY_KEY`.
    public static let environmentVariable = "PONYEXPRESS_RELAY_KEY"
    /// The environment variable that names a file holding a key in base64: `PONYEXPRESS_RELAY_KEY_FILE`.
    public static let fileVariable = "PONYEXPRESS_RELAY_KEY_FILE"

    /// Creates a key from its bytes.
    ///
    /// - Parameter bytes: At least ``minimumBytes`` bytes, random.
    /// - Throws: ``RelayConfigurationError`` when there are fewer.
    public init(bytes: some Collection<UInt8>) throws(RelayConfigurationError) {
        guard bytes.count >= Self.minimumBytes else {
            throw RelayConfigurationError(
                "the relay key must be at least \(Self.minimumBytes) bytes, got \(bytes.count) (make one with openssl rand -base64 32)"
            )
        }
        self.bytes = Array(bytes)
    }

    /// Reads a key in base64 (standard alphabet, padded; surrounding whitespace ignored).
    ///
    /// - Parameters:
    ///   - base64: The key in base64.
    ///   - source: What held it, for the error message.
    /// - Throws: ``RelayConfigurationError`` for text that is not base64 or decodes to too few bytes; the message
    ///   never contains the text.
    public init(base64: String, source: String = "the relay key") throws(RelayConfigurationError) {
        let text = base64.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let data = Data(base64Encoded: text) else {
            throw RelayConfigurationError(
                "\(source) is not base64 (\(text.utf8.count) characters); make a key with openssl rand -base64 32")
        }
        do {
            try self.init(bytes: data)
        } catch {
            throw RelayConfigurationError("\(source): \(error.description)")
        }
    }

    /// Reads the key from the environment: ``environmentVariable`` (base64), else the file named by
    /// ``fileVariable``.
    ///
    /// The file holds the key in base64 and must be a regular file of at most 4 KiB that neither its group nor
    /// others can read or write (`chmod 600`): a key anyone on the machine can read is no secret, so such a file is
    /// refused rather than used, unlike libpq's password file, which is ignored.
    ///
    /// - Parameter environment: Where to look; the process's environment by default.
    /// - Returns: The key.
    /// - Throws: ``RelayConfigurationError`` when neither variable is set, both are, or the key is unusable.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(RelayConfigurationError) -> RelayKey {
        let inline = environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        let path = environment[fileVariable].flatMap { $0.isEmpty ? nil : $0 }
        switch (inline, path) {
        case (let inline?, nil):
            return try RelayKey(base64: inline, source: environmentVariable)
        case (nil, let path?):
            return try RelayKey(base64: readPrivateFile(path), source: "\(fileVariable) (\(path))")
        case (.some, .some):
            throw RelayConfigurationError("set \(environmentVariable) or \(fileVariable), not both")
        case (nil, nil):
            throw RelayConfigurationError(
                "no relay key: set \(environmentVariable) (base64) or \(fileVariable) (a file only its owner can read)")
        }
    }

    /// A key file's text: refused unless a regular file of at most 4 KiB private to its owner.
    private static func readPrivateFile(_ path: String) throws(RelayConfigurationError) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw RelayConfigurationError("\(fileVariable): cannot read \(path) (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_size <= 4_096 else {
            throw RelayConfigurationError("\(fileVariable): \(path) must be a regular file of at most 4096 bytes")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw RelayConfigurationError(
                "\(fileVariable): \(path) can be read or written by its group or others (mode \(String(status.st_mode & 0o777, radix: 8))); chmod 600 it"
            )
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RelayConfigurationError("\(fileVariable): cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// `RelayKey(N bytes)`, never the bytes.
    public var description: String { "RelayKey(\(bytes.count) bytes)" }
}
