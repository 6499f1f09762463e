/// A demo sender that runs downloads; posts DownloadProgress.
public final class DownloadManager: DemoSender {
    public let instance: Int

    public init(instance: Int) {
        self.instance = instance
    }
}
