import PonyExpressMonitor

extension RecipientStats {
    /// `verified` for registrations of `VerifiedMail`, `once`, `replay` and `over limit` for registrations made so,
    /// how many times kept mail was replayed, and the scope it was made in (`scope GET /rooms/:room`): shown after a
    /// registration's row and in its details.
    package var markers: [String] {
        var markers: [String] = []
        if info.isVerified { markers.append("verified") }
        if info.isOnce { markers.append("once") }
        if info.options.contains(.replay) { markers.append("replay") }
        if info.isOverLimit { markers.append("over limit") }
        if replays > 0 { markers.append(replays == 1 ? "1 replay" : "\(replays) replays") }
        if let scope = info.scope { markers.append("scope \(scope.name)") }
        return markers
    }
}
