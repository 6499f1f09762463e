/// The mail type under which the monitor counts mail of every type beyond ``MonitorSettings/mailTypeCapacity``.
public enum OtherMailTypes: Sendable {}
