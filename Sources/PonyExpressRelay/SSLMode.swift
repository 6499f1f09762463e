import PostgresNIO

/// A postgres URL's `sslmode=`, named as libpq names it, and what it means for postgres-nio's TLS.
///
/// | `sslmode`     | TLS                               | the server's certificate                    |
/// |---------------|-----------------------------------|---------------------------------------------|
/// | `disable`     | never                             | -                                           |
/// | `prefer`      | when the server offers it         | not checked                                 |
/// | `require`     | always, or no connection          | not checked (encryption only, as in libpq)  |
/// | `verify-ca`   | always, or no connection          | signed by a trusted authority               |
/// | `verify-full` | always, or no connection          | trusted, and issued for the URL's host      |
///
/// libpq's `allow` (plain first, TLS only if the server insists) has no counterpart in postgres-nio, so it is refused.
/// Trusted authorities are the system's default trust roots.
enum SSLMode: String, CaseIterable, Sendable {
    case disable
    case prefer
    case require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"

    /// `disable, prefer, require, verify-ca or verify-full`: what an error lists as valid.
    static let valid =
        allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + (allCases.last?.rawValue ?? "")

    /// Reads an `sslmode=` value.
    ///
    /// - Throws: ``RelayConfigurationError`` naming the valid values.
    init(parsing value: String) throws(RelayConfigurationError) {
        guard let mode = SSLMode(rawValue: value) else {
            throw RelayConfigurationError(
                "the URL's sslmode must be \(Self.valid), got \(PostgresRelay.Refusal.printable(value))")
        }
        self = mode
    }

    /// How the server's certificate is checked; `nil` without TLS.
    var certificateVerification: CertificateVerification? {
        switch self {
        case .disable: nil
        case .prefer, .require: CertificateVerification.none
        case .verifyCA: .noHostnameVerification
        case .verifyFull: .fullVerification
        }
    }

    /// postgres-nio's TLS for this mode.
    ///
    /// - Throws: ``RelayConfigurationError`` when the TLS context cannot be made (the system's trust roots cannot
    ///   be read, for example).
    func tls() throws(RelayConfigurationError) -> PostgresConnection.Configuration.TLS {
        guard let certificateVerification else { return .disable }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = certificateVerification
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw RelayConfigurationError(
                "sslmode=\(rawValue): cannot set up TLS (\(PostgresRelay.Refusal.printable("\(error)")))")
        }
        return self == .prefer ? .prefer(context) : .require(context)
    }
}
