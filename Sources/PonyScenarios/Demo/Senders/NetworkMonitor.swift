/// A demo sender that watches the network; posts Reachability.
public final class NetworkMonitor: DemoSender {
    public let instance: Int

    public init(instance: Int) {
        self.instance = instance
    }
}
