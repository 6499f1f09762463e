/// A demo sender that talks to the server; posts RequestFinished and RequestFailed.
public final class APIClient: DemoSender {
    public let instance: Int

    public init(instance: Int) {
        self.instance = instance
    }
}
