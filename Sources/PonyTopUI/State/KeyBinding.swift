/// One line of the key map: the keys, how help names them, and what they do.
package struct KeyBinding: Sendable {
    /// The keys that trigger the action.
    package let keys: [Key]
    /// How the help screen and README name the keys, such as `Up, k`.
    package let label: String
    /// The action.
    package let action: Action
    /// What it does, in a few words.
    package let summary: String

    /// Creates a binding.
    package init(_ keys: [Key], _ label: String, _ action: Action, _ summary: String) {
        self.keys = keys
        self.label = label
        self.action = action
        self.summary = summary
    }
}
