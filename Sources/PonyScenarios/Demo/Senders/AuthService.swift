/// A demo sender that signs users in and out; posts LoginEvent and LogoutEvent.
public final class AuthService: DemoSender {
    public let instance: Int

    public init(instance: Int) {
        self.instance = instance
    }
}
