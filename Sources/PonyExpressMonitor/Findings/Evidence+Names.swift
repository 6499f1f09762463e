/// The evidence names more than one rule uses. A rule's own names sit in its file.
extension Evidence.Name {
    /// The threshold a figure crossed.
    public static let threshold: Self = "threshold"
    /// Handler runs.
    public static let deliveries: Self = "deliveries"
    /// Live registrations.
    public static let live: Self = "live"
    /// The window judged, in seconds.
    public static let windowSeconds: Self = "window seconds"
}
