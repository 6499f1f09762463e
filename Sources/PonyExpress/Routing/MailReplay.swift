/// Kept mail, taken under the post office's lock for a new ``RegistrationOptions/replay`` registration, and
/// delivered to it once the lock is released.
struct MailReplay {
    let deliver: (_ registration: Registration, _ office: PostOffice, _ taps: TapList?) -> Void
}
