/// A demo sender that keeps the shopping cart; posts CartUpdated.
public final class CartService: DemoSender {
    public let instance: Int

    public init(instance: Int) {
        self.instance = instance
    }
}
