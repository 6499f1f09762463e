/// A relay configuration that cannot be used: a malformed URL, a channel name too long, a bound out of range.
///
/// Its message names what was wrong and what is valid, and never contains a password.
public struct RelayConfigurationError: Error, Sendable, CustomStringConvertible, Equatable {
    /// One line: what was wrong and what is valid.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
