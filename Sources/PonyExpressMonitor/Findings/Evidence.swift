/// One number behind a ``Finding``, such as a live recipient count or a rate.
public struct Evidence: Sendable, Codable, Hashable {
    /// What the number is, in a few words: `"live recipients"`, `"threshold"`.
    public let name: String
    /// The number.
    public let value: Double

    /// Creates a piece of evidence.
    ///
    /// - Parameters:
    ///   - name: What the number is.
    ///   - value: The number.
    public init(name: String, value: Double) {
        self.name = name
        self.value = value
    }
}
