import PonyExpressMonitor
import PonyTopModel

// The rows of `PonyTopModel` that the tables select, expand and freeze by their key.

extension SiteRow: Keyed {}
extension PruneGroupRow: Keyed {}
extension MailTypeStats: Keyed {}
extension QueueStats: Keyed {}
extension FindingLog.Entry: Keyed {}
