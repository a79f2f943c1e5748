import Foundation

/// The workspaces every user sees, as pydio-core 8.2.5 lists them.
enum WorkspaceCatalog {
    struct Entry: Sendable {
        var id: String
        var slug: String
        /// `true` for the `fs` workspaces that hold files.
        var holdsFiles: Bool
    }

    static let entries: [Entry] = [
        Entry(id: "0", slug: "default", holdsFiles: true),
        Entry(id: "1", slug: "my-files", holdsFiles: true),
        Entry(id: "ajxp_home", slug: "welcome", holdsFiles: false),
        Entry(id: "inbox", slug: "inbox", holdsFiles: false),
        Entry(id: "ajxp_conf", slug: "settings", holdsFiles: false),
    ]

    /// By id or slug.
    static func resolve(_ idOrSlug: String) -> Entry? {
        entries.first { $0.id == idOrSlug } ?? entries.first { $0.slug == idOrSlug }
    }
}
