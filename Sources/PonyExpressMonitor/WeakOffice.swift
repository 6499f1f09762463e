import PonyExpress

/// The post office a monitor watches, held weakly so that the monitor does not keep it alive.
struct WeakOffice {
    weak var office: PostOffice?
}
