import PonyExpress

/// What Enter does on a pane's selected row (``RowsPane/enter(on:)``).
enum EnterAction: Equatable {
    /// Shows the drill-down screen of a mail type.
    case drillIn(TypeIdentity)
    /// Expands the record with this key, or collapses it when it is expanded.
    case toggle(String)
    /// Shows every field of the row.
    case details
}
