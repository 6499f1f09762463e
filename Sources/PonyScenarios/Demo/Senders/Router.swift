/// A demo sender that shows screens; posts ScreenViewed.
public final class Router: DemoSender {
    public let instance: Int

    public init(instance: Int) {
        self.instance = instance
    }
}
