import ArgumentParser
import Foundation
import ProviderAPI
import ProviderKit

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search below a folder.",
        discussion: """
            QUERY is one argument (quote it for the shell) of terms separated by
            spaces, all of which must hold:
              name:TEXT         the name contains TEXT (case-insensitive)
              text:TEXT, TEXT   full text of content or metadata, where indexed
              type:file|folder  only files or only folders
              mime:TYPE         this MIME type; image/* for a family
              size>N, size<N    size in bytes (also >=, <=; suffixes k, m, g)
              modified>DATE     modified at or after DATE (YYYY-MM-DD is
                                midnight UTC; or an ISO 8601 time)
              modified<DATE     modified before DATE
            Quote values with spaces inside QUERY: 'name:"annual report"'.
            Results are limited to the folder the URL names.

            With --native, or when QUERY starts with SELECT, QUERY is the
            server's own query language (NXQL for Nuxeo), sent untouched.

            Examples:
              strata search nuxeo://ann@host/nuxeo/default-domain/workspaces \\
                'name:report type:file size>1m'
              strata search nuxeo://ann@host/nuxeo/ \\
                "SELECT * FROM Document WHERE ecm:primaryType = 'File'"
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The folder to search under, e.g. nuxeo://host/nuxeo/default-domain/workspaces") var target: String
    @Argument(help: "The query (see above).") var query: String
    @Flag(help: "Send QUERY to the server untouched, in its own query language.") var native = false
    @Option(help: "Stop after this many results.") var limit: Int?
    @Option(help: "Fetch results in pages of this many.") var pageSize: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if let pageSize, pageSize < 1 { throw ValidationError("--page-size must be at least 1") }
        // Syntax errors before any request; an empty query is fine below a folder.
        if !native, !query.allSatisfy(\.isWhitespace) { _ = try SearchQueryParser.parse(query, under: .root) }
    }

    func run() async throws {
        let (provider, path) = try await global.open(target)
        let parsed = native ? Query.native(query) : try SearchQueryParser.parse(query, under: path)
        let items = try await Self.collect(parsed, from: provider, limit: limit, pageSize: pageSize)
        try Output.items(items, json: global.json, showingPaths: true)
    }

    /// All results, page by page, until the last page or `limit` items.
    static func collect(_ query: Query, from provider: any StorageProvider, limit: Int?, pageSize: Int?) async throws -> [Item] {
        var items: [Item] = []
        // One page size throughout: some servers' cursors are page numbers of that size.
        var request = PageRequest(limit: pageSize ?? limit)
        var pages = PageGuard("the search results", limits: provider.pageLimits)
        while true {
            let page = try await provider.search(query, page: request)
            try pages.admit(page)
            items += page.items
            if let limit, items.count >= limit { return Array(items.prefix(limit)) }
            guard let next = page.next else { return items }
            request.cursor = next
        }
    }
}
