import PonyExpress
import PonyExpressMonitor

/// A fresh post office watched by a monitor on a ``ManualClock``: where most monitor tests start.
///
/// ```swift
/// let (office, monitor, clock) = watchedOffice { $0.leakWindow = 5 }
/// office.post(Ping())
/// clock.advance(seconds: 1)
/// ```
///
/// - Parameter configure: Changes to the default settings.
/// - Returns: The post office, its attached monitor and the monitor's clock.
func watchedOffice(
    _ configure: (inout MonitorSettings) -> Void = { _ in }
) -> (office: PostOffice, monitor: PostOfficeMonitor, clock: ManualClock) {
    watching(PostOffice(), configure)
}

/// Attaches a monitor on a ``ManualClock`` to an existing post office, for tests that register before attaching.
///
/// - Parameters:
///   - office: The post office to watch.
///   - configure: Changes to the default settings.
/// - Returns: The post office, its attached monitor and the monitor's clock.
func watching(
    _ office: PostOffice, _ configure: (inout MonitorSettings) -> Void = { _ in }
) -> (office: PostOffice, monitor: PostOfficeMonitor, clock: ManualClock) {
    var settings = MonitorSettings()
    configure(&settings)
    let clock = ManualClock()
    let monitor = PostOfficeMonitor(settings: settings, clock: clock)
    monitor.attach(to: office)
    return (office, monitor, clock)
}
