// The original PonyExpress's examples (seeds 000 and 001) as written there, with the declarations they assume
// (`ExampleSender`) and `init()` for their `func init()` typo. Built and run with the rest of this app in Swift 5 mode,
// in debug and release, by `.ci/language-modes`; `CompileFailureTests` type-checks this file in both language modes.

import Dispatch
import PonyExpress

struct ExampleNotification: Mail {
    var info: Int
    var other: Float
}
class ExampleSender {}

class ExampleRecipient {
    init() {
        PostOffice.default.register(self, ExampleRecipient.receive)
    }

    func receive(notification: ExampleNotification) {
        // ... process the notification
    }
}

enum ExampleEnum: Mail {
    case fumble
    case mumble(bumble: Int)
}

class MyClass {
    var token: RecipientId?

    init() {
        PostOffice.default.register(self, MyClass.receive)
        token = PostOffice.default.register { [weak self] (notification: ExampleNotification) in
            // process the notification
            _ = self
        }
    }

    func receive(notification: ExampleNotification, sender: ExampleSender) {
        // process the notification
    }
}

class SenderRecipient {
    init() {
        PostOffice.default.register(self, SenderRecipient.receiveWithOptionalSender)
        PostOffice.default.register(self, SenderRecipient.receiveWithSender)
        PostOffice.default.register(self, SenderRecipient.receiveWithoutSender)
    }
    func receiveWithOptionalSender(notification: ExampleNotification, sender: ExampleSender?) {}
    func receiveWithSender(notification: ExampleNotification, sender: ExampleSender) {}
    func receiveWithoutSender(notification: ExampleNotification) {}
}

func examples(myDispatchQueue: DispatchQueue) {
    let recipient = ExampleRecipient()
    PostOffice.default.post(ExampleNotification(info: 12, other: 15))
    PostOffice.default.register { (mail: ExampleEnum) in
        // ... process the notification
    }
    PostOffice.default.post(ExampleEnum.mumble(bumble: 12))
    let sender = ExampleSender()
    let senderRecipient = SenderRecipient()
    PostOffice.default.register(sender: sender, senderRecipient, SenderRecipient.receiveWithSender)
    PostOffice.default.register(sender: sender, senderRecipient, SenderRecipient.receiveWithoutSender)
    PostOffice.default.post(ExampleNotification(info: 12, other: 15), sender: sender)
    PostOffice.default.register(queue: myDispatchQueue, recipient, ExampleRecipient.receive)
}
