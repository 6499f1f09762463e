/// One line of the key map: the keys, how help names them, and what they do.
public struct KeyBinding: Sendable {
    /// The keys that trigger the action.
    public let keys: [Key]
    /// How the help screen and README name the keys, such as `Up, k`.
    public let label: String
    /// The action.
    public let action: Action
    /// What it does, in a few words.
    public let summary: String

    /// Creates a binding.
    public init(_ keys: [Key], _ label: String, _ action: Action, _ summary: String) {
        self.keys = keys
        self.label = label
        self.action = action
        self.summary = summary
    }
}
