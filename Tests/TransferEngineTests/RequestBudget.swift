import HTTPProviderKit

/// The round-trip budget of issue 34 that ``RequestBudgetTests`` holds each adapter to: for each
/// operation the requests each adapter sends today, by method, beside what its protocol needs.
/// A change that adds a request fails the test; one that saves a request fails it too, until the
/// count here and the table in Benchmarks/README.md (printed by the test) are lowered.
enum RequestBudget {
    enum Adapter: CaseIterable, Hashable, Sendable {
        case apache, nextcloud, nuxeo, pydio

        var title: String {
            switch self {
            case .apache: "WebDAV (Apache)"
            case .nextcloud: "WebDAV (Nextcloud, loopback)"
            case .nuxeo: "Nuxeo (loopback)"
            case .pydio: "Pydio (loopback)"
            }
        }
    }

    /// The operations, in the order the test runs them on one connected provider.
    enum Operation: CaseIterable, Hashable, Sendable {
        case connect, firstWrite, stat, getFirst, getAgain, list, mkdir, putNew, putOverwrite
        case copyUp, copyDown, check

        var title: String {
            switch self {
            case .connect: "connect (`connect(_:)`)"
            case .stat: "stat of a file (`item(at:)`)"
            case .getFirst: "get of a 1 KB file (`data(at:)`), first"
            case .getAgain: "get of the same file again"
            case .list: "ls of a folder of 10 files (`listAll`)"
            case .firstWrite: "mkdir, the first write to a server new to the process"
            case .mkdir: "mkdir (`createFolder`)"
            case .putNew: "put of a new small file (`upload(data:to:)`)"
            case .putOverwrite: "put over that file"
            case .copyUp: "copy of a one-file tree, local → server, to a new folder (`TransferManager.copy`)"
            case .copyDown: "copy of a one-file tree, server → local"
            case .check: "check of a one-file tree, local against server (`TransferManager.check`)"
            }
        }

        /// What the protocols need, for the table's last column (the budgets' comments say the same).
        var minimum: String {
            switch self {
            case .connect: "0 with a remembered profile; else 1 (Pydio 3: seed, login, workspaces)"
            case .firstWrite: "as mkdir"
            case .stat, .list: "1"
            case .getFirst, .getAgain: "1 GET"
            case .mkdir: "WebDAV 1; Nuxeo, Pydio 2 (name look-up, create)"
            case .putNew, .putOverwrite: "WebDAV 1; Nuxeo 4 (look-up, batch, blob, document); Pydio 2"
            case .copyUp: "WebDAV 3 (look, MKCOL, PUT); Nuxeo 5; Pydio 3"
            case .copyDown: "2 (listing, GET)"
            case .check: "1 (listing)"
            }
        }
    }

    /// Requests by method.
    struct Counts: Equatable, Sendable {
        var byMethod: [String: Int]

        init(_ byMethod: [String: Int]) { self.byMethod = byMethod.filter { $0.value > 0 } }

        init(_ requests: [TransportRequest]) {
            var counts: [String: Int] = [:]
            for request in requests { counts[request.method.rawValue, default: 0] += 1 }
            self.init(counts)
        }

        var total: Int { byMethod.values.reduce(0, +) }

        /// `3: GET, 2 PROPFIND`: the total, then each method (with its count when above one), by name.
        var text: String {
            guard total > 0 else { return "0" }
            let methods = byMethod.keys.sorted().map { byMethod[$0] == 1 ? $0 : "\(byMethod[$0] ?? 0) \($0)" }
            return "\(total): " + methods.joined(separator: ", ")
        }
    }

    /// What the test measured, printed as Markdown.
    struct Table {
        private var cells: [Operation: [Adapter: Counts]] = [:]

        mutating func record(_ operation: Operation, _ adapter: Adapter, _ counts: Counts) { cells[operation, default: [:]][adapter] = counts }

        func cell(_ operation: Operation, _ adapter: Adapter) -> Counts? { cells[operation]?[adapter] }

        var markdown: String {
            var lines = ["| operation | " + Adapter.allCases.map(\.title).joined(separator: " | ") + " | protocol minimum |"]
            lines.append("|---|" + Adapter.allCases.map { _ in "---|" }.joined() + "---|")
            for operation in Operation.allCases {
                let row = Adapter.allCases.map { cell(operation, $0)?.text ?? "—" }
                lines.append("| \(operation.title) | " + row.joined(separator: " | ") + " | \(operation.minimum) |")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// The budget of `operation` on `adapter`; `nil` where it is not measured.
    static func budget(_ operation: Operation, _ adapter: Adapter) -> Counts? {
        budgets[operation]?[adapter].map { Counts($0) }
    }

    /// Today's counts (main at 8cec353), by method. Each operation's comment gives the protocol's
    /// minimum on a connected provider; Benchmarks/README.md says what each request above it is.
    private static let budgets: [Operation: [Adapter: [String: Int]]] = [
        // Minimum: none with a remembered server profile; else one look at the server (WebDAV
        // OPTIONS, Nuxeo's root document) or Pydio's sign-in (seed and login) and its workspaces.
        .connect: [
            .apache: ["OPTIONS": 1, "PROPFIND": 1],
            .nextcloud: ["GET": 2, "SEARCH": 1, "OPTIONS": 1, "PROPFIND": 1],
            .nuxeo: ["GET": 1],
            .pydio: ["GET": 3, "POST": 1],
        ],
        // Minimum: as mkdir. On WebDAV the capability verifier runs beside it, once per server
        // and process (its verdict is kept a day in the CLI's cache); Apache is not measured, as
        // other tests of the process may have verified it already.
        .firstWrite: [
            .nextcloud: ["COPY": 23, "DELETE": 1, "GET": 10, "MKCOL": 33, "MOVE": 23, "PROPFIND": 7, "PUT": 59],
            .nuxeo: ["GET": 2, "POST": 1],
            .pydio: ["GET": 2, "POST": 1],
        ],
        // Minimum: 1 (PROPFIND Depth 0; Nuxeo's GET by path; Pydio's ls of the file).
        .stat: [
            .apache: ["PROPFIND": 1],
            .nextcloud: ["PROPFIND": 1],
            .nuxeo: ["GET": 2],
            .pydio: ["GET": 1],
        ],
        // Minimum: 1 GET (size and etag are in the answer's headers).
        .getFirst: [
            .apache: ["GET": 1],
            .nextcloud: ["GET": 1],
            .nuxeo: ["GET": 1],
            .pydio: ["GET": 2],
        ],
        // Minimum: 1 GET. Nuxeo reads a listed file by its uid once; a second read looks it up again.
        .getAgain: [
            .apache: ["GET": 1],
            .nextcloud: ["GET": 1],
            .nuxeo: ["GET": 2],
            .pydio: ["GET": 2],
        ],
        // Minimum: 1 (PROPFIND Depth 1; Nuxeo's @children by path; Pydio's ls).
        .list: [
            .apache: ["PROPFIND": 1],
            .nextcloud: ["PROPFIND": 1],
            .nuxeo: ["GET": 2],
            .pydio: ["GET": 1],
        ],
        // Minimum: 1 MKCOL on WebDAV (it fails on a taken name); Nuxeo and Pydio 2, a look for
        // the name and the create (neither refuses a second folder of the same title/name).
        .mkdir: [
            .apache: ["MKCOL": 1, "PROPFIND": 1],
            .nextcloud: ["MKCOL": 1, "PROPFIND": 1],
            .nuxeo: ["GET": 2, "POST": 1],
            .pydio: ["GET": 2, "POST": 1],
        ],
        // Minimum: 1 PUT on WebDAV; Nuxeo 4 (the name looked up, a batch, its blob, the document);
        // Pydio 2 (the name looked up, the upload).
        .putNew: [
            .apache: ["PROPFIND": 1, "PUT": 1],
            .nextcloud: ["PROPFIND": 1, "PUT": 1],
            .nuxeo: ["GET": 2, "POST": 3],
            .pydio: ["GET": 1, "POST": 1],
        ],
        // Minimum: as a new file.
        .putOverwrite: [
            .apache: ["PROPFIND": 1, "PUT": 1],
            .nextcloud: ["PROPFIND": 1, "PUT": 1],
            .nuxeo: ["GET": 1, "POST": 2, "PUT": 1],
            .pydio: ["GET": 1, "POST": 1],
        ],
        // Minimum: a look at the destination, the folder made, the file sent: WebDAV 3 (PROPFIND,
        // MKCOL, PUT); Nuxeo 5 (a search, the folder, batch, blob, document); Pydio 3.
        .copyUp: [
            .apache: ["MKCOL": 1, "PROPFIND": 2, "PUT": 1],
            .nextcloud: ["MKCOL": 1, "PROPFIND": 3, "PUT": 1],
            .nuxeo: ["GET": 6, "POST": 4],
            .pydio: ["GET": 5, "POST": 2],
        ],
        // Minimum: the listing of the folder and the file's GET: 2.
        .copyDown: [
            .apache: ["GET": 1, "PROPFIND": 2],
            .nextcloud: ["GET": 1, "PROPFIND": 2],
            .nuxeo: ["GET": 5],
            .pydio: ["GET": 4],
        ],
        // Minimum: the listing of the folder: 1 (sizes and times are in it).
        .check: [
            .apache: ["PROPFIND": 2],
            .nextcloud: ["PROPFIND": 2],
            .nuxeo: ["GET": 3],
            .pydio: ["GET": 2],
        ],
    ]
}
